package vectors

import (
	"math"
	"testing"

	"scriptorium/engine/index"
)

// TestFuse: reciprocal rank fusion sums 1/(k+rank) over the lists, keeps a
// hit's first fields, breaks ties by id, and explains both ranks.
func TestFuse(t *testing.T) {
	bm := []index.Hit{{ID: "a", Path: "bm"}, {ID: "b"}, {ID: "c"}}
	vec := []index.Hit{{ID: "c", Score: 0.9, Path: "vec"}, {ID: "a", Score: 0.5, Path: "vec"}, {ID: "d", Score: 0.1}}
	got := Fuse(10, true, bm, vec)
	want := map[string]float64{"a": 1.0/61 + 1.0/62, "c": 1.0/63 + 1.0/61, "b": 1.0 / 62, "d": 1.0 / 63}
	order := []string{"a", "c", "b", "d"}
	if len(got) != len(order) {
		t.Fatalf("%d hits, want %d", len(got), len(order))
	}
	for i, h := range got {
		if h.ID != order[i] || math.Abs(h.Score-want[h.ID]) > 1e-12 {
			t.Errorf("hit %d: %s %.6f, want %s %.6f", i, h.ID, h.Score, order[i], want[order[i]])
		}
	}
	if got[0].Path != "bm" {
		t.Errorf("a keeps its first list's fields: path %q", got[0].Path)
	}
	f := got[1].Explanation.Fusion
	if f == nil || f.BM25Rank != 3 || f.VectorRank != 1 || f.Similarity != 0.9 || f.K != rrfK {
		t.Errorf("c's fusion explanation: %+v", f)
	}
	if short := Fuse(2, false, bm, vec); len(short) != 2 || short[0].Explanation != nil {
		t.Errorf("limit 2 without explain: %+v", short)
	}
}

// TestDocs: a trusted speaker's name is embedded with what they said,
// empty texts are skipped, and the order is by id.
func TestDocs(t *testing.T) {
	docs := Docs(map[string]index.Doc{
		"2": {ID: "2", Kind: index.KindSource, Text: "hello", SpeakerTrusted: true, SpeakerDisplay: "Ana"},
		"1": {ID: "1", Kind: index.KindSource, Text: "hi", SpeakerDisplay: "Bob"},
		"3": {ID: "3", Text: "  "},
	})
	if len(docs) != 2 || docs[0].Hit.ID != "1" || docs[0].Text != "hi" || docs[1].Text != "Ana: hello" {
		t.Fatalf("%+v", docs)
	}
}

func TestNormalize(t *testing.T) {
	v := normalize([]float32{3, 4})
	if math.Abs(dot(v, v)-1) > 1e-6 || v[0] != 0.6 {
		t.Errorf("normalize(3,4) = %v", v)
	}
	if z := normalize([]float32{0, 0}); z[0] != 0 {
		t.Errorf("zero vector: %v", z)
	}
}
