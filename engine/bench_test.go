package engine_test

// Benchmarks of SPEC §14 on generated workspaces of 10k and 100k source
// records (benchgen_test.go). Every benchmark times a baseline in the same
// run, interleaved with the measured operation, and reports the ratio
// (x-base), because absolute numbers on a shared machine are noise:
//
//	open         engine.Open + Verify/Status + Close  vs  os.ReadFile of every .md file
//	index build  index.Rebuild / cold engine search   vs  textbook BM25 postings over the same tokens
//	search       engine.Search / index.Search         vs  textbook BM25 query over the same corpus
//	install      engine.Update appending one block    vs  one fsynced write+rename of the same bytes
//	index apply  index.Apply of one topic file's docs vs  one fsynced write+rename of that file
//	core         engine.Core                          vs  read topics/core.md, count o200k tokens, write it
//
// ns/op covers the measured operation only (the baseline runs with the
// timer stopped). p50-ms/p95-ms are of the measured operation, base-* of
// the baseline. The 100k sizes run only with SCRIPTORIUM_BENCH_100K=1.
// BENCHMARKS.md has the commands and the results.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiktoken-go/tokenizer/codec"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/search"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// forSizes runs fn as sub-benchmarks n=10k and n=100k.
func forSizes(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%dk", n/1000), func(b *testing.B) {
			if n >= 100_000 && os.Getenv("SCRIPTORIUM_BENCH_100K") != "1" {
				b.Skip("set SCRIPTORIUM_BENCH_100K=1 to run the 100k-record benchmarks")
			}
			fn(b, n)
		})
	}
}

// ---------------------------------------------------------------------------
// Workspaces.

// benchWarm returns the cached state dir of n records with a built, fresh
// search index, building it (and checking that the generated workspace
// verifies clean) the first time.
func benchWarm(b *testing.B, n int) (string, *benchManifest) {
	b.Helper()
	pristine, m := benchPristine(b, n)
	dir := filepath.Join(benchCacheDir(n), fmt.Sprintf("warm-f%d", index.FormatVersion))
	if _, err := os.Stat(filepath.Join(dir, "state", "memory")); err == nil {
		return filepath.Join(dir, "state"), m
	}
	start := time.Now()
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	_ = os.RemoveAll(tmp)
	state := filepath.Join(tmp, "state")
	if err := copyTree(pristine, state); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		b.Fatal(err)
	}
	rep, err := e.Verify(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if !rep.OK {
		for _, v := range rep.Violations[:min(10, len(rep.Violations))] {
			b.Log(v)
		}
		b.Fatalf("generated workspace has %d violations", len(rep.Violations))
	}
	if _, err := e.Search(ctx, result.SearchQuery{Text: m.Queries[0]}); err != nil {
		b.Fatal(err)
	}
	if err := e.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		b.Fatal(err)
	}
	b.Logf("verified and indexed %d records in %s", n, time.Since(start).Round(time.Millisecond))
	return filepath.Join(dir, "state"), m
}

// benchCopy copies a cached state dir into a fresh temporary one, so a
// benchmark may change it freely.
func benchCopy(b *testing.B, state string) string {
	b.Helper()
	dst := filepath.Join(b.TempDir(), "state")
	if err := copyTree(state, dst); err != nil {
		b.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: dst})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	if err := search.AdoptCopiedIndex(context.Background(), e); err != nil {
		b.Fatal(err)
	}
	return dst
}

func memDir(state string) string   { return filepath.Join(state, "memory") }
func indexDir(state string) string { return filepath.Join(state, "memory", ".scriptorium", "index") }

// loadBenchDocs reads the workspace through the format packages and builds
// the documents the engine indexes: trusted v2 source records and trusted
// topic blocks, with the engine's id scheme ("source:<path>#<anchor>",
// "topic:<path>#^<id>").
func loadBenchDocs(b *testing.B, mem string) []index.Doc {
	b.Helper()
	type frameRef struct {
		id      string
		pending bool
	}
	anchors := map[string]frameRef{}
	var docs []index.Doc
	var topicFiles []string
	err := filepath.WalkDir(mem, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(mem, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel == ".scriptorium":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(rel, ".md"):
			return nil
		case strings.HasPrefix(rel, "topics/"):
			topicFiles = append(topicFiles, rel)
			return nil
		case !strings.HasPrefix(rel, "sources/"):
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		frames, err := archive.ParseV2(data)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		for _, f := range frames {
			anchors[rel+"#"+f.Anchor] = frameRef{f.SourceID, f.Pending}
			if f.Pending {
				continue
			}
			d := index.Doc{ID: "source:" + rel + "#" + f.Anchor, Kind: index.KindSource, Path: rel,
				Anchor: f.Anchor, Ref: f.SourceID, Time: f.Time, Text: f.Content,
				SpeakerDisplay: f.SpeakerDisplay(), SpeakerLabel: f.SpeakerLabel(),
				SpeakerTrusted: f.Speaker != archive.SpeakerNone, Visible: true}
			if f.Speaker == archive.SpeakerWithID {
				d.SpeakerID = f.SpeakerID
			}
			docs = append(docs, d)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, rel := range topicFiles {
		data, err := os.ReadFile(filepath.Join(mem, filepath.FromSlash(rel)))
		if err != nil {
			b.Fatal(err)
		}
		f, _ := topic.Parse(data)
		defs := f.Definitions()
		for _, blk := range f.Blocks() {
			d := index.Doc{ID: "topic:" + rel + "#^" + blk.BlockID, Kind: index.KindTopic, Path: rel,
				Anchor: "^" + blk.BlockID, Ref: blk.BlockID, Text: topic.BlockText(blk), Visible: true}
			for _, r := range blk.Refs {
				def, ok := defs[r.Label]
				if !ok {
					d.Visible = false
					continue
				}
				if t, err := time.Parse(time.DateOnly, def.Date); err == nil && t.After(d.Time) {
					d.Time = t
				}
				for _, c := range def.Sources {
					target := path.Clean(path.Join(path.Dir(rel), c.Path))
					fr, ok := anchors[target+"#"+c.Anchor]
					if !ok || fr.id != c.SourceID || fr.pending {
						d.Visible = false
					}
				}
			}
			if d.Visible {
				docs = append(docs, d)
			}
		}
	}
	slices.SortFunc(docs, func(a, b index.Doc) int { return strings.Compare(a.ID, b.ID) })
	return docs
}

// ---------------------------------------------------------------------------
// The textbook BM25 baseline: an in-memory inverted index over exactly the
// tokens the index analyses (index.Tokens), Okapi BM25 with k1 = 1.2,
// b = 0.75 and Lucene's non-negative idf, ties by id. It does no I/O and
// keeps nothing durable, so it is the floor a persistent index is compared
// to, not a competitor.

type tbPosting struct {
	doc int32
	tf  int32
}

type tbDoc struct {
	id, kind, path string
	unix           int64 // 0 = undated
	speakers       []string
}

type textbook struct {
	docs   []tbDoc
	dl     []int32
	post   map[string][]tbPosting
	avgdl  float64
	scores []float64
}

func newTextbook(docs []index.Doc) (*textbook, error) {
	tb := &textbook{post: map[string][]tbPosting{}}
	total := 0
	tf := map[string]int32{}
	for _, d := range docs {
		if !d.Visible {
			continue
		}
		toks, err := index.Tokens(d.Text)
		if err != nil {
			return nil, err
		}
		clear(tf)
		for _, t := range toks {
			tf[t]++
		}
		i := int32(len(tb.docs))
		for t, f := range tf {
			tb.post[t] = append(tb.post[t], tbPosting{i, f})
		}
		td := tbDoc{id: d.ID, kind: d.Kind, path: d.Path}
		if !d.Time.IsZero() {
			td.unix = d.Time.Unix()
		}
		if d.Kind == index.KindSource {
			td.speakers = []string{d.SpeakerID, d.SpeakerDisplay, d.SpeakerLabel}
		}
		tb.docs = append(tb.docs, td)
		tb.dl = append(tb.dl, int32(len(toks)))
		total += len(toks)
	}
	if len(tb.docs) > 0 {
		tb.avgdl = float64(total) / float64(len(tb.docs))
	}
	tb.scores = make([]float64, len(tb.docs))
	return tb, nil
}

// tbFilter is the baseline's form of a speaker+path+date filter.
type tbFilter struct {
	speaker, path string
	since, until  int64 // unix seconds, inclusive
}

func (f *tbFilter) keep(d *tbDoc) bool {
	if f == nil {
		return true
	}
	if f.speaker != "" {
		if d.kind != index.KindSource {
			return false
		}
		ok := false
		for _, s := range d.speakers {
			if s != "" && strings.EqualFold(s, f.speaker) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	if f.path != "" && d.path != f.path && !strings.HasPrefix(d.path, f.path+"/") {
		return false
	}
	if f.since != 0 || f.until != 0 {
		if d.unix == 0 || d.unix < f.since || d.unix > f.until {
			return false
		}
	}
	return true
}

// search returns the ids of the best k documents for text.
func (tb *textbook) search(text string, f *tbFilter, k int) ([]string, error) {
	toks, err := index.Tokens(text)
	if err != nil {
		return nil, err
	}
	n := float64(len(tb.docs))
	var touched []int32
	seen := map[string]bool{}
	for _, t := range toks {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := tb.post[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			if !f.keep(&tb.docs[p.doc]) {
				continue
			}
			if tb.scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			tf := float64(p.tf)
			norm := 1 - 0.75 + 0.75*float64(tb.dl[p.doc])/tb.avgdl
			tb.scores[p.doc] += idf * tf * 2.2 / (tf + 1.2*norm)
		}
	}
	slices.SortFunc(touched, func(a, b int32) int {
		if sa, sb := tb.scores[a], tb.scores[b]; sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return strings.Compare(tb.docs[a].id, tb.docs[b].id)
	})
	out := make([]string, 0, k)
	for i, d := range touched {
		if i < k {
			out = append(out, tb.docs[d].id)
		}
		tb.scores[d] = 0
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Measurement.

// timings collects per-iteration durations of the operation and of its
// baseline.
type timings struct {
	ours, base []time.Duration
}

// baseline runs f with the benchmark timer stopped and records its time.
func (tm *timings) baseline(b *testing.B, f func()) {
	b.StopTimer()
	t0 := time.Now()
	f()
	tm.base = append(tm.base, time.Since(t0))
	b.StartTimer()
}

// measure runs f (timer running) and records its time.
func (tm *timings) measure(f func()) {
	t0 := time.Now()
	f()
	tm.ours = append(tm.ours, time.Since(t0))
}

// report emits p50/p95 of both and the ratio of the medians.
func (tm *timings) report(b *testing.B) {
	if len(tm.ours) == 0 || len(tm.base) == 0 {
		return
	}
	o50, o95 := pct(tm.ours, 50), pct(tm.ours, 95)
	b50, b95 := pct(tm.base, 50), pct(tm.base, 95)
	b.ReportMetric(ms(o50), "p50-ms")
	b.ReportMetric(ms(o95), "p95-ms")
	b.ReportMetric(ms(b50), "base-p50-ms")
	b.ReportMetric(ms(b95), "base-p95-ms")
	if b50 > 0 {
		b.ReportMetric(float64(o50)/float64(b50), "x-base")
	}
}

// pct is the nearest-rank percentile.
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(float64(p)/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// resetPeakRSS resets the kernel's peak-RSS mark (VmHWM) of this process,
// so peakRSS reports the peak since the call. Linux only; a no-op elsewhere.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// reportPeakRSS reports VmHWM from /proc/self/status in MiB, when there is
// one.
func reportPeakRSS(b *testing.B) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err == nil {
				b.ReportMetric(kb/1024, "peak-RSS-MiB")
			}
			return
		}
	}
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// readAllMarkdown is the open baseline: read every .md file of topics/ and
// sources/ raw, and nothing else.
func readAllMarkdown(b *testing.B, mem string) int {
	total := 0
	for _, sub := range []string{"topics", "sources"} {
		err := filepath.WalkDir(filepath.Join(mem, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			total += len(data)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return total
}

// overlap is |a ∩ b| / max(len(b), 1): how much of the baseline's top list
// the measured operation also returned.
func overlap(a, base []string) float64 {
	if len(base) == 0 {
		if len(a) == 0 {
			return 1
		}
		return 0
	}
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	n := 0
	for _, x := range base {
		if in[x] {
			n++
		}
	}
	return float64(n) / float64(len(base))
}

// ---------------------------------------------------------------------------
// Benchmarks.

// BenchmarkOpen opens the workspace and runs one read-only operation
// (Verify, or Status, which also opens the index and renders core in
// memory), against reading every memory file raw.
func BenchmarkOpen(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, _ := benchWarm(b, n)
		state := benchCopy(b, warm)
		ctx := context.Background()
		ops := []struct {
			name string
			run  func(*engine.Engine) error
		}{
			{"verify", func(e *engine.Engine) error {
				rep, err := e.Verify(ctx)
				if err == nil && !rep.OK {
					err = fmt.Errorf("%d violations", len(rep.Violations))
				}
				return err
			}},
			{"status", func(e *engine.Engine) error {
				st, err := e.Status(ctx)
				if err == nil && !st.Index.Fresh {
					err = errors.New("index not fresh after a plain open")
				}
				return err
			}},
		}
		for _, op := range ops {
			b.Run(op.name, func(b *testing.B) {
				var tm timings
				resetPeakRSS()
				for b.Loop() {
					tm.baseline(b, func() { readAllMarkdown(b, memDir(state)) })
					tm.measure(func() {
						e, err := engine.Open(ctx, engine.Options{StateDir: state})
						if err != nil {
							b.Fatal(err)
						}
						if err := op.run(e); err != nil {
							b.Fatal(err)
						}
						if err := e.Close(); err != nil {
							b.Fatal(err)
						}
					})
				}
				tm.report(b)
				reportPeakRSS(b)
			})
		}
	})
}

// BenchmarkIndexBuild is a full rebuild: index.Rebuild of every document
// into a new on-disk index ("index"), and the engine's own path, a search
// on a workspace whose index was deleted ("engine": read and parse the
// workspace, rebuild, query). The baseline builds textbook BM25 postings
// over the same tokens in memory.
func BenchmarkIndexBuild(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, m := benchWarm(b, n)
		state := benchCopy(b, warm)
		docs := loadBenchDocs(b, memDir(state))
		baseline := func() {
			if _, err := newTextbook(docs); err != nil {
				b.Fatal(err)
			}
		}

		b.Run("index", func(b *testing.B) {
			var tm timings
			base := b.TempDir()
			var size int64
			resetPeakRSS()
			i := 0
			for b.Loop() {
				tm.baseline(b, baseline)
				dir := filepath.Join(base, strconv.Itoa(i))
				tm.measure(func() {
					ix, err := index.Open(dir)
					if err != nil {
						b.Fatal(err)
					}
					if err := ix.Rebuild(docs); err != nil {
						b.Fatal(err)
					}
					if err := ix.Close(); err != nil {
						b.Fatal(err)
					}
				})
				b.StopTimer()
				size = dirSize(dir)
				_ = os.RemoveAll(dir)
				b.StartTimer()
				i++
			}
			tm.report(b)
			reportPeakRSS(b)
			b.ReportMetric(float64(len(docs)), "docs")
			b.ReportMetric(float64(size)/(1<<20), "index-MiB")
			b.ReportMetric(float64(len(docs))/pct(tm.ours, 50).Seconds(), "docs/s")
		})

		b.Run("engine", func(b *testing.B) {
			ctx := context.Background()
			e, err := engine.Open(ctx, engine.Options{StateDir: state})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			var tm timings
			resetPeakRSS()
			for b.Loop() {
				tm.baseline(b, baseline)
				b.StopTimer()
				if err := os.RemoveAll(indexDir(state)); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				tm.measure(func() {
					if _, err := e.Search(ctx, result.SearchQuery{Text: m.Queries[0]}); err != nil {
						b.Fatal(err)
					}
				})
			}
			tm.report(b)
			reportPeakRSS(b)
			b.ReportMetric(float64(dirSize(indexDir(state)))/(1<<20), "index-MiB")
		})
	})
}

// BenchmarkSearch runs top-10 queries, one per iteration, through a
// one-shot engine (the CLI's path since issue 14: a stat walk, the fresh
// index, the hit files), through a long-lived one (held) and through the
// index alone, each with and without a speaker+path+date filter. The baseline answers the same query with
// textbook BM25 in memory; top10-overlap is how much of its top 10 ours
// returned (the two score differently, so 1.0 is not expected).
func BenchmarkSearch(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, m := benchWarm(b, n)
		state := benchCopy(b, warm)
		docs := loadBenchDocs(b, memDir(state))
		tb, err := newTextbook(docs)
		if err != nil {
			b.Fatal(err)
		}
		docs = nil
		since, err := index.ParseBound(m.Filter.Since, false)
		if err != nil {
			b.Fatal(err)
		}
		until, err := index.ParseBound(m.Filter.Until, true)
		if err != nil {
			b.Fatal(err)
		}
		tf := &tbFilter{speaker: m.Filter.Speaker, path: m.Filter.Path, since: since.Unix(), until: until.Unix()}
		ctx := context.Background()

		for _, filtered := range []bool{false, true} {
			name := "plain"
			if filtered {
				name = "filtered"
			}
			var f *tbFilter
			if filtered {
				f = tf
			}
			base := func(q string) []string {
				ids, err := tb.search(q, f, 10)
				if err != nil {
					b.Fatal(err)
				}
				return ids
			}

			b.Run("engine/"+name, func(b *testing.B) {
				e, err := engine.Open(ctx, engine.Options{StateDir: state})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				var tm timings
				var hits, ov float64
				resetPeakRSS()
				i := 0
				for b.Loop() {
					q := m.Queries[i%len(m.Queries)]
					var want []string
					tm.baseline(b, func() { want = base(q) })
					sq := result.SearchQuery{Text: q, Limit: 10}
					if filtered {
						sq.Speaker, sq.Path, sq.Since, sq.Until = m.Filter.Speaker, m.Filter.Path, m.Filter.Since, m.Filter.Until
					}
					var res []result.SearchResult
					tm.measure(func() {
						if res, err = e.Search(ctx, sq); err != nil {
							b.Fatal(err)
						}
					})
					got := make([]string, len(res))
					for j, r := range res {
						got[j] = r.Kind + ":" + r.Path + "#" + r.Anchor
					}
					hits += float64(len(res))
					ov += overlap(got, want)
					i++
				}
				tm.report(b)
				reportPeakRSS(b)
				b.ReportMetric(hits/float64(i), "hits/op")
				b.ReportMetric(ov/float64(i), "top10-overlap")
			})

			// held: a long-lived engine (the TUI, serve, mcp) against the
			// index query alone, both on open read-only handles of the same
			// index: what the engine adds to a query (the freshness check,
			// snippets), interleaved. x-base is engine / index.
			b.Run("held/"+name, func(b *testing.B) {
				e, err := engine.Open(ctx, engine.Options{StateDir: state, LongLived: true})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				if _, err := e.Search(ctx, result.SearchQuery{Text: m.Queries[0], Limit: 10}); err != nil {
					b.Fatal(err)
				}
				ix, err := index.OpenWith(indexDir(state), index.Options{ReadOnly: true})
				if err != nil {
					b.Fatal(err)
				}
				defer ix.Close()
				var tm timings
				resetPeakRSS()
				i := 0
				for b.Loop() {
					q := m.Queries[i%len(m.Queries)]
					iq := index.Query{Text: q, Limit: 10, Sort: "score"}
					sq := result.SearchQuery{Text: q, Limit: 10}
					if filtered {
						iq.Speaker, iq.PathPrefix, iq.Since, iq.Until = m.Filter.Speaker, m.Filter.Path, since, until
						sq.Speaker, sq.Path, sq.Since, sq.Until = m.Filter.Speaker, m.Filter.Path, m.Filter.Since, m.Filter.Until
					}
					tm.baseline(b, func() {
						if _, err := ix.Search(iq); err != nil {
							b.Fatal(err)
						}
					})
					tm.measure(func() {
						if _, err := e.Search(ctx, sq); err != nil {
							b.Fatal(err)
						}
					})
					i++
				}
				tm.report(b)
				reportPeakRSS(b)
			})

			b.Run("index/"+name, func(b *testing.B) {
				ix, err := index.Open(indexDir(state))
				if err != nil {
					b.Fatal(err)
				}
				defer ix.Close()
				if ix.NeedsRebuild() {
					b.Fatal("the warm index needs a rebuild: " + ix.RebuildReason())
				}
				var tm timings
				var hits, ov float64
				resetPeakRSS()
				i := 0
				for b.Loop() {
					q := m.Queries[i%len(m.Queries)]
					var want []string
					tm.baseline(b, func() { want = base(q) })
					iq := index.Query{Text: q, Limit: 10}
					if filtered {
						iq.Speaker, iq.PathPrefix, iq.Since, iq.Until = m.Filter.Speaker, m.Filter.Path, since, until
					}
					var res []index.Hit
					tm.measure(func() {
						if res, err = ix.Search(iq); err != nil {
							b.Fatal(err)
						}
					})
					got := make([]string, len(res))
					for j, h := range res {
						got[j] = h.ID
					}
					hits += float64(len(res))
					ov += overlap(got, want)
					i++
				}
				tm.report(b)
				reportPeakRSS(b)
				b.ReportMetric(hits/float64(i), "hits/op")
				b.ReportMetric(ov/float64(i), "top10-overlap")
			})
		}
	})
}

// BenchmarkInstall installs a transaction that appends one cited block to
// a small topic file (validation of the whole would-be workspace, staging,
// journal, renames, history row, derived views, incremental index update).
// The baseline is one workspace.WriteFileAtomic (write, fsync, rename,
// directory fsync) of the same new file bytes.
func BenchmarkInstall(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, m := benchWarm(b, n)
		state := benchCopy(b, warm)
		ctx := context.Background()
		taken := map[string]bool{}
		for _, d := range loadBenchDocs(b, memDir(state)) {
			if d.Kind == index.KindTopic {
				taken[d.Ref] = true
			}
		}
		cur := map[string][]byte{}
		for _, p := range m.EditTopics {
			data, err := os.ReadFile(filepath.Join(memDir(state), filepath.FromSlash(p)))
			if err != nil {
				b.Fatal(err)
			}
			cur[p] = data
		}
		scratch := b.TempDir()
		rt := filepath.Join(scratch, "runtime")
		if err := os.Mkdir(rt, 0o755); err != nil {
			b.Fatal(err)
		}

		e, err := engine.Open(ctx, engine.Options{StateDir: state, Interactive: true})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		st, err := e.Status(ctx)
		if err != nil {
			b.Fatal(err)
		}
		rev := st.Revision

		var tm timings
		resetPeakRSS()
		i := 0
		for b.Loop() {
			b.StopTimer()
			p := m.EditTopics[i%len(m.EditTopics)]
			c := m.Cites[i%len(m.Cites)]
			id := topic.UniqueBlockID(fmt.Sprintf("bench-install-%d", i), func(s string) bool { return taken[s] })
			taken[id] = true
			rel, err := filepath.Rel(path.Dir(p), c.Archive)
			if err != nil {
				b.Fatal(err)
			}
			def := topic.Definition{Label: topic.NewFootnoteLabel("bench-install-" + id), Date: c.Date,
				Sources: []topic.Citation{{SourceID: c.SourceID, Path: filepath.ToSlash(rel)}}}
			content := fmt.Sprintf("Benchmark fact %d: the review of the billing service moved to Thursday.[^%s] ^%s\n\n%s\n",
				i, def.Label, id, topic.FormatDefinition(def))
			next := append(bytes.TrimRight(slices.Clone(cur[p]), "\n"), "\n\n"+content...)
			cur[p] = next
			b.StartTimer()

			tm.baseline(b, func() {
				if err := workspace.WriteFileAtomic(rt, filepath.Join(scratch, "topic.md"), next); err != nil {
					b.Fatal(err)
				}
			})
			tm.measure(func() {
				base := rev
				res, err := e.Update(ctx, result.Transaction{BaseRevision: &base,
					Edits: []result.Edit{{Op: "append", Path: p, Content: &content}}})
				if err != nil {
					b.Fatalf("install %d: %v", i, err)
				}
				if len(res.Changed) == 0 {
					b.Fatalf("install %d changed nothing", i)
				}
				rev = res.Revision
			})
			i++
		}
		tm.report(b)
		reportPeakRSS(b)
		b.StopTimer()
		// Each install must leave the index fresh (updated in the same step),
		// or the next search pays for a full rebuild.
		if st, err := e.Status(ctx); err != nil || !st.Index.Fresh {
			b.Errorf("after %d installs the index is not fresh (err %v)", i, err)
		}
	})
}

// BenchmarkIndexApply is the incremental index update of one file: every
// document of one topic file is upserted in one index.Apply (durable when
// it returns), one of them with changed text. The baseline is one
// fsynced atomic write of that file's bytes.
func BenchmarkIndexApply(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, m := benchWarm(b, n)
		state := benchCopy(b, warm)
		byPath := map[string][]index.Doc{}
		for _, d := range loadBenchDocs(b, memDir(state)) {
			if d.Kind == index.KindTopic {
				byPath[d.Path] = append(byPath[d.Path], d)
			}
		}
		files := slices.Clone(m.EditTopics)
		raw := map[string][]byte{}
		perFile := 0
		for _, p := range files {
			data, err := os.ReadFile(filepath.Join(memDir(state), filepath.FromSlash(p)))
			if err != nil {
				b.Fatal(err)
			}
			raw[p] = data
			perFile += len(byPath[p])
		}
		scratch := b.TempDir()
		ix, err := index.Open(indexDir(state))
		if err != nil {
			b.Fatal(err)
		}
		defer ix.Close()
		if ix.NeedsRebuild() {
			b.Fatal("the warm index needs a rebuild: " + ix.RebuildReason())
		}

		var tm timings
		resetPeakRSS()
		i := 0
		for b.Loop() {
			p := files[i%len(files)]
			docs := slices.Clone(byPath[p])
			if len(docs) > 0 {
				docs[i%len(docs)].Text += fmt.Sprintf(" edited %d", i)
			}
			tm.baseline(b, func() {
				if err := workspace.WriteFileAtomic(scratch, filepath.Join(scratch, "topic.md"), raw[p]); err != nil {
					b.Fatal(err)
				}
			})
			tm.measure(func() {
				if err := ix.Apply(docs, nil); err != nil {
					b.Fatal(err)
				}
			})
			i++
		}
		tm.report(b)
		reportPeakRSS(b)
		b.ReportMetric(float64(perFile)/float64(len(files)), "docs/op")
	})
}

// BenchmarkCore renders core.md (and the other derived views, which are
// unchanged and so only compared) with core.md deleted before each run, so
// every run writes it. The baseline reads topics/core.md, counts its
// o200k_base tokens and writes the bytes atomically: the least a budgeted
// render must do.
func BenchmarkCore(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		warm, _ := benchWarm(b, n)
		state := benchCopy(b, warm)
		ctx := context.Background()
		e, err := engine.Open(ctx, engine.Options{StateDir: state})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		// The first render writes every derived view (timeline days and
		// all); the benchmark measures the steady state after it.
		if _, err := e.Core(ctx); err != nil {
			b.Fatal(err)
		}
		tok := codec.NewO200kBase()
		scratch := b.TempDir()
		coreSrc := filepath.Join(memDir(state), "topics", "core.md")
		coreOut := filepath.Join(memDir(state), "core.md")

		var tm timings
		var rep result.CoreReport
		resetPeakRSS()
		for b.Loop() {
			tm.baseline(b, func() {
				data, err := os.ReadFile(coreSrc)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tok.Count(string(data)); err != nil {
					b.Fatal(err)
				}
				if err := workspace.WriteFileAtomic(scratch, filepath.Join(scratch, "core.md"), data); err != nil {
					b.Fatal(err)
				}
			})
			b.StopTimer()
			if err := os.Remove(coreOut); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			tm.measure(func() {
				if rep, err = e.Core(ctx); err != nil {
					b.Fatal(err)
				}
			})
		}
		tm.report(b)
		reportPeakRSS(b)
		b.ReportMetric(float64(rep.Tokens), "core-tokens")
		b.ReportMetric(float64(len(rep.Excluded)), "excluded-blocks")
	})
}
