package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/errcode"
	"scriptorium/workspace/manifest"
)

// One edit behind the engine's back (a hand edit, touch, a restore, git
// checkout) used to cost a full rebuild of the index: seconds at 20k
// records, more than the prompt hook's budget, prompt after prompt (issue
// 24 §4). The index keeps beside it the signature of every file version
// it holds (index.Files, checked against the fingerprint bleve recorded
// in its last batch); a sync then re-indexes only the files whose
// signature or racy content moved, and the documents elsewhere those can
// affect (resync, touched.go), in one batch.

// resyncShare is the share of changed files above which a rebuild is
// cheaper than deleting and re-adding most documents one by one.
const resyncShare = 2

// resyncChunk is how many changed files one batch re-indexes. Each batch
// records its progress (the index, the record beside it and the meta
// describe the files as far as it got), so a sync cut short (the prompt
// hook's budget, a killed process) is continued, not started again.
var resyncChunk = 64 // a var: tests shorten it

// errSyncCutShort is a sync stopped by its context with its progress
// kept: the caller answers from the index as it stands.
var errSyncCutShort = errors.New("index sync cut short")

// recordIndexFiles writes the record of c beside an index just brought to
// describe c; without one, the record goes (it would describe another
// version).
func recordIndexFiles(ix *index.Index, c engine.Corpus) {
	f, ok := versions(c)
	if !ok {
		f = index.Files{}
	}
	ix.WriteFiles(f)
}

// indexedVersions returns the record of the index if it is the one its
// last batch describes: the fingerprint of the record is the index's.
func indexedVersions(root string, ix *index.Index) (index.Files, bool) {
	rec, ok := ix.ReadFiles()
	if !ok || len(rec.Sigs) == 0 || ix.NeedsRebuild() {
		return rec, false
	}
	have, err := ix.Meta(index.FingerprintKey)
	if err != nil || have == "" {
		return rec, false
	}
	return rec, index.RecordFingerprint(root, rec) == have
}

// resyncIndex brings ix to describe c by re-indexing what changed since
// the versions it records, resyncChunk files a batch. It returns the
// documents written (upserted or deleted) and false, with the index
// untouched, when it cannot tell what changed or so much did that a
// rebuild is cheaper; errSyncCutShort when ctx ended between batches.
func (st *state) resyncIndex(ctx context.Context, ix *index.Index, c engine.Corpus) (int, bool, error) {
	root := c.Root()
	rec, ok := indexedVersions(root, ix)
	if !ok {
		return 0, false, nil
	}
	// Without the racy files' hashes, a same-signature file cannot be
	// trusted: rebuild.
	meta, err := ix.Meta(index.RacyKey)
	if err != nil {
		return 0, false, nil
	}
	racy, ok := index.ParseRacy(meta)
	if !ok {
		return 0, false, nil
	}
	changed, refs := changedSince(c, rec, racy)
	if len(changed)*resyncShare > c.Files() {
		return 0, false, nil
	}
	cur, ok := versions(c)
	if !ok {
		return 0, false, nil
	}
	written := 0
	for start := 0; start == 0 || start < len(changed); start += resyncChunk {
		if start > 0 && ctx.Err() != nil {
			return written, true, errSyncCutShort
		}
		chunk := changed[start:min(start+resyncChunk, len(changed))]
		last := start+resyncChunk >= len(changed)
		// The record and the meta as far as this batch gets.
		for _, p := range chunk {
			if sig, ok := cur.Sigs[p]; ok {
				rec.Sigs[p] = sig
			} else {
				delete(rec.Sigs, p)
			}
		}
		rec.Promoted = cur.Promoted
		meta := c.Meta(time.Now())
		if !last {
			meta = partialMeta(c, rec, &racy, chunk)
		}
		old, err := ix.DocsIn(chunk)
		if err != nil {
			if errors.Is(err, index.ErrCorrupt) {
				return written, false, nil // damaged: the rebuild repairs it
			}
			return written, false, errcode.Wrap(errcode.IO, err, "search index")
		}
		upserts, deletes := resync(c, chunk, refs, old)
		if err := ix.ApplyWithMeta(upserts, deletes, meta); err != nil {
			if errors.Is(err, index.ErrCorrupt) {
				return written, false, nil
			}
			return written, false, errcode.Wrap(errcode.IO, err, "search index")
		}
		written += len(upserts) + len(deletes)
		refs = map[string]bool{} // promotions are done with the first batch
		if last {
			recordIndexFiles(ix, c)
		} else {
			ix.WriteFiles(rec)
		}
	}
	return written, true, nil
}

func sortDocs(docs []index.Doc) {
	sort.Slice(docs, func(i, j int) bool { return docs[i].ID < docs[j].ID })
}

// versions is the record of the file versions c holds. A file with no
// signature (written by a transaction in memory, read through a stage) is
// stat'ed, as its fingerprint is: it is racy, so its bytes are checked
// too. ok is false when such a file cannot be stat'ed.
func versions(c engine.Corpus) (index.Files, bool) {
	topics, archives := c.TopicPaths(), c.ArchivePaths()
	f := index.Files{Sigs: make(map[string]manifest.Sig, len(topics)+len(archives))}
	for _, paths := range [][]string{topics, archives} {
		for _, p := range paths {
			sig, _ := c.Sig(p)
			if sig == (manifest.Sig{}) {
				fi, err := os.Lstat(filepath.Join(c.Root(), filepath.FromSlash(p)))
				if err != nil {
					return index.Files{}, false
				}
				sig = manifest.SigOf(fi)
			}
			f.Sigs[p] = sig
		}
	}
	for id := range c.Promoted() {
		f.Promoted = append(f.Promoted, id)
	}
	sort.Strings(f.Promoted)
	return f, true
}

// changedSince lists the files of c that the index does not hold as they
// are, and the source-ids whose promotion changed (index.Files.Changed).
func changedSince(c engine.Corpus, rec index.Files, racy index.Racy) ([]string, map[string]bool) {
	topics, archives := c.TopicPaths(), c.ArchivePaths()
	now := make(map[string]manifest.Sig, len(topics)+len(archives))
	for _, paths := range [][]string{topics, archives} {
		for _, p := range paths {
			now[p], _ = c.Sig(p)
		}
	}
	promoted := make([]string, 0, len(c.Promoted()))
	for id := range c.Promoted() {
		promoted = append(promoted, id)
	}
	return rec.Changed(now, func(p string) []byte { data, _ := c.Content(p); return data }, racy.Files, promoted)
}

// partialMeta is the meta of an index that holds the files of rec: its
// fingerprint, and the racy hashes of the files just re-indexed (done)
// beside those the old record kept for the others; old is updated to the
// new record.
func partialMeta(c engine.Corpus, rec index.Files, old *index.Racy, done []string) map[string]string {
	now := time.Now()
	r := index.Racy{Stamp: now.UnixNano(), Files: map[string]string{}}
	for p, h := range old.Files {
		r.Files[p] = h
	}
	for _, p := range done {
		delete(r.Files, p)
		if data, ok := c.Content(p); ok && c.Racy(p, now) {
			r.Files[p] = index.HashContent(data)
		}
	}
	old.Files = r.Files
	return map[string]string{index.FingerprintKey: index.RecordFingerprint(c.Root(), rec), index.RacyKey: r.String()}
}
