package index

import (
	"os"
	"testing"
)

// BenchmarkPrunedTop100k compares bleve's top-k and the pruning one on a
// real index (SCRIPTORIUM_BENCH_INDEX: a workspace's
// memory/.scriptorium/index, opened read-only), per prompt, at the
// recall's limit; it checks they agree first.
//
//	SCRIPTORIUM_BENCH_INDEX=/tmp/w100k/state/memory/.scriptorium/index \
//	  go test ./engine/index -run '^$' -bench PrunedTop100k -count 6
func BenchmarkPrunedTop100k(b *testing.B) {
	dir := os.Getenv("SCRIPTORIUM_BENCH_INDEX")
	if dir == "" {
		b.Skip("SCRIPTORIUM_BENCH_INDEX not set")
	}
	ix, err := OpenWith(dir, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	for _, p := range []struct{ name, text string }{
		{"zh", "中文课 明天"}, {"en-budget", "budget auth service"}, {"en-kafka", "kafka logs"},
	} {
		q := Query{Text: p.text, Limit: 105}
		ix.noPruning = true
		want, err := ix.Search(q)
		if err != nil {
			b.Fatal(err)
		}
		ix.noPruning = false
		got, err := ix.Search(q)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != len(want) {
			b.Fatalf("%s: %d hits, bleve %d", p.name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				b.Fatalf("%s hit %d: %+v, bleve %+v", p.name, i, got[i], want[i])
			}
		}
		for _, mode := range []struct {
			name string
			off  bool
		}{{"bleve", true}, {"pruned", false}} {
			b.Run(p.name+"/"+mode.name, func(b *testing.B) {
				ix.noPruning = mode.off
				for range b.N {
					if _, err := ix.Search(q); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
