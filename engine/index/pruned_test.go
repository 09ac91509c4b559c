package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// prunedDocs are generated documents for the pruning top-k's identity
// test: English words drawn Zipf-like (common words in most documents,
// rare ones in a few, repeats for term frequency), CJK runs over a small
// alphabet (its bigrams), speakers whose names are also words (who is
// then a field some terms have postings in and others not), context in
// some documents only, and exact duplicates (ties).
func prunedDocs(r *rand.Rand, n int) []Doc {
	words := strings.Fields("apple pear plum budget auth service kafka logs deploy alice bob carol meeting tomorrow " +
		"lesson chinese rust index query snapshot merge segment quorum raft leader vote term heap")
	han := []rune("中文课明天下午开会日本語の会議は何時ですか")
	zipf := rand.NewZipf(r, 1.3, 2, uint64(len(words)-1))
	speakers := []string{"alice", "bob", "carol", "dave"}
	var docs []Doc
	for i := range n {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(words[zipf.Uint64()] + " ")
		}
		if r.IntN(3) == 0 {
			for range 1 + r.IntN(6) {
				b.WriteRune(han[r.IntN(len(han))])
			}
			b.WriteString(" ")
		}
		id := fmt.Sprintf("source:s/%04x", r.Uint32()&0xffff) + fmt.Sprint(i)
		d := Doc{ID: id, Kind: KindSource, Path: "sources/p/t.md", Ref: id, Anchor: id, Visible: true,
			Text: b.String(), Time: time.Date(2025, 1, 1+i%28, 0, 0, 0, 0, time.UTC)}
		if r.IntN(4) > 0 {
			sp := speakers[r.IntN(len(speakers))]
			d.SpeakerID, d.SpeakerDisplay, d.Who = sp, strings.ToUpper(sp[:1])+sp[1:], sp
		}
		if r.IntN(2) == 0 {
			d.Context = words[zipf.Uint64()] + " " + words[r.IntN(len(words))] + " " + string(han[r.IntN(len(han))]) + string(han[r.IntN(len(han))])
		}
		if i%17 == 0 && len(docs) > 0 { // a duplicate of an earlier text: equal scores
			prev := docs[r.IntN(len(docs))]
			d.Text, d.Context, d.Who, d.SpeakerID, d.SpeakerDisplay = prev.Text, prev.Context, prev.Who, prev.SpeakerID, prev.SpeakerDisplay
		}
		docs = append(docs, d)
	}
	r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	return docs
}

// prunedQueries are random questions: common and rare words, words in no
// document, speakers, CJK strings, from one term to more than bleve's
// slice searcher takes (those fall back).
func prunedQueries(r *rand.Rand, n int) []string {
	pool := strings.Fields("apple pear plum budget auth service kafka logs deploy alice bob carol dave meeting tomorrow " +
		"lesson rust index query heap zebra xylophone 中文课 明天 明天下午开会 会議は何時ですか 日本語 中 课 下午 what did say " +
		"2025-01-03 2025-01-17")
	qs := []string{"中文课 明天", "budget auth service", "kafka logs", "明天下午开会", "zebra", "what did alice say about kafka",
		"kafka on 2025-01-03", "what did bob say on 2025-01-17 about 中文课"}
	for len(qs) < n {
		var parts []string
		for range 1 + r.IntN(7) {
			parts = append(parts, pool[r.IntN(len(pool))])
		}
		qs = append(qs, strings.Join(parts, " "))
	}
	return qs
}

// TestSearch_PrunedTopIdentical: the pruning top-k returns exactly bleve's
// answer (the same hits, bit-identical scores, equal scores in id order,
// the same stored fields) for many generated questions at every limit,
// on an index built at once and on one fed in small batches (several
// segments); and it does prune, and does answer most of them.
func TestSearch_PrunedTopIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 6))
	docs := prunedDocs(r, 1500)
	built := mustOpen(t)
	if err := built.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	applied := mustOpen(t)
	for i := 0; i < len(docs); i += 200 {
		if err := applied.Apply(docs[i:min(i+200, len(docs))], nil); err != nil {
			t.Fatal(err)
		}
	}
	ties := mustOpen(t) // long ties at every cut-off
	tdocs, _, _ := tieDocs()
	if err := ties.Rebuild(tdocs); err != nil {
		t.Fatal(err)
	}
	queries := prunedQueries(r, 60)
	limits := []int{1, 2, 3, 4, 5, 7, 10, 13, 20, 50, 100, 105, 400, 2000}
	searches := 0
	for _, ix := range []*Index{built, applied, ties} {
		for _, q := range append(queries, "apple", "apple pear", "pear quince zebra") {
			ls := limits
			if len(q)%5 == 0 || strings.HasPrefix(q, "apple") { // every limit, for some
				ls = nil
				for l := 1; l <= 60; l++ {
					ls = append(ls, l)
				}
			}
			for _, limit := range ls {
				ix.noPruning = true
				want, err := ix.Search(Query{Text: q, Limit: limit})
				if err != nil {
					t.Fatal(err)
				}
				ix.noPruning = false
				got, err := ix.Search(Query{Text: q, Limit: limit})
				if err != nil {
					t.Fatal(err)
				}
				searches++
				if len(got) != len(want) {
					t.Fatalf("%q limit %d: %d hits, bleve %d", q, limit, len(got), len(want))
				}
				for i := range got {
					if math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) || !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("%q limit %d, hit %d:\ngot  %+v\nwant %+v", q, limit, i, got[i], want[i])
					}
				}
			}
		}
	}
	answered := built.prunedAnswers.Load() + applied.prunedAnswers.Load()
	if answered < int64(searches)/4 || answered == int64(searches) {
		t.Fatalf("the pruning top-k answered %d of %d searches: both it and the fallback must be tested", answered, searches)
	}
	if built.pruned.Load() == 0 || applied.pruned.Load() == 0 {
		t.Fatalf("nothing pruned (%d, %d): the test does not exercise the bounds", built.pruned.Load(), applied.pruned.Load())
	}
	t.Logf("%d searches, %d answered by pruning, %d+%d documents pruned", searches, answered, built.pruned.Load(), applied.pruned.Load())
}
