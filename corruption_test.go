package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/errcode"
	"scriptorium/tests/clitest"
)

// The corruption matrix: every derived or cache file of a lived-in state
// dir (search index files, derived views, state.db, sessions.db, runtime
// status files, the revision and id files) is damaged in turn, and every
// read verb must still answer: a result, or exit 1 with one JSON error
// document of the closed set, never a panic or a hang. A damaged index is
// rebuilt by the first search, so the second one answers.

// cmReadVerbs are the read verbs run after each damage.
var cmReadVerbs = [][]string{
	{"status"}, {"verify"}, {"get", "cli/sess-1/s1"}, {"get", "f888f60e"},
	{"search", "budget"}, {"core"}, {"pending"}, {"history"},
}

// cmCallTimeout bounds each CLI call: a hang is a failure, not a stuck run.
const cmCallTimeout = 20 * time.Second

// cmBase builds a state dir that has everything a used one has: the valid
// fixture, imported turns in sessions.db, a writer install (history in
// state.db, derived views, writer status) and a built search index.
func cmBase(t *testing.T) string {
	t.Helper()
	state := fixtureState(t, "valid")
	turns := `{"session":"cm","id":"t1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"Craig keeps the budget in a green notebook.","time":"2026-02-01T10:00:00Z","tier":"owner"}` + "\n"
	for _, args := range [][]string{{"import", "-"}, {"write", "--force"}, {"search", "budget"}, {"core"}} {
		stdin := ""
		if args[0] == "import" {
			stdin = turns
		}
		if r := runCLI(t, stdin, append(args, "--json", "--state", state)...); r.code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	return state
}

// cmTargets lists the files to damage, relative to the state dir: every
// file under the index and runtime folders, the derived views, the two
// databases and the workspace's own bookkeeping files.
func cmTargets(t *testing.T, state string) []string {
	t.Helper()
	meta := filepath.Join("memory", ".scriptorium")
	out := []string{"sessions.db", filepath.Join(meta, "state.db"), filepath.Join(meta, "revision"),
		filepath.Join(meta, "workspace-id"), filepath.Join("memory", "core.md"),
		filepath.Join("memory", "recent_events.jsonl"), filepath.Join("memory", "relations.json")}
	for _, dir := range []string{filepath.Join(meta, "index"), filepath.Join(meta, "runtime"), filepath.Join("memory", "timeline")} {
		err := filepath.WalkDir(filepath.Join(state, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && d.Name() != "lock" {
				rel, _ := filepath.Rel(state, p)
				out = append(out, rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range out {
		if _, err := os.Stat(filepath.Join(state, p)); err != nil {
			t.Fatalf("the base state dir lacks %s: %v", p, err)
		}
	}
	for _, must := range []string{".zap", "root.bolt", "index_meta.json", "writer-status.json"} {
		if !slices.ContainsFunc(out, func(p string) bool { return strings.HasSuffix(p, must) }) {
			t.Fatalf("no %s among the targets %v", must, out)
		}
	}
	return out
}

// cmDamages are the three ways each file is damaged. The scribble flips
// 16 bytes at six places in the first 60% of the file, where a segment
// keeps its postings and stored fields (the footer is left alone, so the
// damage is not one a size or footer check would see).
var cmDamages = []struct {
	name string
	fn   func([]byte) []byte
}{
	{"truncated", func([]byte) []byte { return nil }},
	{"zeroed", func(d []byte) []byte { return make([]byte, len(d)) }},
	{"scribbled", func(d []byte) []byte {
		d = slices.Clone(d)
		for _, at := range []int{len(d) / 10, len(d) / 5, len(d) * 3 / 10, len(d) * 2 / 5, len(d) / 2, len(d) * 3 / 5} {
			for i := at; i < min(at+16, len(d)); i++ {
				d[i] ^= 0xa5
			}
		}
		return d
	}},
}

func TestCorruption_ReadVerbsAnswer(t *testing.T) {
	base := cmBase(t)
	targets := cmTargets(t, base)
	start := time.Now()
	for _, target := range targets {
		for _, dmg := range cmDamages {
			t.Run(filepath.ToSlash(target)+"/"+dmg.name, func(t *testing.T) {
				state := filepath.Join(t.TempDir(), "state")
				// Modification times are kept, so the index still matches the
				// files and the damage is what a search meets, not a rebuild.
				if err := cmCopyKeepTimes(base, state); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(state, target)
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, dmg.fn(data), 0o600); err != nil {
					t.Fatal(err)
				}
				for _, args := range cmReadVerbs {
					cmAnswers(t, state, target, args...)
				}
				if strings.Contains(target, string(filepath.Separator)+"index"+string(filepath.Separator)) {
					// The searches above rebuilt the damaged cache.
					r := cmAnswers(t, state, target, "search", "budget")
					if doc := oneJSON(t, r.stdout); r.code != 0 || len(doc["results"].([]any)) == 0 {
						t.Errorf("search after the index was rebuilt: exit %d %s", r.code, r.stdout)
					}
				}
			})
		}
	}
	t.Logf("%d targets x %d damages in %v", len(targets), len(cmDamages), time.Since(start).Round(time.Millisecond))
}

// cmAnswers runs one read verb with --json under a timeout and checks the
// answer: exit 0 with a document that is not an error, or exit 1 with a
// result document (verify's {"ok": false}) or a closed-set error document
// that names the damaged file; never a panic.
func cmAnswers(t *testing.T, state, damaged string, args ...string) cliRun {
	t.Helper()
	done := make(chan cliRun, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- cliRun{code: -1, stderr: fmt.Sprintf("panic: %v\n%s", v, debug.Stack())}
			}
		}()
		done <- runCLI(t, "", append(args, "--json", "--state", state)...)
	}()
	var r cliRun
	select {
	case r = <-done:
	case <-time.After(cmCallTimeout):
		t.Fatalf("%v did not answer within %v", args, cmCallTimeout)
	}
	if r.code == -1 || strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("%v panicked:\n%s", args, r.stderr)
	}
	var doc map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader([]byte(r.stdout))).Decode(&doc); err != nil {
		t.Fatalf("%v: exit %d, stdout is not one JSON document: %v\n%s%s", args, r.code, err, r.stdout, r.stderr)
	}
	_ = oneJSON(t, r.stdout)
	_, isErr := doc["error"]
	switch {
	case r.code == 0 && isErr:
		t.Errorf("%v: exit 0 with an error document %s", args, r.stdout)
	case r.code == 1 && isErr:
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal([]byte(r.stdout), &e)
		if !slices.Contains(errcode.Codes, errcode.Code(e.Error.Code)) || !strings.Contains(e.Error.Message, filepath.Base(damaged)) {
			t.Errorf("%v: error document outside the closed set or not naming %s: %s", args, filepath.Base(damaged), r.stdout)
		}
		clitest.NoRepeatedPrefix(t, args, e.Error.Message)
	case r.code == 1 && args[0] == "verify" && string(doc["ok"]) == "false":
	case r.code != 0:
		t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// cmCopyKeepTimes copies a state dir, keeping every file's modification
// time (the search index's fingerprint is made of them).
func cmCopyKeepTimes(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, fi.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(target, fi.ModTime(), fi.ModTime())
	})
}
