package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/trust"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/treetest"
)

// A cold engine (a one-shot CLI search) answers from a fresh index and
// reads only the files holding hits. These tests prove it answers exactly
// as the full path does, and that it never trusts an index the files on
// disk no longer match.

// TestColdSearch_AnswersAsTheFullPath runs every BM25 query of the search
// fixtures on a warm engine (snapshot, sync, search) and on a cold one
// each, and compares the results field by field.
func TestColdSearch_AnswersAsTheFullPath(t *testing.T) {
	ctx := context.Background()
	cases, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "search-engine", "*", "queries.json"))
	if len(cases) == 0 {
		t.Fatal("no search-engine fixtures")
	}
	compared, framed := 0, int64(0)
	for _, qf := range cases {
		dir := filepath.Dir(qf)
		state := filepath.Join(t.TempDir(), "state")
		if err := treetest.CopyTree(filepath.Join(dir, "state"), state); err != nil {
			t.Fatal(err)
		}
		var c struct {
			Never   []string `json:"never"`
			Queries []struct {
				Text, Speaker, Path, Since, Until, Sort, Method, Error string
				Limit                                                  int
			} `json:"queries"`
		}
		data, err := os.ReadFile(qf)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		warm, err := engine.Open(ctx, engine.Options{StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := warm.Verify(ctx); err != nil { // warm: holds a snapshot
			t.Fatal(err)
		}
		for _, q := range c.Queries {
			if q.Text == "" || q.Error != "" || (q.Method != "" && q.Method != vectors.MethodBM25) {
				continue
			}
			sq := result.SearchQuery{Text: q.Text, Speaker: q.Speaker, Path: q.Path, Since: q.Since, Until: q.Until, Sort: q.Sort, Limit: q.Limit}
			want, err := warm.Search(ctx, sq)
			if err != nil {
				t.Fatalf("%s %q warm: %v", filepath.Base(dir), q.Text, err)
			}
			cold, err := engine.Open(ctx, engine.Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			got, err := cold.Search(ctx, sq)
			fast := StatsOf(cold).Fast
			framed += StatsOf(cold).Framed
			cold.Close()
			if err != nil {
				t.Fatalf("%s %q cold: %v", filepath.Base(dir), q.Text, err)
			}
			if fast != 1 {
				t.Errorf("%s %q: the cold search read the whole workspace (fresh index not used)", filepath.Base(dir), q.Text)
			}
			for _, r := range got {
				for _, never := range c.Never {
					if r.Path+"#"+r.Anchor == never {
						t.Errorf("%s %q: the cold search returned %s, which no search may return", filepath.Base(dir), q.Text, never)
					}
				}
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("%s %q:\ncold %s\nwarm %s", filepath.Base(dir), q.Text, g, w)
			}
			compared++
		}
		warm.Close()
	}
	if compared < 20 {
		t.Fatalf("only %d queries compared", compared)
	}
	if framed == 0 {
		t.Error("no cold search read a hit at its frame's span in the index")
	}
}

// coldFacts creates a workspace with one topic file through the engine,
// builds the index with one search, and returns the state dir.
func coldFacts(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	state := t.TempDir()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rev := int64(0)
	content := "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n\nThe owner plays the cello on Sundays. ^0000000b\n"
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "create", Path: "topics/facts.md", Content: &content}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Search(ctx, result.SearchQuery{Text: "bees"}); err != nil {
		t.Fatal(err)
	}
	return state
}

// coldSearch opens a new engine, searches once, and returns the results'
// "path#anchor" and whether the fresh index answered alone.
func coldSearch(t *testing.T, state, text string) ([]string, bool) {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Search(context.Background(), result.SearchQuery{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		out = append(out, r.Path+"#"+r.Anchor)
	}
	return out, StatsOf(e).Fast == 1
}

// TestColdSearch_NeverStale changes the files behind the engine's back in
// every way a person or a tool does, and checks that the next cold search
// sees the change: a stale index is brought up to date, never trusted.
func TestColdSearch_NeverStale(t *testing.T) {
	facts := func(state string) string { return filepath.Join(state, "memory", "topics", "facts.md") }
	cases := []struct {
		name   string
		change func(t *testing.T, state string)
		gone   string   // a word no longer findable
		find   string   // a word findable after the change
		want   []string // what find returns
	}{
		{"same size, mtime reset", func(t *testing.T, state string) {
			treetest.EditInPlace(t, facts(state), "bees", "wasp")
		}, "bees", "wasp", []string{"topics/facts.md#^0000000a"}},
		{"deleted", func(t *testing.T, state string) {
			if err := os.Remove(facts(state)); err != nil {
				t.Fatal(err)
			}
		}, "bees", "", nil},
		{"renamed", func(t *testing.T, state string) {
			if err := os.Rename(facts(state), filepath.Join(state, "memory", "topics", "hobbies.md")); err != nil {
				t.Fatal(err)
			}
		}, "", "cello", []string{"topics/hobbies.md#^0000000b"}},
		{"replaced by a symlink", func(t *testing.T, state string) {
			outside := filepath.Join(t.TempDir(), "outside.md")
			data, _ := os.ReadFile(facts(state))
			if err := os.WriteFile(outside, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(facts(state)); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, facts(state)); err != nil {
				t.Fatal(err)
			}
		}, "cello", "", nil},
		{"git checkout", func(t *testing.T, state string) {
			run := treetest.Git(t, filepath.Join(state, "memory"))
			run("init", "-q")
			run("add", "topics")
			run("commit", "-q", "-m", "a")
			data, _ := os.ReadFile(facts(state))
			// The same size, so only the signature's other parts can tell.
			if err := os.WriteFile(facts(state), []byte(strings.Replace(string(data), "cello", "oboes", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			// Make the index describe the edited file, then check out the
			// committed one again.
			if res, _ := coldSearch(t, state, "oboes"); len(res) != 1 {
				t.Fatalf("edited file not indexed: %v", res)
			}
			run("checkout", "--", "topics/facts.md")
		}, "oboes", "cello", []string{"topics/facts.md#^0000000b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := coldFacts(t)
			if res, fast := coldSearch(t, state, "bees"); !fast || len(res) != 1 {
				t.Fatalf("before the change: %v (fast %v)", res, fast)
			}
			c.change(t, state)
			if c.gone != "" {
				if res, fast := coldSearch(t, state, c.gone); len(res) != 0 || fast {
					t.Errorf("%q after the change: %v (answered from the old index: %v)", c.gone, res, fast)
				}
			}
			if c.find != "" {
				if res, _ := coldSearch(t, state, c.find); !reflect.DeepEqual(res, c.want) {
					t.Errorf("%q after the change: %v, want %v", c.find, res, c.want)
				}
			}
			// Repaired: the next cold search is answered by the index alone.
			if _, fast := coldSearch(t, state, "roof"); !fast {
				t.Error("the index was not brought up to date by the first search after the change")
			}
		})
	}
}

// TestColdSearch_DamagedRecord: a racy record that cannot be read makes
// the index untrusted; the search rebuilds it and answers.
func TestColdSearch_DamagedRecord(t *testing.T) {
	state := coldFacts(t)
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	ix, done, err := stateOf(e).openIndex()
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta(index.RacyKey, "{garbage"); err != nil {
		t.Fatal(err)
	}
	done(false)
	res, err := e.Search(context.Background(), result.SearchQuery{Text: "cello"})
	e.Close()
	if err != nil || len(res) != 1 {
		t.Fatalf("search: %v %v", res, err)
	}
	if StatsOf(e).Fast != 0 || StatsOf(e).Rebuilds != 1 {
		t.Errorf("fast %d, rebuilds %d: want the damaged record distrusted and the index rebuilt", StatsOf(e).Fast, StatsOf(e).Rebuilds)
	}
}

// TestSnapshotCache_SameSizeResetMtime: a warm engine's parsed files are
// keyed by a signature that includes ctime, so an in-place edit keeping
// size and mtime is read again.
func TestSnapshotCache_SameSizeResetMtime(t *testing.T) {
	state := coldFacts(t)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	time.Sleep(racyWindow + 100*time.Millisecond) // so the cache trusts signatures (the core's racy window)
	if _, err := e.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	treetest.EditInPlace(t, filepath.Join(state, "memory", "topics", "facts.md"), "cello", "flute")
	res, err := e.Search(ctx, result.SearchQuery{Text: "flute"})
	if err != nil || len(res) != 1 {
		t.Fatalf("warm search after a same-size edit: %v %v", res, err)
	}
}

// TestColdSearch_BrokenWorkspaces compares cold and warm searches on the
// fixture workspaces with problems (duplicate sources and block ids, bad
// frames midway, stray files, symlinks), for words taken from their files.
func TestColdSearch_BrokenWorkspaces(t *testing.T) {
	ctx := context.Background()
	states, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "ws", "*", "state"))
	if len(states) < 10 {
		t.Fatalf("only %d fixture workspaces", len(states))
	}
	word := regexp.MustCompile(`\p{L}{4,}`)
	for _, src := range states {
		name := filepath.Base(filepath.Dir(src))
		state, warm, s := warmCopy(t, src)
		seen := map[string]bool{}
		var words []string
		for _, p := range append(append([]string{}, s.TopicPaths()...), s.ArchivePaths()...) {
			data, _ := s.Content(p)
			for _, w := range word.FindAllString(string(data), -1) {
				if w = strings.ToLower(w); !seen[w] && len(words) < 40 {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
		for _, w := range words {
			want, err := warm.Search(ctx, result.SearchQuery{Text: w, Limit: 50})
			if err != nil {
				t.Fatalf("%s %q warm: %v", name, w, err)
			}
			cold, err := engine.Open(ctx, engine.Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			got, err := cold.Search(ctx, result.SearchQuery{Text: w, Limit: 50})
			fast := StatsOf(cold).Fast
			cold.Close()
			if err != nil || fast != 1 {
				t.Fatalf("%s %q cold: %v (fast %d)", name, w, err, fast)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				wj, _ := json.Marshal(want)
				t.Errorf("%s %q:\ncold %s\nwarm %s", name, w, g, wj)
			}
		}
		warm.Close()
	}
}

// racyWindow is the core's racy window (engine/freshness.go): files
// changed within it of a recording are checked by their hash.
const racyWindow = 2 * time.Second

// TestColdSearch_FramesFollowTheArchive: where a record's frame lies moves
// when a record before it changes in place (a hand edit behind the
// engine's back, then the index's resync) and when records are appended
// through an install; each cold search after reads its hits at the spans
// the index now holds, with the text the whole path gives.
func TestColdSearch_FramesFollowTheArchive(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	path := "sources/telegram/_v2/g.md"
	full := filepath.Join(state, "memory", filepath.FromSlash(path))
	at := time.Date(2026, 8, 10, 9, 0, 0, 0, time.UTC)
	rec := func(i int, text string) archive.Record {
		return archive.Record{SourceID: fmt.Sprintf("telegram/g/m%d", i), SpeakerID: "u1", SpeakerDisplay: "Ann",
			Time: at.Add(time.Duration(i) * time.Minute), Content: text}
	}
	write := func(recs ...archive.Record) {
		t.Helper()
		data, _, err := archive.Append(nil, recs)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs := []archive.Record{rec(0, "alpha first"), rec(1, "bravo second"), rec(2, "charlie third")}
	write(recs...)
	check := func(step, word string) {
		t.Helper()
		warm, err := engine.Open(ctx, engine.Options{StateDir: state, LongLived: true})
		if err != nil {
			t.Fatal(err)
		}
		want, err := warm.Search(ctx, result.SearchQuery{Text: word})
		warm.Close()
		if err != nil || len(want) == 0 {
			t.Fatalf("%s: warm search %q: %v %v", step, word, want, err)
		}
		for i := range 2 { // the first may bring the index up to date
			cold, err := engine.Open(ctx, engine.Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			got, err := cold.Search(ctx, result.SearchQuery{Text: word})
			st := StatsOf(cold)
			cold.Close()
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: cold search %q: %+v %v, want %+v", step, word, got, err, want)
			}
			if i == 1 && st.Fast != 1 {
				t.Fatalf("%s: the second cold search did not answer from the index", step)
			}
			if st.Fast == 1 && st.Framed != int64(len(got)) {
				t.Errorf("%s: the fresh index's hit was not read at its span (framed %d)", step, st.Framed)
			}
		}
	}
	check("built", "charlie")
	recs[0].Content = "alpha first, now with many more words before the others"
	write(recs...)
	check("a record before it longer", "charlie")
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(full)
	more, _, err := archive.Append(data, []archive.Record{rec(3, "delta fourth"), rec(4, "echo fifth")})
	if err != nil {
		t.Fatal(err)
	}
	err = e.Locked(ctx, false, func(tx *engine.Tx) error {
		_, err := tx.Install(ctx, engine.Change{Kind: "write", Actor: trust.Owner, Archives: map[string][]byte{path: more}})
		return err
	})
	e.Close()
	if err != nil {
		t.Fatal(err)
	}
	check("appended through an install", "echo")
	check("appended through an install, an old record", "bravo")
}
