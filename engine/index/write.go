package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/blevesearch/bleve/v2"
)

// The write side of the index: batched upserts and deletes with their
// corpus statistics, and the whole rebuild beside the live index.

// Apply deletes the given ids and upserts the given docs in one bleve batch,
// durable when it returns. An id both deleted and upserted ends up upserted;
// of repeated upserts of one id the last wins; an invisible upsert deletes.
func (ix *Index) Apply(upserts []Doc, deletes []string) error {
	return ix.ApplyWithMeta(upserts, deletes, nil)
}

// ApplyWithMeta is Apply that also sets meta keys (see SetMeta) in the same
// atomic batch, so a fingerprint can never claim changes the index lacks.
// An empty value deletes a key.
func (ix *Index) ApplyWithMeta(upserts []Doc, deletes []string, meta map[string]string) error {
	if ix.readOnly {
		return ErrReadOnly
	}
	ix.wmu.Lock()
	defer ix.wmu.Unlock()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.idx == nil {
		return ErrClosed
	}
	return ix.guard("apply", func() error { return ix.apply(upserts, deletes, meta) })
}

// apply is ApplyWithMeta under its locks.
func (ix *Index) apply(upserts []Doc, deletes []string, meta map[string]string) error {

	final := make(map[string]*Doc, len(upserts)) // nil = delete
	order := make([]string, 0, len(upserts)+len(deletes))
	for _, id := range deletes {
		if _, seen := final[id]; !seen {
			order = append(order, id)
		}
		final[id] = nil
	}
	for i := range upserts {
		d := &upserts[i]
		if d.ID == "" {
			return fmt.Errorf("apply: document %d has no id", i)
		}
		if _, seen := final[d.ID]; !seen {
			order = append(order, d.ID)
		}
		if d.Visible {
			final[d.ID] = d
		} else {
			final[d.ID] = nil
		}
	}

	old, err := tokenCounts(ix.idx, order)
	if err != nil {
		// The batch has not been written yet; a failing read of the live
		// index is damage, not a problem of the documents.
		return ix.markBroken("apply", err)
	}
	st := *ix.stats.Load()
	m := ix.idx.Mapping()
	b := ix.idx.NewBatch()
	for _, id := range order {
		if n, ok := old[id]; ok {
			st.add(-1, n)
		}
		d := final[id]
		if d == nil {
			if _, ok := old[id]; ok {
				b.Delete(id)
			}
			continue
		}
		doc, ntok, err := encode(m, d)
		if err != nil {
			return fmt.Errorf("apply %s: %w", id, err)
		}
		if err := b.IndexAdvanced(doc); err != nil {
			return fmt.Errorf("apply %s: %w", id, err)
		}
		st.add(1, ntok)
	}
	for k, v := range meta {
		if v == "" {
			b.DeleteInternal([]byte(metaPrefix + k))
		} else {
			b.SetInternal([]byte(metaPrefix+k), []byte(v))
		}
	}
	if b.Size() == 0 {
		return nil
	}
	sb, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	b.SetInternal([]byte(statsKey), sb)
	// Odd while the batch goes in: a search beside it loads its hits'
	// fields after its own snapshot (ties.go) and asks again if it moved.
	ix.batches.Add(1)
	err = ix.idx.Batch(b)
	ix.batches.Add(1)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	ix.stats.Store(&st)
	return nil
}

// tokenCounts returns the stored token counts of those ids that are in the
// index, in one search.
func tokenCounts(idx bleve.Index, ids []string) (map[string]fieldCounts, error) {
	out := make(map[string]fieldCounts, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{fieldTokens, fieldWhoTokens, fieldCtxTokens, fieldDateTokens}
	req.Score = "none"
	res, err := idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("look up old documents: %w", err)
	}
	for _, h := range res.Hits {
		f, ok := h.Fields[fieldTokens].(float64)
		if !ok {
			return nil, fmt.Errorf("document %s has no token count", h.ID)
		}
		// Absent when zero: bleve stores no field for an empty value.
		w, _ := h.Fields[fieldWhoTokens].(float64)
		c, _ := h.Fields[fieldCtxTokens].(float64)
		dt, _ := h.Fields[fieldDateTokens].(float64)
		out[h.ID] = fieldCounts{text: int64(f), who: int64(w), ctx: int64(c), date: int64(dt)}
	}
	return out, nil
}

// Rebuild replaces the whole index with docs (of repeated ids the last
// wins, as in Apply). It builds a new index beside the old one and swaps
// it in, so a failure leaves the old index untouched and searchable. Meta
// keys are cleared: set them again afterwards.
func (ix *Index) Rebuild(docs []Doc) error {
	last := make(map[string]int, len(docs))
	for i := range docs {
		if docs[i].ID == "" {
			return fmt.Errorf("rebuild: document %d has no id", i)
		}
		last[docs[i].ID] = i
	}
	return ix.RebuildFrom(func(yield func(*Doc) error) error {
		for i := range docs {
			if last[docs[i].ID] != i {
				continue
			}
			if err := yield(&docs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// RebuildFrom is Rebuild from a stream: each calls yield with every
// document, each id once, and stops with yield's error. The documents are
// pulled a batch at a time as bleve takes them, so the build holds about
// two batches of them, not the whole corpus (issue 26: at 1M records the
// slice of every document was most of a first build's heap). yield does
// not keep the *Doc past its call.
func (ix *Index) RebuildFrom(each func(yield func(*Doc) error) error) error {
	if ix.readOnly {
		return ErrReadOnly
	}
	ix.wmu.Lock()
	defer ix.wmu.Unlock()
	ix.mu.RLock()
	closed := ix.idx == nil
	ix.mu.RUnlock()
	if closed && ix.lock == nil {
		return ErrClosed
	}

	staging := filepath.Join(ix.dir, newDir)
	if err := os.RemoveAll(staging); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	var st *corpusStats
	err := ix.guard("rebuild", func() (err error) {
		st, err = buildInto(staging, each)
		return err
	})
	if err != nil {
		_ = os.RemoveAll(staging)
		return fmt.Errorf("rebuild: %w", err)
	}

	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.guard("rebuild", func() error { return ix.swapIn(staging) }); err != nil {
		// Whatever state the directory is in, the next Open sorts it out;
		// this handle is unusable until then.
		ix.setRebuild(true, "rebuild failed: "+err.Error())
		return fmt.Errorf("rebuild: %w", err)
	}
	ix.stats.Store(st)
	ix.setRebuild(false, "")
	return nil
}

// swapIn replaces the live index with the one at staging and stamps the
// format. Called with mu held exclusively.
func (ix *Index) swapIn(staging string) error {
	live := filepath.Join(ix.dir, bleveDir)
	old := filepath.Join(ix.dir, oldDir)
	if ix.idx != nil {
		// The old index is being replaced because it may be damaged:
		// whatever closing it says, it is gone once the rename is done.
		closeQuietly(ix.idx)
		ix.idx = nil
	}
	// Unstamp first: between the renames the directory is incomplete.
	if err := removeIfExists(filepath.Join(ix.dir, formatFile)); err != nil {
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(live, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(staging, live); err != nil {
		return err
	}
	if err := syncDir(ix.dir); err != nil {
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	idx, _, err := openBleve(live)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	ix.idx = idx
	return writeFileAtomic(ix.dir, formatFile, []byte(strconv.Itoa(FormatVersion)+"\n"))
}
