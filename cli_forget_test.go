package main

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"scriptorium/engine/enginetest"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
)

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

func TestCLI_ForgetLeavesNoCopy(t *testing.T) {
	base := clitest.ForgetBase(t, inProcess)
	cases := []struct {
		name   string
		args   []string
		canary string
		word   string // a word only the forgotten records hold
		turns  int
	}{
		{"source", []string{"--source", "openprogram/chat/c2"}, clitest.CanarySource, "alarm", 1},
		{"speaker", []string{"--speaker", "u456"}, clitest.CanarySpeaker, "locker", 1},
		{"thread", []string{"--thread", "telegram/club"}, clitest.CanaryThread, "dues", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state := clitest.CopyState(t, base)
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
			if h := clitest.CanaryHolders(t, state, tc.canary); len(h) == 0 {
				t.Fatal("the dry run removed the canary")
			}
			treeBefore, turnsBefore := enginetest.Canonical(t, state), sessionTurns(t, state)
			listed := map[string]bool{}
			for _, c := range dry["changes"].([]any) {
				listed[c.(map[string]any)["path"].(string)] = true
			}
			other := map[string][]string{}
			for _, c := range []string{clitest.CanarySpeaker, clitest.CanaryThread, clitest.CanarySource} {
				if c != tc.canary {
					other[c] = clitest.CanaryHolders(t, state, c)
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
			if h := clitest.CanaryHolders(t, state, tc.canary); len(h) > 0 {
				t.Errorf("after forget %s the canary is still in %v", tc.name, h)
			}
			for c, before := range other {
				if after := clitest.CanaryHolders(t, state, c); !clitest.ContainsAll(after, "memory/topics", "memory/sources", "sessions.db") {
					t.Errorf("forget %s also removed another canary %q: was in %v, now in %v", tc.name, c, before, after)
				}
			}
			mustCLI(t, "verify", "--state", state)
			// Every topic and archive the preview did not list is byte for
			// byte as it was; so is every sessions.db turn it did not blank.
			treeAfter := enginetest.Canonical(t, state)
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
