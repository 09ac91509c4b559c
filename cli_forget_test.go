package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Three canaries, one per selector: Bob (u456) says canarySpeaker in the
// group, the club thread holds canaryThread, the owner chat canarySource.
// Each carries characters JSON escapes (<, >, &, ") so an escaped copy is
// looked for too.
const (
	canarySpeaker = `bob-canary-9a1 <locker & "code">`
	canaryThread  = `club-canary-7c3 <dues & "fees">`
	canarySource  = `chat-canary-5e2 <alarm & "pin">`
)

func forgetTurnsJSONL() string {
	line := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		return string(b) + "\n"
	}
	return line(map[string]any{"session": "grp", "provider": "telegram", "id": "1", "role": "user", "speaker_id": "u1",
		"speaker_display": "Ann", "content": "Ann likes the harbour walk in spring.", "time": "2026-08-10T10:00:00Z", "tier": "paired", "group": true}) +
		line(map[string]any{"session": "grp", "provider": "telegram", "id": "2", "parent": "1", "role": "user", "speaker_id": "u456",
			"speaker_display": "Bob", "content": "Bob's note: " + canarySpeaker, "time": "2026-08-10T10:01:00Z", "tier": "paired", "group": true}) +
		line(map[string]any{"session": "grp", "provider": "telegram", "id": "3", "parent": "2", "role": "user", "speaker_id": "u789",
			"speaker_display": "Mallory", "content": "Mallory wants the vault key.", "time": "2026-08-10T10:03:00Z", "tier": "unpaired", "group": true}) +
		line(map[string]any{"session": "club", "provider": "telegram", "id": "1", "role": "user", "content": "The club rule: " + canaryThread,
			"time": "2026-08-11T09:00:00Z"}) +
		line(map[string]any{"session": "club", "provider": "telegram", "id": "2", "parent": "1", "role": "assistant", "content": "Noted the club rule.",
			"time": "2026-08-11T09:01:00Z"}) +
		line(map[string]any{"session": "chat", "id": "c1", "role": "user", "content": "My sister Ines lives in Porto.", "time": "2026-08-12T12:00:00Z"}) +
		line(map[string]any{"session": "chat", "id": "c2", "parent": "c1", "role": "user", "content": "The alarm: " + canarySource, "time": "2026-08-12T12:01:00Z"})
}

// forgetBase is a state dir where every canary reached every place a copy
// can land: archives, topics, derived views, the index, sessions.db,
// history bytes and diffs, a sleep pass diff and a waiting proposal.
func forgetBase(t *testing.T) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	turns := filepath.Join(t.TempDir(), "turns.jsonl")
	if err := os.WriteFile(turns, []byte(forgetTurnsJSONL()), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "import", turns, "--state", state)
	mustCLI(t, "write", "--force", "--state", state)
	// A duplicate of each canary block, so the sleep pass merges them and
	// its diff holds the canaries, and another for a proposal.
	for _, step := range []string{"sleep", "sleep --propose"} {
		dupCanaryBlocks(t, state, step)
		mustCLI(t, append(strings.Fields(step), "--state", state)...)
	}
	mustCLI(t, "search", "harbour", "--state", state) // the index exists
	for _, c := range []string{canarySpeaker, canaryThread, canarySource} {
		if h := canaryHolders(t, state, c); !containsAll(h, "sessions.db", "memory/.scriptorium/state.db", "memory/.scriptorium/proposals") {
			t.Fatalf("the fixture does not spread %q everywhere: %v", c, h)
		}
	}
	return state
}

// dupCanaryBlocks appends to every topic file a copy of each block that
// holds a canary (a new id, a new footnote label citing the same sources).
func dupCanaryBlocks(t *testing.T, state, salt string) {
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
	writeTx(t, tx, int(revisionOf(t, state)), edits...)
	mustCLI(t, "update", tx, "--state", state)
}

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

func mustCLI(t *testing.T, args ...string) cliRun {
	t.Helper()
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// canaryHolders lists every file under state whose raw bytes hold s or its
// JSON-escaped form (SQLite files and their WAL included); a file under a
// directory is listed as that directory's path too.
func canaryHolders(t *testing.T, state, s string) []string {
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

// sessionTurns maps every sessions.db node (provider/session/id) to its
// content.
func sessionTurns(t *testing.T, state string) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(state, "sessions.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT s.provider, s.id, n.id, n.content FROM nodes n JOIN sessions s ON n.session = s.seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, s, id, c string
		if err := rows.Scan(&p, &s, &id, &c); err != nil {
			t.Fatal(err)
		}
		out[p+"/"+s+"/"+id] = c
	}
	return out
}

func containsAll(list []string, want ...string) bool {
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

func TestCLI_ForgetLeavesNoCopy(t *testing.T) {
	base := forgetBase(t)
	cases := []struct {
		name   string
		args   []string
		canary string
		word   string // a word only the forgotten records hold
		turns  int
	}{
		{"source", []string{"--source", "openprogram/chat/c2"}, canarySource, "alarm", 1},
		{"speaker", []string{"--speaker", "u456"}, canarySpeaker, "locker", 1},
		{"thread", []string{"--thread", "telegram/club"}, canaryThread, "dues", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state := copyState(t, base)
			mustCLI(t, "verify", "--state", state)
			dry := oneJSON(t, mustCLI(t, append([]string{"forget", "--dry-run", "--json", "--state", state}, tc.args...)...).stdout)
			if _, ok := dry["revision"]; ok || len(keysOf(dry)) != 3 {
				t.Errorf("dry run document = %v, want sources, changes, turns", keysOf(dry))
			}
			kinds := map[string]bool{}
			for _, c := range dry["changes"].([]any) {
				ch := c.(map[string]any)
				if len(ch) != 3 || ch["path"] == "" || ch["diff"] == "" {
					t.Errorf("change %v", ch)
				}
				kinds[ch["kind"].(string)] = true
			}
			for _, k := range []string{"archive", "topic", "derived", "index", "sessions", "history", "proposal"} {
				if !kinds[k] {
					t.Errorf("the preview lists no %s change (kinds %v)", k, kinds)
				}
			}
			if h := canaryHolders(t, state, tc.canary); len(h) == 0 {
				t.Fatal("the dry run removed the canary")
			}
			treeBefore, turnsBefore := canonical(t, state), sessionTurns(t, state)
			listed := map[string]bool{}
			for _, c := range dry["changes"].([]any) {
				listed[c.(map[string]any)["path"].(string)] = true
			}
			other := map[string][]string{}
			for _, c := range []string{canarySpeaker, canaryThread, canarySource} {
				if c != tc.canary {
					other[c] = canaryHolders(t, state, c)
				}
			}

			r := runCLI(t, "", append([]string{"forget", "--json", "--state", state}, tc.args...)...)
			if r.code != 1 || !strings.Contains(r.stdout, "FORBIDDEN") {
				t.Errorf("forget without --yes off a terminal: %d %s", r.code, r.stdout)
			}
			doc := oneJSON(t, mustCLI(t, append([]string{"forget", "--yes", "--json", "--state", state}, tc.args...)...).stdout)
			if rev, _ := doc["revision"].(json.Number).Int64(); rev < 1 {
				t.Errorf("applied forget = %v", doc)
			}
			if n, _ := doc["turns"].(json.Number).Int64(); int(n) != tc.turns {
				t.Errorf("turns = %d, want %d", n, tc.turns)
			}
			if h := canaryHolders(t, state, tc.canary); len(h) > 0 {
				t.Errorf("after forget %s the canary is still in %v", tc.name, h)
			}
			for c, before := range other {
				if after := canaryHolders(t, state, c); !containsAll(after, "memory/topics", "memory/sources", "sessions.db") {
					t.Errorf("forget %s also removed another canary %q: was in %v, now in %v", tc.name, c, before, after)
				}
			}
			mustCLI(t, "verify", "--state", state)
			// Every topic and archive the preview did not list is byte for
			// byte as it was; so is every sessions.db turn it did not blank.
			treeAfter := canonical(t, state)
			for p, d := range treeBefore {
				if treeAfter[p] != d && !listed[p] {
					t.Errorf("%s changed but the preview did not list it", p)
				}
			}
			changedTurns := 0
			for k, c := range sessionTurns(t, state) {
				if c != turnsBefore[k] {
					changedTurns++
					if c != "" {
						t.Errorf("turn %s changed to %q instead of being blanked", k, c)
					}
				}
			}
			if changedTurns != tc.turns {
				t.Errorf("%d sessions.db turns changed, want %d", changedTurns, tc.turns)
			}
			// A search for the forgotten words finds nothing; other
			// memory is still found.
			if r := mustCLI(t, "search", tc.word, "--json", "--state", state); len(oneJSON(t, r.stdout)["results"].([]any)) != 0 {
				t.Errorf("search still finds the forgotten text: %s", r.stdout)
			}
			if r := mustCLI(t, "search", "Porto", "--json", "--state", state); !strings.Contains(r.stdout, "Porto") {
				t.Errorf("search lost unrelated memory: %s", r.stdout)
			}
		})
	}
}

func TestCLI_ForgetErrors(t *testing.T) {
	state := fixtureState(t, "valid")
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"forget", "--json"}, 2, ""},
		{[]string{"forget", "--speaker", "u1", "--thread", "a/b", "--json"}, 2, ""},
		{[]string{"forget", "--speaker", "u1", "extra", "--json"}, 2, ""},
		{[]string{"forget", "--source", "openprogram/group-dev/nope", "--dry-run", "--json"}, 1, "NOT_FOUND"},
		{[]string{"forget", "--speaker", "nobody", "--dry-run", "--json"}, 1, "INVALID_ARGUMENT"},
		{[]string{"forget", "--thread", "not-a-thread", "--dry-run", "--json"}, 1, "INVALID_ARGUMENT"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", append(tt.args, "--state", state)...)
		if r.code != tt.code || !strings.Contains(r.stdout, tt.err) {
			t.Errorf("%v: exit %d %s", tt.args, r.code, r.stdout)
		}
	}
}
