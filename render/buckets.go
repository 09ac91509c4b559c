package render

import (
	"slices"
	"sort"
)

// buckets is a sorted set of keys cut into runs of at most maxBucket
// keys (a two-level B-tree), each run with its rendered bytes kept until
// one of its keys changes. relations.json lists every winner id's links
// and every shares_source pair in key order: rendering one run per
// change instead of re-appending every small fragment (and inserting
// into one sorted slice of every pair) keeps a render after a
// one-session install at about one copy of the file (issue 26).
type buckets[K any] struct {
	cmp  func(a, b K) int
	runs []*bucket[K] // non-empty, in order
}

type bucket[K any] struct {
	keys  []K
	out   []byte
	fresh bool // out is the render of keys
}

// maxBucket is a variable so that tests can split runs with few keys.
var maxBucket = 128

func newBuckets[K any](cmp func(a, b K) int) buckets[K] { return buckets[K]{cmp: cmp} }

// find returns the index of the run k belongs in: the last whose first
// key is not after k (0 when k sorts first).
func (bs *buckets[K]) find(k K) int {
	i := sort.Search(len(bs.runs), func(j int) bool { return bs.cmp(bs.runs[j].keys[0], k) > 0 })
	return max(i-1, 0)
}

// insert adds k (present already: nothing changes but its run is stale).
func (bs *buckets[K]) insert(k K) {
	if len(bs.runs) == 0 {
		bs.runs = []*bucket[K]{{keys: []K{k}}}
		return
	}
	i := bs.find(k)
	bk := bs.runs[i]
	bk.fresh = false
	j, ok := slices.BinarySearchFunc(bk.keys, k, bs.cmp)
	if ok {
		return
	}
	bk.keys = slices.Insert(bk.keys, j, k)
	if len(bk.keys) > maxBucket {
		half := len(bk.keys) / 2
		next := &bucket[K]{keys: slices.Clone(bk.keys[half:])}
		bk.keys = slices.Clip(bk.keys[:half])
		bs.runs = slices.Insert(bs.runs, i+1, next)
	}
}

// remove drops k; a key not there only makes its run stale.
func (bs *buckets[K]) remove(k K) {
	if len(bs.runs) == 0 {
		return
	}
	i := bs.find(k)
	bk := bs.runs[i]
	bk.fresh = false
	if j, ok := slices.BinarySearchFunc(bk.keys, k, bs.cmp); ok {
		bk.keys = slices.Delete(bk.keys, j, j+1)
	}
	if len(bk.keys) == 0 {
		bs.runs = slices.Delete(bs.runs, i, i+1)
	}
}

// touch marks the run of k to be rendered again.
func (bs *buckets[K]) touch(k K) {
	if len(bs.runs) > 0 {
		bs.runs[bs.find(k)].fresh = false
	}
}

// appendTo appends every bucket's render in order, rendering again the
// stale ones with render (which appends the elements of keys to out, each
// with a leading comma). The first element's comma is dropped when
// *first is set, which it then clears.
func (bs *buckets[K]) appendTo(b []byte, first *bool, render func(out []byte, keys []K) []byte) []byte {
	for _, bk := range bs.runs {
		if !bk.fresh {
			bk.out, bk.fresh = render(bk.out[:0:0], bk.keys), true
		}
		b = appendElems(b, bk.out, first)
	}
	return b
}

// rendered renders the stale runs as appendTo would and returns the
// length of every run's render together, so a caller can size its buffer.
func (bs *buckets[K]) rendered(render func(out []byte, keys []K) []byte) int {
	n := 0
	for _, bk := range bs.runs {
		if !bk.fresh {
			bk.out, bk.fresh = render(bk.out[:0:0], bk.keys), true
		}
		n += len(bk.out)
	}
	return n
}

// appendElems appends elems, each with a leading comma, dropping the
// comma of the array's first element.
func appendElems(b, elems []byte, first *bool) []byte {
	if len(elems) == 0 {
		return b
	}
	if *first {
		*first = false
		return append(b, elems[1:]...)
	}
	return append(b, elems...)
}
