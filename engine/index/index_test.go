package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

func topic(ref, text string) Doc {
	return Doc{ID: "topic:" + ref, Kind: KindTopic, Path: "topics/t.md", Anchor: "^" + ref, Ref: ref, Text: text, Visible: true}
}

func source(ref, text string) Doc {
	return Doc{ID: "source:" + ref, Kind: KindSource, Path: "sources/p/_v2/t.md", Anchor: "source-" + ref, Ref: ref, Text: text, Visible: true}
}

// searchRefs runs a plain text query and returns the refs.
func searchRefs(t *testing.T, ix *Index, text string) []string {
	t.Helper()
	hits, err := ix.Search(Query{Text: text, Limit: 100})
	if err != nil {
		t.Fatalf("Search(%q): %v", text, err)
	}
	return refs(hits)
}

// wantStats checks the running totals against the docs the index should
// hold.
func wantStats(t *testing.T, ix *Index, docs ...Doc) {
	t.Helper()
	var want corpusStats
	count := func(s string) int64 {
		toks, err := Tokens(s)
		if err != nil {
			t.Fatal(err)
		}
		return int64(len(toks))
	}
	for _, d := range docs {
		want.Docs++
		want.Tokens += count(d.Text)
		want.WhoTokens += count(d.Who)
		want.CtxTokens += count(d.Context)
		want.DateTerms += int64(len(docDateTerms(d.Text, d.Time)))
	}
	if got := *ix.stats.Load(); got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	n, err := ix.Count()
	if err != nil {
		t.Fatal(err)
	}
	if n != uint64(len(docs)) {
		t.Errorf("Count = %d, want %d", n, len(docs))
	}
}

func TestOpen_FreshNeedsRebuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.NeedsRebuild() || ix.RebuildReason() != "missing index" {
		t.Fatalf("fresh: NeedsRebuild=%v reason=%q", ix.NeedsRebuild(), ix.RebuildReason())
	}
	if got := searchRefs(t, ix, "anything"); len(got) != 0 {
		t.Fatalf("empty index returned %v", got)
	}
	docs := []Doc{topic("aaaaaaaa", "copper kettle"), source("p/t/1", "copper wire")}
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	if ix.NeedsRebuild() || ix.RebuildReason() != "" {
		t.Fatalf("after Rebuild: NeedsRebuild=%v reason=%q", ix.NeedsRebuild(), ix.RebuildReason())
	}
	before := searchRefs(t, ix, "copper")
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix = mustOpenDir(t, dir)
	if ix.NeedsRebuild() {
		t.Fatalf("reopen after Rebuild needs rebuild: %s", ix.RebuildReason())
	}
	if got := searchRefs(t, ix, "copper"); !slices.Equal(got, before) || len(got) != 2 {
		t.Fatalf("after reopen %v, before %v", got, before)
	}
	wantStats(t, ix, docs...)
}

func TestOpen_UnfedIndexStillNeedsRebuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Apply alone does not make an index complete: only Rebuild stamps it.
	if err := ix.Apply([]Doc{topic("aaaaaaaa", "copper")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = mustOpenDir(t, dir)
	if !ix.NeedsRebuild() {
		t.Fatal("an index that was never rebuilt reopened as complete")
	}
	if n, _ := ix.Count(); n != 0 {
		t.Fatalf("Count = %d after discard, want 0", n)
	}
}

// builtIndex makes a complete, closed index in a temp dir and returns the
// dir and the docs in it.
func builtIndex(t *testing.T) (string, []Doc) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	for i := range 50 {
		docs = append(docs, source(fmt.Sprintf("p/t/%d", i), fmt.Sprintf("copper report number %d with notes", i)))
	}
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta("fingerprint", "abc"); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, docs
}

// reopenDiscarded checks that dir opens as an empty index needing a rebuild
// whose reason contains want, and that a Rebuild then works.
func reopenDiscarded(t *testing.T, dir, want string, docs []Doc) {
	t.Helper()
	checkDiscarded(t, mustOpenDir(t, dir), want, docs)
}

// checkDiscarded asserts that an open index was discarded for the reason
// want and rebuilds it from docs.
func checkDiscarded(t *testing.T, ix *Index, want string, docs []Doc) {
	t.Helper()
	if !ix.NeedsRebuild() {
		t.Fatal("NeedsRebuild = false")
	}
	if !strings.Contains(ix.RebuildReason(), want) {
		t.Errorf("reason %q does not mention %q", ix.RebuildReason(), want)
	}
	if n, err := ix.Count(); err != nil || n != 0 {
		t.Fatalf("Count = %d, %v; want 0", n, err)
	}
	if v, _ := ix.Meta("fingerprint"); v != "" {
		t.Errorf("meta survived the discard: %q", v)
	}
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	if got := searchRefs(t, ix, "copper"); len(got) != len(docs) {
		t.Fatalf("after rebuild got %d hits, want %d", len(got), len(docs))
	}
	wantStats(t, ix, docs...)
}

func TestOpen_FormatMismatch(t *testing.T) {
	tests := []struct {
		name, stamp, reason string
	}{
		{"older version", "0\n", fmt.Sprintf("format version 0, want %d", FormatVersion)},
		{"newer version", fmt.Sprintf("%d\n", FormatVersion+1), fmt.Sprintf("format version %d, want %d", FormatVersion+1, FormatVersion)},
		{"garbage stamp", "\x00\xffzz", "bad format stamp"},
		{"empty stamp", "", "bad format stamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, docs := builtIndex(t)
			if err := os.WriteFile(filepath.Join(dir, formatFile), []byte(tt.stamp), 0o644); err != nil {
				t.Fatal(err)
			}
			reopenDiscarded(t, dir, tt.reason, docs)
		})
	}
}

func TestOpen_Corrupt(t *testing.T) {
	garbage := []byte(strings.Repeat("\xde\xad\xbe\xef garbage ", 300))
	tests := []struct {
		name   string
		damage func(t *testing.T, bdir string)
		reason string
		// fallback: bleve may instead open an older intact snapshot (its
		// "continuing" log line). That is safe only if the fallback does not
		// claim the engine's fingerprint, so the engine rebuilds anyway.
		fallback bool
	}{
		{"garbage in every file", func(t *testing.T, bdir string) {
			walkFiles(t, bdir, func(p string) error { return os.WriteFile(p, garbage, 0o600) })
		}, "unreadable index", false},
		{"every file truncated", func(t *testing.T, bdir string) {
			walkFiles(t, bdir, func(p string) error { return os.Truncate(p, 0) })
		}, "unreadable index", false},
		{"segments garbled", func(t *testing.T, bdir string) {
			walkFiles(t, bdir, func(p string) error {
				if filepath.Ext(p) != ".zap" {
					return nil
				}
				return os.WriteFile(p, garbage, 0o600)
			})
		}, "unreadable index", false},
		{"segments half truncated", func(t *testing.T, bdir string) {
			walkFiles(t, bdir, func(p string) error {
				if filepath.Ext(p) != ".zap" {
					return nil
				}
				fi, err := os.Stat(p)
				if err != nil {
					return err
				}
				return os.Truncate(p, fi.Size()/2)
			})
		}, "unreadable index", false},
		{"segments removed", func(t *testing.T, bdir string) {
			walkFiles(t, bdir, func(p string) error {
				if filepath.Ext(p) != ".zap" {
					return nil
				}
				return os.Remove(p)
			})
		}, "unreadable index", true},
		{"mapping garbled", func(t *testing.T, bdir string) {
			if err := os.WriteFile(filepath.Join(bdir, "index_meta.json"), []byte("{not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "unreadable index", false},
		{"index directory is a file", func(t *testing.T, bdir string) {
			if err := os.RemoveAll(bdir); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bdir, garbage, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "unreadable index", false},
		{"index directory missing", func(t *testing.T, bdir string) {
			if err := os.RemoveAll(bdir); err != nil {
				t.Fatal(err)
			}
		}, "unreadable index", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, docs := builtIndex(t)
			tt.damage(t, filepath.Join(dir, bleveDir))
			if tt.fallback {
				ix := mustOpenDir(t, dir)
				if !ix.NeedsRebuild() {
					if v, _ := ix.Meta("fingerprint"); v == "abc" {
						t.Fatalf("bleve fell back to an older snapshot that still claims the fingerprint")
					}
					if _, err := ix.Search(Query{Text: "copper"}); err != nil {
						t.Fatalf("search on the fallback snapshot: %v", err)
					}
					return
				}
				checkDiscarded(t, ix, tt.reason, docs)
				return
			}
			reopenDiscarded(t, dir, tt.reason, docs)
		})
	}
}

// walkFiles applies fn to every regular file under root.
func walkFiles(t *testing.T, root string, fn func(string) error) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		return fn(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no files to damage")
	}
}

func TestOpen_SweepsLeftovers(t *testing.T) {
	dir, _ := builtIndex(t)
	for _, name := range []string{newDir, oldDir, tmpPrefix + "format-123"} {
		if err := os.MkdirAll(filepath.Join(dir, name, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ix := mustOpenDir(t, dir)
	if ix.NeedsRebuild() {
		t.Fatalf("leftovers made the index unusable: %s", ix.RebuildReason())
	}
	for _, name := range []string{newDir, oldDir, tmpPrefix + "format-123"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s not swept: %v", name, err)
		}
	}
}

func TestOpen_Locked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix := mustOpenDir(t, dir)
	if err := ix.Rebuild([]Doc{topic("aaaaaaaa", "copper")}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(dir, Options{LockTimeout: -1}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	// The failed open must not have touched the live index.
	if got := searchRefs(t, ix, "copper"); len(got) != 1 {
		t.Fatalf("live index damaged: %v", got)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix2 := mustOpenDir(t, dir)
	if ix2.NeedsRebuild() {
		t.Fatalf("reopen needs rebuild: %s", ix2.RebuildReason())
	}
}

func TestClose_ThenCallsFail(t *testing.T) {
	ix := mustOpen(t)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := ix.Search(Query{Text: "x"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close: %v", err)
	}
	if err := ix.Apply([]Doc{topic("aaaaaaaa", "x")}, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Apply after Close: %v", err)
	}
	if err := ix.Rebuild(nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Rebuild after Close: %v", err)
	}
	if _, err := ix.Count(); !errors.Is(err, ErrClosed) {
		t.Errorf("Count after Close: %v", err)
	}
	if _, err := ix.Meta("k"); !errors.Is(err, ErrClosed) {
		t.Errorf("Meta after Close: %v", err)
	}
}

func TestApply_Cases(t *testing.T) {
	a := topic("aaaaaaaa", "copper kettle")
	b := source("p/t/b", "copper wire spool")
	c := source("p/t/c", "silver spoon")
	aNew := topic("aaaaaaaa", "brass kettle")
	hiddenB := b
	hiddenB.Visible = false
	tests := []struct {
		name     string
		upserts  []Doc
		deletes  []string
		want     []Doc // what the index holds afterwards
		queries  map[string][]string
		wantErrs bool
	}{
		{name: "replace", upserts: []Doc{aNew}, want: []Doc{aNew, b, c},
			queries: map[string][]string{"copper": {"p/t/b"}, "brass": {"aaaaaaaa"}}},
		{name: "delete", deletes: []string{b.ID}, want: []Doc{a, c},
			queries: map[string][]string{"copper": {"aaaaaaaa"}, "spool": {}}},
		{name: "invisible upsert deletes", upserts: []Doc{hiddenB}, want: []Doc{a, c},
			queries: map[string][]string{"wire": {}}},
		{name: "upsert wins over delete", upserts: []Doc{aNew}, deletes: []string{a.ID}, want: []Doc{aNew, b, c},
			queries: map[string][]string{"brass": {"aaaaaaaa"}}},
		{name: "last upsert wins", upserts: []Doc{aNew, a}, want: []Doc{a, b, c},
			queries: map[string][]string{"brass": {}, "copper": {"aaaaaaaa", "p/t/b"}}},
		{name: "delete unknown id", deletes: []string{"topic:ffffffff"}, want: []Doc{a, b, c},
			queries: map[string][]string{"copper": {"aaaaaaaa", "p/t/b"}}},
		{name: "insert new", upserts: []Doc{source("p/t/d", "gold copper")}, want: []Doc{a, b, c, source("p/t/d", "gold copper")},
			queries: map[string][]string{"gold": {"p/t/d"}}},
		{name: "empty", want: []Doc{a, b, c}},
		{name: "missing id", upserts: []Doc{{Kind: KindTopic, Text: "x", Visible: true}}, want: []Doc{a, b, c}, wantErrs: true},
		{name: "bad kind", upserts: []Doc{{ID: "x", Kind: "block", Text: "x", Visible: true}}, want: []Doc{a, b, c}, wantErrs: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := mustOpen(t)
			if err := ix.Rebuild([]Doc{a, b, c}); err != nil {
				t.Fatal(err)
			}
			err := ix.Apply(tt.upserts, tt.deletes)
			if (err != nil) != tt.wantErrs {
				t.Fatalf("Apply error = %v, want error %v", err, tt.wantErrs)
			}
			wantStats(t, ix, tt.want...)
			for q, want := range tt.queries {
				got := searchRefs(t, ix, q)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%q: %v, want %v", q, got, want)
				}
			}
		})
	}
}

func TestApply_StatsAndScoresMatchRebuild(t *testing.T) {
	docs := genDocs(300, 7)
	applied := mustOpen(t)
	// Feed in uneven batches, replace a third, delete a tenth.
	for i := 0; i < len(docs); i += 37 {
		if err := applied.Apply(docs[i:min(i+37, len(docs))], nil); err != nil {
			t.Fatal(err)
		}
	}
	final := map[string]Doc{}
	for _, d := range docs {
		final[d.ID] = d
	}
	var deletes []string
	var replaced []Doc
	for i, d := range docs {
		switch i % 10 {
		case 0:
			deletes = append(deletes, d.ID)
			delete(final, d.ID)
		case 1, 4, 7:
			d.Text += " addendum copper " + d.Text
			replaced = append(replaced, d)
			final[d.ID] = d
		}
	}
	if err := applied.Apply(replaced, deletes); err != nil {
		t.Fatal(err)
	}

	var finalDocs, visible []Doc
	for _, d := range docs {
		if fd, ok := final[d.ID]; ok {
			finalDocs = append(finalDocs, fd)
			if fd.Visible {
				visible = append(visible, fd)
			}
		}
	}
	rebuilt := mustOpen(t)
	if err := rebuilt.Rebuild(finalDocs); err != nil {
		t.Fatal(err)
	}
	wantStats(t, applied, visible...)
	wantStats(t, rebuilt, visible...)
	for _, q := range genQueries(20, 8) {
		h1, err := applied.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		h2, err := rebuilt.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		if !sameHits(h1, h2) {
			t.Errorf("%q: applied %v\nrebuilt %v", q, scored(h1), scored(h2))
		}
	}
}

// sameHits reports whether two result lists have the same ids and scores.
func sameHits(a, b []Hit) bool {
	return slices.EqualFunc(a, b, func(x, y Hit) bool { return x.ID == y.ID && x.Score == y.Score })
}

func scored(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = fmt.Sprintf("%s=%.6f", h.ID, h.Score)
	}
	return out
}

// rootSegments is the number of segments in the index's current snapshot.
func rootSegments(t *testing.T, ix *Index) uint64 {
	t.Helper()
	adv, err := ix.idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		t.Fatalf("index is %T, not scorch", adv)
	}
	m := sc.StatsMap()
	file, _ := m["TotFileSegmentsAtRoot"].(uint64)
	mem, _ := m["TotMemorySegmentsAtRoot"].(uint64)
	return file + mem
}

func TestSearch_StableAfterMerge(t *testing.T) {
	docs := genDocs(400, 11)
	ix := mustOpen(t)
	// Many small batches make many small segments (each a separate fsync,
	// so not one per doc: that is slow on a busy disk).
	for i := 0; i < len(docs); i += 5 {
		if err := ix.Apply(docs[i:i+5], nil); err != nil {
			t.Fatal(err)
		}
	}
	queries := genQueries(30, 12)
	before := make([][]Hit, len(queries))
	segsBefore := rootSegments(t, ix)
	for i, q := range queries {
		var err error
		if before[i], err = ix.Search(Query{Text: q, Limit: 20}); err != nil {
			t.Fatal(err)
		}
	}
	adv, err := ix.idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	if err := adv.(*scorch.Scorch).ForceMerge(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	segsAfter := rootSegments(t, ix)
	if segsBefore <= 1 || segsAfter != 1 {
		t.Fatalf("segments before %d, after %d: the merge did not happen as planned", segsBefore, segsAfter)
	}
	rebuilt := mustOpen(t)
	if err := rebuilt.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	nonEmpty := 0
	for i, q := range queries {
		after, err := ix.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := rebuilt.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		if !sameHits(before[i], after) {
			t.Errorf("%q changed after merge:\nbefore %v\nafter  %v", q, scored(before[i]), scored(after))
		}
		if !sameHits(after, fresh) {
			t.Errorf("%q differs from a fresh build:\nmerged %v\nfresh  %v", q, scored(after), scored(fresh))
		}
		if len(after) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < len(queries)/2 {
		t.Fatalf("only %d of %d queries found anything; the test proves little", nonEmpty, len(queries))
	}
}

func TestSearch_ScoreIsBM25WithCorpusStats(t *testing.T) {
	// Lots of repeated tokens: the real mean length (tokens) is far from
	// the distinct-term count bleve would estimate on its own.
	docs := []Doc{
		topic("aaaaaaaa", "zinc"),
		topic("bbbbbbbb", strings.Repeat("filler ", 40)+"zinc zinc"),
		topic("cccccccc", strings.Repeat("padding words ", 30)),
		topic("dddddddd", "other"),
	}
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	st := *ix.stats.Load()
	avgdl := math.Ceil(float64(st.Tokens) / float64(st.Docs)) // as bleve rounds it
	n := float64(st.Docs)
	const k1, b = 1.2, 0.75
	idf := math.Log(1 + (n-2+0.5)/(2+0.5)) // "zinc" is in 2 docs
	bm25 := func(freq, length float64) float64 {
		tf := math.Sqrt(freq) // bleve's BM25 takes the square root of the frequency
		return idf * tf * k1 / (tf + k1*(1-b+b*length/avgdl))
	}
	hits, err := ix.Search(Query{Text: "zinc"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 {
		t.Fatalf("hits %v", scored(hits))
	}
	// The query also looks "zinc" up in the who and ctx fields, which
	// scales every score by the same query norm and coordination factor:
	// the BM25 shape is in the ratio.
	want := bm25(1, 1) / bm25(2, 42)
	score := map[string]float64{}
	for _, h := range hits {
		score[h.Ref] = h.Score
	}
	if got := score["aaaaaaaa"] / score["bbbbbbbb"]; math.Abs(got-want) > 1e-6*want {
		t.Errorf("score ratio %v, want %v (avgdl %v; scores %v)", got, want, avgdl, score)
	}
}

func TestSearch_QueryLimits(t *testing.T) {
	ix := mustOpen(t)
	if err := ix.Rebuild([]Doc{topic("aaaaaaaa", "alpha beta")}); err != nil {
		t.Fatal(err)
	}
	var words []string
	for i := 0; len(strings.Join(words, " ")) < MaxQueryRunes-20; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	words = append(words, "alpha")
	long := strings.Join(words, " ")
	long += strings.Repeat(" ", MaxQueryRunes-len(long))
	tests := []struct {
		name    string
		text    string
		wantErr error
		want    int
	}{
		{"empty", "", ErrEmptyQuery, 0},
		{"white space", " \t\r\n\u3000", ErrEmptyQuery, 0},
		{"exactly the limit, many terms", long, nil, 1},
		{"one rune over", long + "x", ErrQueryTooLong, 0},
		{"limit counts runes not bytes", strings.Repeat("密", MaxQueryRunes), nil, 0},
		{"one CJK rune over", strings.Repeat("密", MaxQueryRunes+1), ErrQueryTooLong, 0},
		{"invalid utf-8", "alpha \xff\xfe", nil, 1},
		{"NUL bytes", "alpha\x00beta", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := ix.Search(Query{Text: tt.text})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(hits) != tt.want {
				t.Fatalf("%d hits, want %d", len(hits), tt.want)
			}
		})
	}
}

func TestSearch_HitFields(t *testing.T) {
	when := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	docs := []Doc{
		{ID: "source:sources/openprogram/_v2/group.md#source-8339b8d3", Kind: KindSource,
			Path: "sources/openprogram/_v2/group.md", Anchor: "source-8339b8d3", Ref: "openprogram/group/m3",
			Time: when.Add(400 * time.Millisecond), Text: "密钥可以给他", SpeakerID: "u456", SpeakerDisplay: "B",
			SpeakerLabel: "B (u456)", SpeakerTrusted: true, Visible: true},
		{ID: "topic:f888f60e", Kind: KindTopic, Path: "topics/people/craig.md", Anchor: "^f888f60e",
			Ref: "f888f60e", Text: "密钥 rotated", SpeakerID: "ignored", SpeakerTrusted: true, Visible: true},
	}
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(Query{Text: "密钥", Sort: SortDate})
	if err != nil {
		t.Fatal(err)
	}
	want := []Hit{
		{ID: docs[0].ID, Kind: KindSource, Path: docs[0].Path, Anchor: docs[0].Anchor, Ref: docs[0].Ref,
			Time: when, SpeakerID: "u456", SpeakerDisplay: "B", SpeakerLabel: "B (u456)", SpeakerTrusted: true},
		{ID: docs[1].ID, Kind: KindTopic, Path: docs[1].Path, Anchor: docs[1].Anchor, Ref: docs[1].Ref},
	}
	if len(hits) != len(want) {
		t.Fatalf("hits %+v", hits)
	}
	for i := range want {
		got := hits[i]
		if got.Score <= 0 {
			t.Errorf("hit %d score %v", i, got.Score)
		}
		got.Score = 0
		if got != want[i] {
			t.Errorf("hit %d:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
}

func TestMeta_Lifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Rebuild([]Doc{topic("aaaaaaaa", "copper")}); err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta("fingerprint", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := ix.ApplyWithMeta([]Doc{topic("bbbbbbbb", "brass")}, nil, map[string]string{"fingerprint": "v2", "other": "x"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.SetMeta("other", ""); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix = mustOpenDir(t, dir)
	for k, want := range map[string]string{"fingerprint": "v2", "other": "", "never": ""} {
		if got, err := ix.Meta(k); err != nil || got != want {
			t.Errorf("Meta(%q) = %q, %v; want %q", k, got, err, want)
		}
	}
	if got := searchRefs(t, ix, "brass"); !slices.Equal(got, []string{"bbbbbbbb"}) {
		t.Errorf("doc applied with meta: %v", got)
	}
	if err := ix.Rebuild([]Doc{topic("aaaaaaaa", "copper")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.Meta("fingerprint"); got != "" {
		t.Errorf("Rebuild kept meta %q", got)
	}
}

func TestRebuild_FailureKeepsOldIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix := mustOpenDir(t, dir)
	good := []Doc{topic("aaaaaaaa", "copper")}
	if err := ix.Rebuild(good); err != nil {
		t.Fatal(err)
	}
	bad := []Doc{topic("bbbbbbbb", "brass"), {ID: "x", Kind: "block", Text: "x", Visible: true}}
	if err := ix.Rebuild(bad); err == nil {
		t.Fatal("Rebuild with a bad kind succeeded")
	}
	if ix.NeedsRebuild() {
		t.Error("a failed Rebuild marked a good index as needing one")
	}
	if got := searchRefs(t, ix, "copper"); !slices.Equal(got, []string{"aaaaaaaa"}) {
		t.Errorf("old index lost: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, newDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("staging left behind: %v", err)
	}
}

func TestRebuild_DuplicatesAndHidden(t *testing.T) {
	hidden := topic("cccccccc", "copper secret")
	hidden.Visible = false
	docs := []Doc{topic("aaaaaaaa", "copper old"), topic("bbbbbbbb", "copper"), topic("aaaaaaaa", "brass new"), hidden}
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	wantStats(t, ix, docs[1], docs[2])
	if got := searchRefs(t, ix, "copper"); !slices.Equal(got, []string{"bbbbbbbb"}) {
		t.Errorf("copper: %v", got)
	}
}

func TestIndex_ConcurrentSearchAndApply(t *testing.T) {
	ix := mustOpen(t)
	docs := genDocs(200, 3)
	if err := ix.Rebuild(docs[:100]); err != nil {
		t.Fatal(err)
	}
	queries := genQueries(10, 4)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if _, err := ix.Search(Query{Text: queries[(g+i)%len(queries)], Speaker: "user 3"}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 100; i < 200; i += 10 {
		if err := ix.Apply(docs[i:i+10], nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var visible []Doc
	for _, d := range docs {
		if d.Visible {
			visible = append(visible, d)
		}
	}
	wantStats(t, ix, visible...)
}

func TestOpen_ForeignBoltHolderIsNotWiped(t *testing.T) {
	dir, docs := builtIndex(t)
	// Something outside our directory lock (another tool, an old binary)
	// holds bleve's own lock: Open must give up, not discard the index.
	foreign, err := bleve.OpenUsing(filepath.Join(dir, bleveDir), scorchConfig())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Open with bolt held elsewhere: %v, want ErrLocked", err)
	}
	if err := foreign.Close(); err != nil {
		t.Fatal(err)
	}
	ix := mustOpenDir(t, dir)
	if ix.NeedsRebuild() {
		t.Fatalf("index was discarded: %s", ix.RebuildReason())
	}
	if got := searchRefs(t, ix, "copper"); len(got) != len(docs) {
		t.Fatalf("%d hits, want %d", len(got), len(docs))
	}
}
