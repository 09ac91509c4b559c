package index

// Our layer against bare bleve on the same data (issue 14's targets:
// search ≤ 1.5× the bare query on the same open index, a full build ≤
// 1.1× bleve's raw batch build). The two run interleaved, iteration by
// iteration, and the result is the ratio of the medians (x-bleve), as in
// engine/bench_test.go: absolute times on a shared machine are noise.

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
)

// pairTimings are per-iteration durations of our operation and of bare
// bleve's, wall clock and process CPU.
type pairTimings struct{ ours, bare, oursCPU, bareCPU []time.Duration }

// bareRun runs f with the benchmark timer stopped and records its time.
func (tm *pairTimings) bareRun(b *testing.B, f func()) {
	b.StopTimer()
	c0, t0 := processCPU(), time.Now()
	f()
	tm.bare = append(tm.bare, time.Since(t0))
	tm.bareCPU = append(tm.bareCPU, processCPU()-c0)
	b.StartTimer()
}

// measure runs f (timer running) and records its time.
func (tm *pairTimings) measure(f func()) {
	c0, t0 := processCPU(), time.Now()
	f()
	tm.ours = append(tm.ours, time.Since(t0))
	tm.oursCPU = append(tm.oursCPU, processCPU()-c0)
}

// report emits both medians and p95s, the ratio of the medians (x-bleve),
// the median of the iterations' own ratios (x-pairs: each pair ran back
// to back, so it shares the machine's load) and, where the process CPU
// clock is fine enough to say (builds), the ratio of the median CPU times.
func (tm *pairTimings) report(b *testing.B, withCPU bool) {
	if len(tm.ours) == 0 || len(tm.bare) == 0 {
		return
	}
	o50, b50 := median(tm.ours, 50), median(tm.bare, 50)
	b.ReportMetric(msOf(o50), "p50-ms")
	b.ReportMetric(msOf(median(tm.ours, 95)), "p95-ms")
	b.ReportMetric(msOf(b50), "bleve-p50-ms")
	b.ReportMetric(msOf(median(tm.bare, 95)), "bleve-p95-ms")
	if b50 > 0 {
		b.ReportMetric(float64(o50)/float64(b50), "x-bleve")
	}
	if len(tm.ours) == len(tm.bare) {
		var rs []float64
		for i := range tm.ours {
			if tm.bare[i] > 0 {
				rs = append(rs, float64(tm.ours[i])/float64(tm.bare[i]))
			}
		}
		if len(rs) > 0 {
			slices.Sort(rs)
			b.ReportMetric(rs[len(rs)/2], "x-pairs")
		}
	}
	if c := median(tm.bareCPU, 50); withCPU && c > 0 {
		b.ReportMetric(float64(median(tm.oursCPU, 50))/float64(c), "x-bleve-cpu")
	}
}

// median is the nearest-rank p-th percentile (the median at 50).
func median(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(float64(p)/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// genEngineDocs is genDocs with what the engine also indexes: who said a
// trusted source, and the turn before it in its thread as context, so the
// query builder does its speaker lookups and the ctx field is scored.
func genEngineDocs(n int, seed uint64) []Doc {
	docs := genDocs(n, seed)
	prev := map[string]string{} // path → text of the thread's last record
	for i := range docs {
		d := &docs[i]
		if d.Kind != KindSource {
			continue
		}
		if d.SpeakerTrusted {
			d.Who = d.SpeakerID + " " + d.SpeakerDisplay
		}
		d.Context = prev[d.Path]
		prev[d.Path] = d.Text
	}
	return docs
}

// BenchmarkSearchVsBleve10k times index.Search against bleve.Index.Search
// of the request our query builder makes for the same query, on the same
// open index, with bleve's own order (score, then its internal hit order).
// The bare request is built outside its timer; ours builds it inside.
func BenchmarkSearchVsBleve10k(b *testing.B) {
	docs := genEngineDocs(benchDocs, 42)
	ix := mustOpen(b)
	if err := ix.Rebuild(docs); err != nil {
		b.Fatal(err)
	}
	queries := genQueries(200, 43)
	since := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
	for _, c := range []struct {
		name string
		mk   func(text string) Query
	}{
		{"plain", func(text string) Query { return Query{Text: text} }},
		{"filtered", func(text string) Query {
			return Query{Text: text, Speaker: "User 7", PathPrefix: "sources/prov2", Since: since, Until: until}
		}},
		{"date-sort", func(text string) Query { return Query{Text: text, Sort: SortDate} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var tm pairTimings
			i, hits := 0, 0
			fallbacks := ix.tieFallbacks.Load()
			for b.Loop() {
				q := c.mk(queries[i%len(queries)])
				req := bareRequest(b, ix, q)
				if req != nil {
					tm.bareRun(b, func() {
						if _, err := ix.idx.Search(req); err != nil {
							b.Fatal(err)
						}
					})
				}
				tm.measure(func() {
					res, err := ix.Search(q)
					if err != nil {
						b.Fatal(err)
					}
					hits += len(res)
				})
				i++
			}
			tm.report(b, false)
			b.ReportMetric(float64(hits)/float64(i), "hits/op")
			b.ReportMetric(float64(ix.tieFallbacks.Load()-fallbacks)/float64(i), "tie-fallbacks/op")
		})
	}
}

// bareRequest is the request Search would send for q, in bleve's default
// order (score) or, for SortDate, by time then score; nil when q has no
// terms.
func bareRequest(b *testing.B, ix *Index, q Query) *bleve.SearchRequest {
	b.Helper()
	filter, err := filterFor(q)
	if err != nil {
		b.Fatal(err)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	req, err := ix.request(q, filter, limit)
	if err != nil {
		b.Fatal(err)
	}
	if req != nil && q.Sort == SortDate {
		req.SortByCustom(search.SortOrder{
			&search.SortField{Field: fieldTime, Desc: true, Type: search.SortFieldAsNumber, Missing: search.SortFieldMissingLast},
			&search.SortScore{Desc: true},
		})
	}
	return req
}

// BenchmarkRebuildVsBleve10k times our full build (Open, Rebuild, Close
// into a new directory) against bleve's raw batch build of the same
// documents with the same mapping: bleve.NewUsing, the same field maps
// (made outside the timer) in batches of the same size, Close.
func BenchmarkRebuildVsBleve10k(b *testing.B) {
	docs := genEngineDocs(benchDocs, 42)
	var maps []map[string]interface{}
	var ids []string
	for i := range docs {
		if !docs[i].Visible {
			continue
		}
		m, _, err := bareFields(&docs[i])
		if err != nil {
			b.Fatal(err)
		}
		maps, ids = append(maps, m), append(ids, docs[i].ID)
	}
	base := b.TempDir()
	var tm pairTimings
	i := 0
	for b.Loop() {
		tm.bareRun(b, func() {
			m, err := newMapping()
			if err != nil {
				b.Fatal(err)
			}
			idx, err := bleve.NewUsing(filepath.Join(base, fmt.Sprint("bleve", i)), m, "scorch", bleve.Config.DefaultKVStore, scorchConfig())
			if err != nil {
				b.Fatal(err)
			}
			batch := idx.NewBatch()
			for j, f := range maps {
				if err := batch.Index(ids[j], f); err != nil {
					b.Fatal(err)
				}
				if batch.Size() >= rebuildBatchSize || j == len(maps)-1 {
					if err := idx.Batch(batch); err != nil {
						b.Fatal(err)
					}
					batch.Reset()
				}
			}
			if err := idx.Close(); err != nil {
				b.Fatal(err)
			}
		})
		tm.measure(func() {
			ix, err := Open(filepath.Join(base, fmt.Sprint("ours", i)))
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
		i++
	}
	tm.report(b, true)
	b.ReportMetric(float64(len(maps)), "docs")
}

// bareFields is the field map bleve's own mapping indexes for d.
func bareFields(d *Doc) (map[string]interface{}, fieldCounts, error) {
	var toks [len(scoredFields)]analysis.TokenStream
	return fieldMap(d, &toks)
}
