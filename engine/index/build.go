package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
)

// A whole build (the first one, and every Rebuild) goes through scorch's
// offline Builder rather than an open index's batches: each batch becomes
// a segment file at once and the files are merged at the end, so the build
// holds a batch or two and one merge whatever the corpus size. An open
// index keeps the batches it was given as in-memory segments until its
// persister and merger catch up, which at 1M records was most of a 6 GiB
// first build (issue 26).

// builderMergeMax is how many segment files the Builder merges at a time
// (bleve's default): a build of N batches is merged in log10(N) passes.
const builderMergeMax = 10

// buildMemoryLimit is the floor of the Go runtime's soft memory limit
// while a build runs (issue 26's 1 GiB for a whole process, less room for
// what is not heap). A build allocates about 90 KB per document for the
// few KB it keeps, so under the default GOGC=100 the heap swings to twice
// what is live (the snapshot the documents come from, and the batches):
// 3.8 GB of RSS for a first build at 1M records. Under the limit the
// collector runs as the heap nears it instead. A limit below what is live
// costs far more than it saves (about 3x the CPU, measured), so the limit
// follows the live heap: never under half as much again (buildLimit).
const buildMemoryLimit = 896 << 20

// buildMemoryCap is where the limit stops following the live heap while
// that still leaves a fifth of it as room: a whole process under 1 GiB
// (issue 26) with the binary's own pages, for a live heap up to about
// 770 MB, the lean snapshot of 1M records and a batch or two.
const buildMemoryCap = 928 << 20

// buildLimit is the soft memory limit of a build whose live heap is live
// bytes: buildMemoryLimit, or live and half as much again when that is
// more (about what GOGC=50 would allow), but no more than buildMemoryCap
// or live and a fifth, whichever is more. Less room than a fifth would
// cost the collector more than it saves (a limit under the live heap took
// 3x the CPU, measured).
func buildLimit(live uint64) int64 {
	l := int64(min(live, math.MaxInt64/2))
	return max(buildMemoryLimit, min(l+l/2, max(buildMemoryCap, l+l/5)))
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// buildInto indexes the visible documents of each into a new index at path
// (which must not exist). On error path may hold a partial build: the
// caller removes it.
func buildInto(path string, each func(yield func(*Doc) error) error) (*corpusStats, error) {
	// A lower limit (GOMEMLIMIT, the embedding program's) is kept; the
	// limit is set again after every batch, as the live heap moves.
	limit := func() {}
	if old := debug.SetMemoryLimit(-1); old > buildMemoryLimit {
		limit = func() { debug.SetMemoryLimit(min(old, buildLimit(liveHeap()))) }
		limit()
		defer debug.SetMemoryLimit(old)
	}
	m, err := newMapping()
	if err != nil {
		return nil, err
	}
	mb, err := util.MarshalJSON(m)
	if err != nil {
		return nil, err
	}
	// The Builder writes these into the index's internal store at Close,
	// as bleve.NewBuilder passes its mapping; the stats are added once
	// every document is in (openBleve checks them against the count).
	internal := map[string][]byte{string(util.MappingInternalKey): mb}
	var b *scorch.Builder
	st, err := fill(m, each, func(docs []*document.Document) error {
		if b == nil {
			if b, err = newBuilder(path, internal); err != nil {
				return err
			}
		}
		for _, doc := range docs {
			if err := b.Index(doc); err != nil {
				return fmt.Errorf("%s: %w", doc.ID(), err)
			}
		}
		limit()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b == nil { // no documents: the Builder needs at least one segment
		idx, err := createBleve(path)
		if err != nil {
			return nil, err
		}
		return st, idx.Close()
	}
	sb, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	internal[statsKey] = sb
	stop := releaseWhile(path, releaseEvery)
	err = b.Close() // the merges: every segment file is mapped and read once
	stop()
	if err != nil {
		return nil, err
	}
	return st, nil
}

// releaseEvery is how often the merges' mapped input is released: what a
// merge reads in that time is what its mappings add to the RSS.
const releaseEvery = 50 * time.Millisecond

// releaseWhile releases the mapped files under dir every period
// (releaseMapped) until stop is called.
func releaseWhile(dir string, period time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				releaseMapped(dir)
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// newBuilder lays out an index directory at path as bleve.NewUsing does
// (its meta file, private) and starts scorch's Builder on its store, its
// segment files staged inside path.
func newBuilder(path string, internal map[string][]byte) (*scorch.Builder, error) {
	if err := os.Mkdir(path, 0o700); err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	meta, err := json.Marshal(indexMeta())
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(path, "index_meta.json"), meta, 0o600); err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	b, err := scorch.NewBuilder(map[string]interface{}{
		"path":            filepath.Join(path, "store"),
		"buildPathPrefix": path,
		"batchSize":       rebuildBatchSize,
		"mergeMax":        builderMergeMax,
		"internal":        internal,
	})
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	return b, nil
}

// indexMeta is what bleve writes to index_meta.json for newBleve's index.
func indexMeta() any {
	return struct {
		Storage   string         `json:"storage"`
		IndexType string         `json:"index_type"`
		Config    map[string]any `json:"config,omitempty"`
	}{Storage: bleve.Config.DefaultKVStore, IndexType: scorch.Name, Config: scorchConfig()}
}

// encodedBatch is one batch of encoded documents, or the error that
// stopped encoding.
type encodedBatch struct {
	docs []*document.Document
	n    fieldCounts
	err  error
}

// errStopped ends a producer whose consumer has gone.
var errStopped = errors.New("rebuild stopped")

// batchWritten, when set (tests), is told after each batch was written
// how many documents have been written in all.
var batchWritten func(written int64)

// fill hands the visible documents of each to write in batches of
// rebuildBatchSize, encoding (analysing, dating: on every core) the next
// batch while one is written, and returns their corpus totals. The
// producer waits for the writer: at most one encoded batch waits beside
// the one being written and the one being gathered.
func fill(m mapping.IndexMapping, each func(yield func(*Doc) error) error, write func([]*document.Document) error) (*corpusStats, error) {
	stop := make(chan struct{})
	defer close(stop)
	next := make(chan encodedBatch, 1)
	go func() {
		defer close(next)
		sent := false // an error batch: the consumer stops at the first
		send := func(eb encodedBatch) error {
			select {
			case next <- eb:
				sent = eb.err != nil
				return eb.err
			case <-stop:
				return errStopped
			}
		}
		batch := make([]*Doc, 0, rebuildBatchSize)
		seen := 0
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			eb := encodeAll(m, batch)
			// The encoded documents hold what bleve needs: the Docs may
			// be reused by the stream.
			clear(batch)
			batch = batch[:0]
			return send(eb)
		}
		err := each(func(d *Doc) error {
			i := seen
			seen++
			if d.ID == "" {
				return fmt.Errorf("document %d has no id", i)
			}
			if !d.Visible {
				return nil
			}
			c := *d
			batch = append(batch, &c)
			if len(batch) == rebuildBatchSize {
				return flush()
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil && !sent && !errors.Is(err, errStopped) {
			_ = send(encodedBatch{err: err})
		}
	}()
	st := corpusStats{}
	for eb := range next {
		if eb.err != nil {
			return nil, eb.err
		}
		if err := write(eb.docs); err != nil {
			return nil, err
		}
		st.Docs += int64(len(eb.docs))
		st.Tokens += eb.n.text
		st.WhoTokens += eb.n.who
		st.CtxTokens += eb.n.ctx
		st.DateTerms += eb.n.date
		if batchWritten != nil {
			batchWritten(st.Docs)
		}
	}
	return &st, nil
}

// encodeAll encodes docs on every core, keeping their order, and sums
// their counts.
func encodeAll(m mapping.IndexMapping, docs []*Doc) encodedBatch {
	out := make([]*document.Document, len(docs))
	counts := make([]fieldCounts, len(docs))
	errs := make([]error, len(docs))
	var nextDoc atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Go(func() {
			for i := int(nextDoc.Add(1) - 1); i < len(docs); i = int(nextDoc.Add(1) - 1) {
				out[i], counts[i], errs[i] = encode(m, docs[i])
			}
		})
	}
	wg.Wait()
	eb := encodedBatch{docs: out}
	for i, err := range errs {
		if err != nil {
			return encodedBatch{err: fmt.Errorf("%s: %w", docs[i].ID, err)}
		}
		eb.n.text += counts[i].text
		eb.n.who += counts[i].who
		eb.n.ctx += counts[i].ctx
		eb.n.date += counts[i].date
	}
	return eb
}
