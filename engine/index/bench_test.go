package index

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

const benchDocs = 10_000

// benchIndex builds a 10k-document index for a benchmark, outside the timer.
func benchIndex(b *testing.B) (*Index, []Doc) {
	b.Helper()
	docs := genDocs(benchDocs, 42)
	ix := mustOpen(b)
	if err := ix.Rebuild(docs); err != nil {
		b.Fatal(err)
	}
	return ix, docs
}

// BenchmarkRebuild10k measures a full build: open an empty index, feed 10k
// documents, swap it in.
func BenchmarkRebuild10k(b *testing.B) {
	docs := genDocs(benchDocs, 42)
	base := b.TempDir()
	i := 0
	for b.Loop() {
		ix, err := Open(filepath.Join(base, fmt.Sprint(i)))
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.Rebuild(docs); err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(benchDocs)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkApplyOne10k measures one installed transaction that changes one
// document of a 10k index (durable when Apply returns).
func BenchmarkApplyOne10k(b *testing.B) {
	ix, docs := benchIndex(b)
	i := 0
	for b.Loop() {
		d := docs[i%len(docs)]
		d.Visible = true
		d.Text += fmt.Sprintf(" edit%d", i)
		if err := ix.Apply([]Doc{d}, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func benchSearch(b *testing.B, mk func(text string) Query) {
	ix, _ := benchIndex(b)
	queries := genQueries(200, 43)
	i, hits := 0, 0
	for b.Loop() {
		res, err := ix.Search(mk(queries[i%len(queries)]))
		if err != nil {
			b.Fatal(err)
		}
		hits += len(res)
		i++
	}
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
}

// BenchmarkSearch10k is an unfiltered top-10 query.
func BenchmarkSearch10k(b *testing.B) {
	benchSearch(b, func(text string) Query { return Query{Text: text} })
}

// BenchmarkSearchFiltered10k adds speaker, path prefix and a whole-day date
// range.
func BenchmarkSearchFiltered10k(b *testing.B) {
	since := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
	benchSearch(b, func(text string) Query {
		return Query{Text: text, Speaker: "User 7", PathPrefix: "sources/prov2", Since: since, Until: until}
	})
}

// BenchmarkSearchExactDate10k uses a date range that is not day-aligned, so
// the exact time field is walked instead of the day field.
func BenchmarkSearchExactDate10k(b *testing.B) {
	since := time.Date(2024, 3, 1, 6, 30, 0, 0, time.UTC)
	until := time.Date(2025, 6, 1, 17, 45, 0, 0, time.UTC)
	benchSearch(b, func(text string) Query { return Query{Text: text, Since: since, Until: until} })
}

// BenchmarkSearchDateSort10k sorts by date instead of score.
func BenchmarkSearchDateSort10k(b *testing.B) {
	benchSearch(b, func(text string) Query { return Query{Text: text, Sort: SortDate} })
}
