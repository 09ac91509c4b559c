package sessions

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// mustOpen opens a fresh store in a temporary directory.
func mustOpen(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sessions.db"), nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// turn is one JSONL line under construction; zero fields are omitted.
type turn struct {
	Session, Provider, ID, Parent, Role, Content, Time, Tier string
	SpeakerID, SpeakerDisplay                                string
	Group, Synthetic                                         bool
}

func (tr turn) line() string {
	m := map[string]any{"session": tr.Session, "id": tr.ID, "role": tr.Role, "content": tr.Content}
	if tr.Session == "" {
		m["session"] = "s1"
	}
	if tr.Time == "" {
		m["time"] = "2026-08-10T12:00:00Z"
	} else {
		m["time"] = tr.Time
	}
	if tr.Parent != "" {
		m["parent"] = tr.Parent
	}
	for k, v := range map[string]string{"provider": tr.Provider, "tier": tr.Tier,
		"speaker_id": tr.SpeakerID, "speaker_display": tr.SpeakerDisplay} {
		if v != "" {
			m[k] = v
		}
	}
	if tr.Group {
		m["group"] = true
	}
	if tr.Synthetic {
		m["synthetic"] = true
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jsonl joins turns into an import file.
func jsonl(turns ...turn) string {
	var b strings.Builder
	for _, tr := range turns {
		b.WriteString(tr.line())
		b.WriteByte('\n')
	}
	return b.String()
}

// mustImport imports file and returns how many nodes it stored.
func mustImport(t testing.TB, s *Store, file string) int {
	t.Helper()
	res, err := s.Import(strings.NewReader(file))
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return res.Imported
}

// k is the key of node id in session s1 of the default provider, where
// turn and chain put nodes unless told otherwise.
func k(id string) Key { return Key{Provider: DefaultProvider, Session: "s1", ID: id} }

// keys is k over several ids.
func keys(idList ...string) []Key {
	out := make([]Key, len(idList))
	for i, id := range idList {
		out[i] = k(id)
	}
	return out
}

// s1 is the session key of session s1 of the default provider.
var s1 = SessionKey{Provider: DefaultProvider, Session: "s1"}

func ids(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID
	}
	return out
}

// chain builds a linear run of alternating user/assistant turns in session
// s1, the first one a child of parent.
func chain(parent string, idList ...string) []turn {
	var out []turn
	for i, id := range idList {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out = append(out, turn{ID: id, Parent: parent, Role: role, Content: "text of " + id})
		parent = id
	}
	return out
}
