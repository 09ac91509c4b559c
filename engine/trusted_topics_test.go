package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// A cold engine's recall reads only the hit files and the wanted topic
// files, and takes their blocks' trust from a fresh index. These tests
// prove it gives what the full snapshot gives, on every fixture workspace
// (pending and forgotten sources, broken citations, duplicates), and that
// a stale index is never trusted for it.

// recallQuery is what a recall reads (engine/recall): a search, then the
// wanted topic files and the hit files with their trusted blocks.
type recallQuery struct {
	Text   string
	Limit  int
	Topics []string
}

// recallAnswer is what a recall reads, as comparable text: the hits, and
// per file its trusted block ids (TrustedTopics).
func recallAnswer(t *testing.T, e *Engine, q recallQuery) string {
	t.Helper()
	ctx := context.Background()
	var hits []result.SearchResult
	if q.Text != "" {
		var err error
		hits, err = e.Search(ctx, result.SearchQuery{Text: q.Text, Limit: q.Limit})
		if err != nil && errcode.As(err).Code != errcode.InvalidArgument { // no query at all: no hits
			return "error " + err.Error()
		}
	}
	paths := append([]string{}, q.Topics...)
	for _, h := range hits {
		if h.Kind == "topic" {
			paths = append(paths, h.Path)
		}
	}
	files, err := e.TrustedTopics(ctx, paths)
	if err != nil {
		return "error " + err.Error()
	}
	var b strings.Builder
	js, _ := json.Marshal(hits)
	b.Write(js)
	paths = paths[:0]
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b.WriteString("\n" + p + ":")
		for _, el := range files[p].File.Blocks() {
			if files[p].Trusted[el.BlockID] {
				b.WriteString(" " + el.BlockID)
			}
		}
	}
	return b.String()
}

// recallQueries are queries over a fixture: a few words of every block and
// source record, and the wanted files: every topic file and one missing.
func recallQueries(s *snapshot) []recallQuery {
	topics := append([]string{"topics/no-such-project.md"}, s.topicPaths...)
	texts := []string{"", "the", "budget tracker", "!!!"}
	add := func(text string) {
		if f := strings.Fields(text); len(f) > 0 {
			texts = append(texts, strings.Join(f[:min(len(f), 3)], " "))
		}
	}
	for _, p := range s.topicPaths {
		for _, b := range s.topics[p].file.Blocks() {
			add(topic.BlockText(b))
		}
	}
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			add(src.view().Content)
		}
	}
	var out []recallQuery
	for _, text := range texts {
		out = append(out, recallQuery{Text: text, Limit: 20, Topics: topics})
	}
	return out
}

func TestTrustedTopics_FromIndexAsTheFullSnapshot(t *testing.T) {
	ctx := context.Background()
	used := 0
	for _, src := range fixtureStates(t) {
		name := filepath.Base(filepath.Dir(src))
		state, warm, s := warmCopy(t, src)
		qs := recallQueries(s)
		want := make([]string, len(qs))
		for i, q := range qs {
			want[i] = recallAnswer(t, warm, q) // builds the index from the snapshot
		}
		warm.Close()
		for i, q := range qs {
			cold, err := Open(ctx, Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			if got := recallAnswer(t, cold, q); got != want[i] {
				t.Errorf("%s: recall %q\ncold %s\nfull %s", name, q.Text, got, want[i])
			}
			if cold.indexTrustReads.Load() > 0 {
				used++
			}
			cold.Close()
		}
	}
	if used == 0 {
		t.Error("no cold recall read from the index")
	}
}

// TestTrustedTopics_StaleIndexNotTrusted: a source promoted, a block's
// citation broken and a topic file rewritten behind the index's back: a
// cold recall sees the files, not the index.
func TestTrustedTopics_StaleIndexNotTrusted(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join("..", "testdata", "search-engine", "trust", "state")
	state, warm, s := warmCopy(t, src)
	qs := recallQueries(s)
	for _, q := range qs {
		recallAnswer(t, warm, q) // the index, fresh
	}
	warm.Close()
	// Break every citation of every topic file: no block stays trusted.
	for _, p := range s.topicPaths {
		fp := filepath.Join(state, "memory", filepath.FromSlash(p))
		data, err := os.ReadFile(fp)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, []byte(strings.ReplaceAll(string(data), "#source-", "#source-f")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cold, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cold.topicsFromIndex(ctx, s.topicPaths); ok {
		t.Error("the index was trusted after the files changed under it")
	}
	if got := recallAnswer(t, cold, recallQuery{Topics: s.topicPaths}); strings.Count(got, " ") != 0 {
		t.Errorf("blocks with broken citations recalled as trusted:\n%s", got)
	}
	cold.Close()
	for _, q := range qs {
		full, err := Open(ctx, Options{StateDir: state, LongLived: true})
		if err != nil {
			t.Fatal(err)
		}
		want := recallAnswer(t, full, q)
		full.Close()
		cold, err := Open(ctx, Options{StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		if got := recallAnswer(t, cold, q); got != want {
			t.Errorf("recall %q after the edit\ncold %s\nfull %s", q.Text, got, want)
		}
		cold.Close()
	}
}

// TestTrustedTopics_MemoPerSnapshot: a long-lived engine answers a
// repeated read of the same snapshot from its memo (the same *RecallFile),
// and a change behind its back that leaves the topic file as it was but
// makes the source it cites pending is a new snapshot with a new answer:
// the memo is the snapshot's, not the topic file's, which the two
// snapshots share.
func TestTrustedTopics_MemoPerSnapshot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the change watch is Linux only")
	}
	ctx := context.Background()
	const ref = "telegram/group-9/m0"
	path := "sources/telegram/_v2/group-9.md"
	arch := func(pending bool) []byte {
		data, _, err := archive.Append(nil, []archive.Record{{SourceID: ref, SpeakerID: "u1", SpeakerDisplay: "Ann",
			Time: time.Date(2026, 8, 10, 9, 0, 0, 0, time.UTC), Content: "The vault code is quetzal.", Pending: pending}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	core := "# Core\n\nThe vault code is quetzal.[^e-0000000001] ^0c0c0c0c\n\n" +
		"[^e-0000000001]: Time: `2026-08-10`; Sources: [" + ref + "](../" + path + "#" + archive.AnchorFor(ref) + ")\n"
	state := filepath.Join(t.TempDir(), "state")
	for p, data := range map[string][]byte{path: arch(false), "topics/core.md": []byte(core)} {
		full := filepath.Join(state, "memory", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(d time.Duration) { racyWindow = d }(racyWindow)
	racyWindow = 30 * time.Millisecond
	time.Sleep(60 * time.Millisecond)
	e, err := Open(ctx, Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	read := func() (*RecallFile, *snapshot) {
		t.Helper()
		files, err := e.TrustedTopics(ctx, []string{"topics/core.md"})
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return files["topics/core.md"], s
	}
	first, s1 := read()
	if again, _ := read(); again != first {
		t.Error("the same snapshot's trust was resolved again, not taken from its memo")
	}
	if !first.Trusted["0c0c0c0c"] {
		t.Fatal("the block citing a trusted source is not trusted")
	}
	if err := os.WriteFile(filepath.Join(state, "memory", filepath.FromSlash(path)), arch(true), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	after, s2 := read()
	if s2 == s1 || s2.topics["topics/core.md"] != s1.topics["topics/core.md"] {
		t.Fatal("the test needs a new snapshot sharing the unchanged topic file")
	}
	if after.Trusted["0c0c0c0c"] {
		t.Error("a block citing a source made pending behind the engine's back is still trusted: the memo outlived its snapshot")
	}
}
