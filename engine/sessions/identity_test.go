package sessions

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"scriptorium/workspace/archive"
)

// Two chats that both number their messages from 1 (Telegram, Slack, most
// chat exports) are two sessions with a node 1 each, in one provider or in
// two.
func TestImport_SameIDInTwoSessions(t *testing.T) {
	s := mustOpen(t)
	file := jsonl(
		turn{Session: "family", Provider: "telegram", ID: "1", Role: "user", Content: "family one"},
		turn{Session: "family", Provider: "telegram", ID: "2", Parent: "1", Role: "assistant", Content: "family two"},
		turn{Session: "work", Provider: "telegram", ID: "1", Role: "user", Content: "work one"},
		turn{Session: "work", Provider: "telegram", ID: "2", Parent: "1", Role: "assistant", Content: "work two"},
		turn{Session: "work", Provider: "slack", ID: "1", Role: "user", Content: "slack one"},
		turn{Session: "work", Provider: "slack", ID: "2", Parent: "1", Role: "assistant", Content: "slack two"},
	)
	if res := importResult(t, s, file); res != (ImportResult{Imported: 6, Sessions: 3}) {
		t.Fatalf("Import = %+v, want 6 nodes in 3 sessions", res)
	}
	family := SessionKey{"telegram", "family"}
	work := SessionKey{"telegram", "work"}
	slack := SessionKey{"slack", "work"}
	for _, tc := range []struct {
		sk   SessionKey
		want string
	}{{family, "family"}, {work, "work"}, {slack, "slack"}} {
		n, err := s.Node(tc.sk.Node("2"))
		if err != nil {
			t.Fatal(err)
		}
		if n.Content != tc.want+" two" || n.Parent != "1" || n.Key() != tc.sk.Node("2") {
			t.Errorf("%s: node 2 = %+v", tc.sk, n)
		}
		// The parent link resolves inside the session: the branch is 1, 2
		// of this chat only.
		turns, err := s.PendingTurns(tc.sk.Node("2"), "ws")
		if err != nil {
			t.Fatal(err)
		}
		if len(turns) != 2 || turns[0].Content != tc.want+" one" || turns[1].Content != tc.want+" two" {
			t.Errorf("%s: pending = %+v", tc.sk, turns)
		}
		branches, err := s.Branches(tc.sk)
		if err != nil || len(branches) != 1 || branches[0].Tip != tc.sk.Node("2") {
			t.Errorf("%s: branches = %+v, %v", tc.sk, branches, err)
		}
	}
	if got, want := s.sessionKeys(t), []SessionKey{slack, family, work}; !reflect.DeepEqual(got, want) {
		t.Errorf("Sessions = %v, want %v", got, want)
	}

	// A marker on one chat's node 1 is not a marker on the other's.
	if err := s.MarkWritten([]Key{work.Node("1"), work.Node("2")}, "ws"); err != nil {
		t.Fatal(err)
	}
	ps, err := s.PendingSessions("ws")
	if err != nil {
		t.Fatal(err)
	}
	var owing []SessionKey
	for _, p := range ps {
		owing = append(owing, p.Key())
	}
	if want := []SessionKey{slack, family}; !reflect.DeepEqual(owing, want) {
		t.Errorf("PendingSessions = %v, want %v", owing, want)
	}

	// Re-importing is idempotent per key, and the same key with other
	// content is a bad line even though the id exists elsewhere unchanged.
	if res := importResult(t, s, file); res != (ImportResult{Duplicate: 6}) {
		t.Errorf("re-import = %+v, want 6 duplicates", res)
	}
	_, err = s.Import(strings.NewReader(jsonl(
		turn{Session: "work", Provider: "slack", ID: "3", Parent: "2", Role: "user", Content: "new"},
		turn{Session: "family", Provider: "telegram", ID: "1", Role: "user", Content: "edited"},
	)))
	var ie *ImportError
	if !errors.As(err, &ie) || len(ie.Lines) != 1 || ie.Lines[0].Line != 2 ||
		!strings.Contains(ie.Lines[0].Message, `id "1" is already stored in session "family" (provider telegram) with a different content`) {
		t.Fatalf("Import = %v, want line 2 refused", err)
	}
}

func (s *Store) sessionKeys(t *testing.T) []SessionKey {
	t.Helper()
	all, err := s.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	var out []SessionKey
	for _, ss := range all {
		out = append(out, ss.Key())
	}
	return out
}

// What the writer will archive is decided at import: display names are
// normalised as archive labels, odd session ids get portable thread names,
// and every stored node makes a valid archive record.
func TestImport_WriterCanStoreEverything(t *testing.T) {
	s := mustOpen(t)
	file := jsonl(
		turn{Session: "con:aux<>|?*", ID: "1", Role: "user", Content: "odd session", SpeakerDisplay: "Ann\nSmith", SpeakerID: "u1"},
		turn{Session: "con:aux<>|?*", ID: "2", Parent: "1", Role: "user", Content: "display only", SpeakerDisplay: "[admin]: Bob\t"},
		turn{Session: "Chat", ID: "1", Role: "user", Content: "upper", SpeakerDisplay: "\n"},
		turn{Session: "chat", ID: "1", Role: "user", Content: "lower"},
		turn{Session: "My Chat #1 (2024)", ID: "1", Role: "user", Content: "spaces"},
		turn{Session: "a--b", ID: "1", Role: "user", Content: "dashes"},
		turn{Session: "../etc", ID: "1", Role: "user", Content: "traversal"},
		turn{Session: "con", ID: "1", Role: "user", Content: "device"},
		turn{Session: "家庭群", ID: "1", Role: "user", Content: "unicode"},
		turn{Session: "-100123456", Provider: "telegram", ID: "42", Role: "user", Content: "telegram group id"},
		turn{Session: "@ann:matrix.org", Provider: "matrix", ID: "$ev/1", Role: "user", SpeakerID: "@ann:matrix.org", Content: "matrix"},
	)
	mustImport(t, s, file)
	threads := map[SessionKey]string{}
	all, err := s.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range all {
		threads[ss.Key()] = ss.Thread
	}
	want := map[SessionKey]string{
		{DefaultProvider, "con:aux<>|?*"}:      "con%3Aaux%3C%3E%7C%3F%2A",
		{DefaultProvider, "Chat"}:              "Chat",
		{DefaultProvider, "chat"}:              "chat~" + nameHash("chat")[:8], // "chat" folds onto "Chat"
		{DefaultProvider, "My Chat #1 (2024)"}: "My%20Chat%20%231%20%282024%29",
		{DefaultProvider, "a--b"}:              "a-%2Db",
		{DefaultProvider, "../etc"}:            "%2E.%2Fetc",
		{DefaultProvider, "con"}:               "%63on",
		{DefaultProvider, "家庭群"}:               "家庭群",
		{"telegram", "-100123456"}:             "-100123456",
		{"matrix", "@ann:matrix.org"}:          "@ann%3Amatrix.org",
	}
	if !reflect.DeepEqual(threads, want) {
		t.Errorf("threads = %v\nwant      %v", threads, want)
	}

	n, err := s.Node(Key{DefaultProvider, "con:aux<>|?*", "1"})
	if err != nil {
		t.Fatal(err)
	}
	if n.SpeakerDisplay != "Ann Smith" || n.SourceID() != "openprogram/con%3Aaux%3C%3E%7C%3F%2A/1" {
		t.Errorf("node = display %q, source-id %q", n.SpeakerDisplay, n.SourceID())
	}
	if n, _ := s.Node(Key{DefaultProvider, "con:aux<>|?*", "2"}); n.SpeakerDisplay != "(admin) Bob" {
		t.Errorf("display = %q, want the archive label form", n.SpeakerDisplay)
	}
	if n, _ := s.Node(Key{DefaultProvider, "Chat", "1"}); n.SpeakerDisplay != "" {
		t.Errorf("display = %q, want empty", n.SpeakerDisplay)
	}
	for _, ss := range all {
		branches, err := s.Branches(ss.Key())
		if err != nil {
			t.Fatal(err)
		}
		turns, err := s.PendingTurns(branches[0].Tip, "ws")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range turns {
			rec := archive.Record{SourceID: n.SourceID(), Role: n.Role, SpeakerID: n.SpeakerID,
				SpeakerDisplay: n.SpeakerDisplay, Time: n.Time, Content: n.Content}
			if err := rec.Validate(); err != nil {
				t.Errorf("%s: not archivable: %v", n.Key(), err)
			}
			if strings.ContainsAny(rec.Frame().Label, "\n\r") {
				t.Errorf("%s: label %q spans lines", n.Key(), rec.Frame().Label)
			}
		}
	}
	// The normalised file imports again as duplicates.
	if res := importResult(t, s, file); res.Imported != 0 || res.Duplicate != 11 {
		t.Errorf("re-import = %+v", res)
	}
}

// A thread name taken in the store is not given again, whatever the order
// of imports.
func TestImport_ThreadNameCollisionAcrossImports(t *testing.T) {
	s := mustOpen(t)
	mustImport(t, s, jsonl(turn{Session: "a<b", ID: "1", Role: "user"}))
	mustImport(t, s, jsonl(turn{Session: "A%3Cb", ID: "1", Role: "user"}))
	mustImport(t, s, jsonl(turn{Session: "a%3cB", ID: "1", Role: "user"}))
	all, err := s.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, ss := range all {
		k := archive.FoldKey(ss.Thread)
		if other, ok := seen[k]; ok {
			t.Errorf("threads %q and %q fold together", other, ss.Thread)
		}
		seen[k] = ss.Thread
		if !safeThread(ss.Thread) {
			t.Errorf("thread %q is not portable", ss.Thread)
		}
	}
	if len(all) != 3 {
		t.Errorf("%d sessions, want 3", len(all))
	}
}
