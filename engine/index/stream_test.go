package index

import (
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
)

// A streamed rebuild pulls its documents a batch at a time as bleve takes
// them: never more than three batches ahead of what bleve has written
// (one gathered, one encoded and waiting, one being written).
func TestRebuildFrom_BoundedBatches(t *testing.T) {
	docs := genDocs(5*rebuildBatchSize+37, 7)
	var written, worst int64
	batchWritten = func(n int64) { atomic.StoreInt64(&written, n) }
	t.Cleanup(func() { batchWritten = nil })
	ix := mustOpen(t)
	visible := int64(0)
	err := ix.RebuildFrom(func(yield func(*Doc) error) error {
		for i := range docs {
			if docs[i].Visible {
				visible++
			}
			// written is set by the consumer: read it only as a bound.
			if ahead := visible - loadWritten(&written); ahead > worst {
				worst = ahead
			}
			if err := yield(&docs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if worst > 3*rebuildBatchSize {
		t.Errorf("the stream ran %d documents ahead of bleve; want at most %d", worst, 3*rebuildBatchSize)
	}
	if n, err := ix.Count(); err != nil || int64(n) != visible {
		t.Errorf("Count = %d, %v; want %d", n, err, visible)
	}
}

// A streamed rebuild makes the index Rebuild makes from the same
// documents, whatever their order: the same hits with the same scores.
func TestRebuildFrom_SameAsRebuild(t *testing.T) {
	docs := genDocs(3000, 11)
	whole := mustOpen(t)
	if err := whole.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	streamed := mustOpen(t)
	err := streamed.RebuildFrom(func(yield func(*Doc) error) error {
		for i := len(docs) - 1; i >= 0; i-- { // another order
			d := docs[i]
			if err := yield(&d); err != nil {
				return err
			}
			d.Text = "overwritten after yield" // the stream may reuse its Doc
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range genQueries(40, 3) {
		a, err := whole.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		b, err := streamed.Search(Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("query %q: streamed rebuild answers\n%v\nRebuild answers\n%v", q, b, a)
		}
	}
}

// A stream that fails leaves the old index as it was.
func TestRebuildFrom_ErrorKeepsOld(t *testing.T) {
	ix := mustOpen(t)
	if err := ix.Rebuild(genDocs(100, 1)); err != nil {
		t.Fatal(err)
	}
	before, _ := ix.Count()
	boom := errors.New("boom")
	err := ix.RebuildFrom(func(yield func(*Doc) error) error {
		for _, d := range genDocs(2500, 2) {
			if err := yield(&d); err != nil {
				return err
			}
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("RebuildFrom = %v; want boom", err)
	}
	if n, err := ix.Count(); err != nil || n != before || ix.NeedsRebuild() {
		t.Errorf("after a failed stream: Count %d, %v, NeedsRebuild %v; want %d, nil, false", n, err, ix.NeedsRebuild(), before)
	}
}

func loadWritten(p *int64) int64 { return atomic.LoadInt64(p) }
