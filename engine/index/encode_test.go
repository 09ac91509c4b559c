package index

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// fieldDigest is what bleve indexes and stores of one field once analysed.
type fieldDigest struct {
	name, typ, value string
	options          bleveindex.FieldIndexingOptions
	length           int
	plainBytes       uint64
	freqs            map[string]int
}

// digest analyses every indexed field of doc as scorch does and returns
// what each one holds, in a stable order.
func digest(doc *document.Document) []fieldDigest {
	var out []fieldDigest
	doc.VisitFields(func(f bleveindex.Field) {
		if f.Options().IsIndexed() {
			f.Analyze()
		}
		d := fieldDigest{name: f.Name(), typ: string(f.EncodedFieldType()), value: string(f.Value()),
			options: f.Options(), length: f.AnalyzedLength(), plainBytes: f.NumPlainTextBytes(), freqs: map[string]int{}}
		for term, tf := range f.AnalyzedTokenFrequencies() {
			d.freqs[term] = tf.Frequency()
		}
		out = append(out, d)
	})
	doc.VisitComposite(func(f bleveindex.CompositeField) {
		out = append(out, fieldDigest{name: f.Name(), typ: "composite", options: f.Options()})
	})
	slices.SortFunc(out, func(a, b fieldDigest) int {
		return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.value, b.value))
	})
	return out
}

// TestEncode_SameDocumentAsMapping: the document encode builds holds
// exactly what bleve's mapping makes of the same field map (names, types,
// options, values, analysed lengths and term frequencies), so the index is
// the same and FormatVersion stands; and its scored text fields are not
// analysed again.
func TestEncode_SameDocumentAsMapping(t *testing.T) {
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	docs := genEngineDocs(400, 5)
	docs = append(docs, Doc{ID: "topic:x", Kind: KindTopic, Path: "topics/x.md", Ref: "x", Anchor: "^x",
		Text: "yesterday we met Ann on 2025-03-04 ｆｕｌｌ：width 你好世界", Who: "ann Ann", Context: "the day before"})
	withWho := 0
	for i := range docs {
		d := &docs[i]
		got, n, err := encode(m, d)
		if err != nil {
			t.Fatal(err)
		}
		var toks [len(scoredFields)]analysis.TokenStream
		fields, n2, err := fieldMap(d, &toks)
		if err != nil {
			t.Fatal(err)
		}
		if n != n2 {
			t.Fatalf("%s: counts %+v, want %+v", d.ID, n, n2)
		}
		want := document.NewDocument(d.ID)
		if err := m.MapDocument(want, fields); err != nil {
			t.Fatal(err)
		}
		for _, f := range got.Fields {
			if tf, ok := f.(*document.TextField); ok && slices.Contains(scoredFields[:], tf.Name()) {
				if _, pre := tf.Analyzer().(tokensOf); !pre {
					t.Fatalf("%s: field %s would be analysed again by bleve", d.ID, tf.Name())
				}
				if tf.Name() == fieldWho {
					withWho++
				}
			}
		}
		dg, dw := digest(got), digest(want)
		if len(dg) != len(dw) {
			t.Fatalf("%s: %d fields, mapping makes %d", d.ID, len(dg), len(dw))
		}
		for j := range dg {
			g, w := dg[j], dw[j]
			if g.name != w.name || g.typ != w.typ || g.value != w.value || g.options != w.options ||
				g.length != w.length || g.plainBytes != w.plainBytes || !maps.Equal(g.freqs, w.freqs) {
				t.Fatalf("%s: field %d\ngot  %+v\nwant %+v", d.ID, j, g, w)
			}
		}
		if k := slices.IndexFunc(dg, func(f fieldDigest) bool { return f.name == fieldText }); int64(dg[k].length) != n.text {
			t.Fatalf("%s: text count %d, bleve's field length %d", d.ID, n.text, dg[k].length)
		}
	}
	if withWho == 0 {
		t.Fatal("no document had a who field: the test proves little")
	}
}

// TestRebuild_Empty: a rebuild with nothing to index still leaves corpus
// totals (zero), so the index reopens as fresh.
func TestRebuild_Empty(t *testing.T) {
	dir := t.TempDir()
	ix := mustOpenDir(t, dir)
	if err := ix.Rebuild([]Doc{{ID: "topic:x", Kind: KindTopic, Text: "hidden"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := ix.Count(); err != nil || n != 0 {
		t.Fatalf("count %d, %v", n, err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	again := mustOpenDir(t, dir)
	if again.NeedsRebuild() {
		t.Fatalf("reopened empty index needs a rebuild: %s", again.RebuildReason())
	}
}
