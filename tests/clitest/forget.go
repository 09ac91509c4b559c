package clitest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Three canaries, one per selector: Bob (u456) says CanarySpeaker in the
// group, the club thread holds CanaryThread, the owner chat CanarySource.
// Each carries characters JSON escapes (<, >, &, ") so an escaped copy is
// looked for too.
const (
	CanarySpeaker = `bob-canary-9a1 <locker & "code">`
	CanaryThread  = `club-canary-7c3 <dues & "fees">`
	CanarySource  = `chat-canary-5e2 <alarm & "pin">`
)

// forgetTurnsJSONL is the chat ForgetBase imports: the canaries among
// harmless turns.
func forgetTurnsJSONL() string {
	line := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		return string(b) + "\n"
	}
	return line(map[string]any{"session": "grp", "provider": "telegram", "id": "1", "role": "user", "speaker_id": "u1",
		"speaker_display": "Ann", "content": "I love the harbour walk in spring.", "time": "2026-08-10T10:00:00Z", "tier": "paired", "group": true}) +
		line(map[string]any{"session": "grp", "provider": "telegram", "id": "2", "parent": "1", "role": "user", "speaker_id": "u456",
			"speaker_display": "Bob", "content": "My gym locker code is " + CanarySpeaker + ".", "time": "2026-08-10T10:01:00Z", "tier": "paired", "group": true}) +
		line(map[string]any{"session": "grp", "provider": "telegram", "id": "3", "parent": "2", "role": "user", "speaker_id": "u789",
			"speaker_display": "Mallory", "content": "Mallory wants the vault key.", "time": "2026-08-10T10:03:00Z", "tier": "unpaired", "group": true}) +
		line(map[string]any{"session": "club", "provider": "telegram", "id": "1", "role": "user", "content": "I pay the club dues to " + CanaryThread + " every month.",
			"time": "2026-08-11T09:00:00Z"}) +
		line(map[string]any{"session": "club", "provider": "telegram", "id": "2", "parent": "1", "role": "assistant", "content": "Noted the club rule.",
			"time": "2026-08-11T09:01:00Z"}) +
		line(map[string]any{"session": "chat", "id": "c1", "role": "user", "content": "My sister Ines lives in Porto.", "time": "2026-08-12T12:00:00Z"}) +
		line(map[string]any{"session": "chat", "id": "c2", "parent": "c1", "role": "user", "content": "My home alarm code is " + CanarySource + ".", "time": "2026-08-12T12:01:00Z"})
}

// ForgetBase is a state dir where every canary reached every place a copy
// can land: archives, topics, derived views, the index, sessions.db,
// history bytes and diffs, a sleep pass diff and a waiting proposal.
func ForgetBase(t *testing.T, run Runner) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	turns := filepath.Join(t.TempDir(), "turns.jsonl")
	if err := os.WriteFile(turns, []byte(forgetTurnsJSONL()), 0o644); err != nil {
		t.Fatal(err)
	}
	run.Must(t, "import", turns, "--state", state)
	run.Must(t, "write", "--force", "--state", state)
	// A duplicate of each canary block, so the sleep pass merges them and
	// its diff holds the canaries, and another for a proposal.
	for _, step := range []string{"sleep", "sleep --propose"} {
		dupCanaryBlocks(t, run, state, step)
		run.Must(t, append(strings.Fields(step), "--state", state)...)
	}
	run.Must(t, "search", "harbour", "--state", state) // the index exists
	for _, c := range []string{CanarySpeaker, CanaryThread, CanarySource} {
		if h := CanaryHolders(t, state, c); !ContainsAll(h, "sessions.db", "memory/.scriptorium/state.db", "memory/.scriptorium/proposals") {
			t.Fatalf("the fixture does not spread %q everywhere: %v", c, h)
		}
	}
	return state
}

// dupCanaryBlocks appends to every topic file a copy of each block that
// holds a canary (a new id, a new footnote label citing the same sources).
func dupCanaryBlocks(t *testing.T, run Runner, state, salt string) {
	t.Helper()
	var edits []map[string]any
	root := filepath.Join(state, "memory")
	_ = filepath.WalkDir(filepath.Join(root, "topics"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		var add []string
		paras := strings.Split(string(data), "\n\n")
		for i, para := range paras {
			if !strings.Contains(para, "-canary-") || strings.HasPrefix(para, "[^") {
				continue
			}
			label := para[strings.Index(para, "[^")+2 : strings.Index(para, "]")]
			for _, def := range paras[i+1:] {
				if strings.HasPrefix(def, "[^"+label+"]:") {
					nl := "e-" + hexOf(salt + label)[:10]
					body := para[:strings.LastIndex(para, " ^")]
					add = append(add, strings.Replace(body, label, nl, 1)+" ^"+hexOf(salt + para)[:8],
						strings.TrimSpace(strings.Replace(def, label, nl, 1)))
					break
				}
			}
		}
		if len(add) > 0 {
			rel, _ := filepath.Rel(root, p)
			edits = append(edits, map[string]any{"op": "append", "path": filepath.ToSlash(rel), "content": strings.Join(add, "\n\n") + "\n"})
		}
		return nil
	})
	if len(edits) == 0 {
		t.Fatal("no canary block to duplicate")
	}
	tx := filepath.Join(t.TempDir(), "dup.json")
	WriteTx(t, tx, int(Revision(t, run, state)), edits...)
	run.Must(t, "update", tx, "--state", state)
}

// hexOf is a stable 16-hex-digit digest of s, for new labels and ids.
func hexOf(s string) string {
	const digits = "0123456789abcdef"
	h := uint64(14695981039346656037)
	out := make([]byte, 0, 16)
	for i := 0; i < 2; i++ {
		for _, c := range []byte(s) {
			h = (h ^ uint64(c)) * 1099511628211
		}
		for k := 0; k < 8; k++ {
			out = append(out, digits[(h>>(4*k))&15])
		}
	}
	return string(out)
}

// CanaryHolders lists every file under state whose raw bytes hold s or its
// JSON-escaped form (SQLite files and their WAL included); a file under a
// directory is listed as that directory's path too.
func CanaryHolders(t *testing.T, state, s string) []string {
	t.Helper()
	forms := [][]byte{[]byte(s)}
	var esc bytes.Buffer
	enc := json.NewEncoder(&esc)
	_ = enc.Encode(s)
	forms = append(forms, bytes.Clone(bytes.Trim(bytes.TrimSpace(esc.Bytes()), `"`)))
	enc.SetEscapeHTML(false)
	esc.Reset()
	_ = enc.Encode(s)
	forms = append(forms, bytes.Trim(bytes.TrimSpace(esc.Bytes()), `"`))
	set := map[string]bool{}
	err := filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() { // a running serve's socket
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, f := range forms {
			if bytes.Contains(data, f) {
				rel, _ := filepath.Rel(state, p)
				rel = filepath.ToSlash(rel)
				set[rel] = true
				for dir := filepath.Dir(rel); dir != "."; dir = filepath.Dir(dir) {
					set[dir] = true
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ContainsAll reports whether list holds every one of want.
func ContainsAll(list []string, want ...string) bool {
	have := map[string]bool{}
	for _, x := range list {
		have[x] = true
	}
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return true
}
