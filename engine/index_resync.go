package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"scriptorium/engine/index"
	"scriptorium/workspace/manifest"
)

// One edit behind the engine's back (a hand edit, touch, a restore, git
// checkout) used to cost a full rebuild of the index: seconds at 20k
// records, more than the prompt hook's budget, prompt after prompt (issue
// 24 §4). The index keeps beside it the signature of every file version
// it holds (index.Files, checked against the fingerprint bleve recorded
// in its last batch); a sync then re-indexes only the files whose
// signature or racy content moved, and the documents elsewhere those can
// affect (touchedDocs' rule), in one batch.

// resyncShare is the share of changed files above which a rebuild is
// cheaper than deleting and re-adding most documents one by one.
const resyncShare = 2

// indexFiles is the record of the file versions s holds. A file with no
// signature (written by a transaction in memory, read through a stage) is
// stat'ed, as its fingerprint is: it is racy, so its bytes are checked too.
func (s *snapshot) indexFiles(root string) (index.Files, bool) {
	f := index.Files{Sigs: make(map[string]manifest.Sig, len(s.topicPaths)+len(s.archPaths))}
	put := func(p string, sig fileSig) bool {
		if sig == (fileSig{}) {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				return false
			}
			sig = statSig(fi)
		}
		f.Sigs[p] = toManifestSig(sig)
		return true
	}
	for _, p := range s.topicPaths {
		if !put(p, s.topics[p].sig) {
			return index.Files{}, false
		}
	}
	for _, p := range s.archPaths {
		if !put(p, s.archives[p].sig) {
			return index.Files{}, false
		}
	}
	for id := range s.promoted {
		f.Promoted = append(f.Promoted, id)
	}
	sort.Strings(f.Promoted)
	return f, true
}

// recordIndexFiles writes the record of s beside an index just brought to
// describe s; without one, the record goes (it would describe another
// version).
func recordIndexFiles(root string, ix *index.Index, s *snapshot) {
	f, ok := s.indexFiles(root)
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
	have, err := ix.Meta(fingerprintKey)
	if err != nil || have == "" {
		return rec, false
	}
	return rec, recordFingerprint(root, rec) == have
}

// recordFingerprint is the fingerprint of the files a record names.
func recordFingerprint(root string, rec index.Files) string {
	paths := make([]string, 0, len(rec.Sigs))
	for p := range rec.Sigs {
		paths = append(paths, p)
	}
	// A snapshot's fingerprint lists topics first, then archives.
	sort.Slice(paths, func(i, j int) bool {
		ti, tj := strings.HasPrefix(paths[i], "topics/"), strings.HasPrefix(paths[j], "topics/")
		if ti != tj {
			return ti
		}
		return paths[i] < paths[j]
	})
	lines := make([]fpLine, len(paths))
	for i, p := range paths {
		m := rec.Sigs[p]
		lines[i] = fpLine{p, fileSig{size: m.Size, mtime: m.MtimeNS, ctime: m.CtimeNS, ino: m.Ino}}
	}
	promoted := make(map[string]bool, len(rec.Promoted))
	for _, id := range rec.Promoted {
		promoted[id] = true
	}
	return fingerprintOf(root, lines, promoted)
}

// changedSince lists the files of s that the index does not hold as they
// are, and the source-ids whose promotion changed (index.Files.Changed).
func (s *snapshot) changedSince(rec index.Files, racy racyRecord) ([]string, map[string]bool) {
	now := make(map[string]manifest.Sig, len(s.topicPaths)+len(s.archPaths))
	for _, p := range s.topicPaths {
		now[p] = toManifestSig(s.topics[p].sig)
	}
	for _, p := range s.archPaths {
		now[p] = toManifestSig(s.archives[p].sig)
	}
	promoted := make([]string, 0, len(s.promoted))
	for id := range s.promoted {
		promoted = append(promoted, id)
	}
	return rec.Changed(now, func(p string) []byte { data, _ := s.snapshotContent(p); return data }, racy.Files, promoted)
}

// resyncChunk is how many changed files one batch re-indexes. Each batch
// records its progress (the index, the record beside it and the meta
// describe the files as far as it got), so a sync cut short (the prompt
// hook's budget, a killed process) is continued, not started again.
var resyncChunk = 64 // a var: tests shorten it

// errSyncCutShort is a sync stopped by its context with its progress
// kept: the caller answers from the index as it stands.
var errSyncCutShort = errors.New("index sync cut short")

// resyncIndex brings ix to describe s by re-indexing what changed since
// the versions it records, resyncChunk files a batch. It returns the
// documents written (upserted or deleted) and false, with the index
// untouched, when it cannot tell what changed or so much did that a
// rebuild is cheaper; errSyncCutShort when ctx ended between batches.
func (e *Engine) resyncIndex(ctx context.Context, ix *index.Index, s *snapshot) (int, bool, error) {
	rec, ok := indexedVersions(e.ws.Root(), ix)
	if !ok {
		return 0, false, nil
	}
	// Without the racy files' hashes, a same-signature file cannot be
	// trusted: rebuild.
	var racy racyRecord
	if meta, err := ix.Meta(racyKey); err != nil || json.Unmarshal([]byte(meta), &racy) != nil || racy.Files == nil {
		return 0, false, nil
	}
	changed, refs := s.changedSince(rec, racy)
	if len(changed)*resyncShare > len(s.topicPaths)+len(s.archPaths) {
		return 0, false, nil
	}
	cur, ok := s.indexFiles(e.ws.Root())
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
		meta := s.indexMeta(e.ws.Root(), time.Now())
		if !last {
			meta = s.partialMeta(e.ws.Root(), rec, &racy, chunk)
		}
		n, err := e.resyncFiles(ix, s, chunk, refs, meta)
		if errors.Is(err, index.ErrCorrupt) {
			return written, false, nil // damaged: the rebuild repairs it
		}
		if err != nil {
			return written, false, err
		}
		written += n
		refs = map[string]bool{} // promotions are done with the first batch
		if last {
			recordIndexFiles(e.ws.Root(), ix, s)
		} else {
			ix.WriteFiles(rec)
		}
	}
	return written, true, nil
}

// partialMeta is the meta of an index that holds the files of rec: its
// fingerprint, and the racy hashes of the files just re-indexed (done)
// beside those the old record kept for the others.
func (s *snapshot) partialMeta(root string, rec index.Files, old *racyRecord, done []string) map[string]string {
	now := time.Now()
	r := racyRecord{Stamp: now.UnixNano(), Files: map[string]string{}}
	for p, h := range old.Files {
		r.Files[p] = h
	}
	for _, p := range done {
		delete(r.Files, p)
		var sig fileSig
		if tf, ok := s.topics[p]; ok {
			sig = tf.sig
		} else if a, ok := s.archives[p]; ok {
			sig = a.sig
		} else {
			continue
		}
		if data, _ := s.snapshotContent(p); sig.racy(now) {
			sum := sha256.Sum256(data)
			r.Files[p] = hex.EncodeToString(sum[:])
		}
	}
	old.Files = r.Files
	b, _ := json.Marshal(r)
	return map[string]string{fingerprintKey: recordFingerprint(root, rec), racyKey: string(b)}
}

// resyncFiles re-indexes the documents of the changed files, and those
// elsewhere they (or the promotions of refs) can affect, in one batch
// with meta.
func (e *Engine) resyncFiles(ix *index.Index, s *snapshot, changed []string, refs map[string]bool, meta map[string]string) (int, error) {
	refs = maps.Clone(refs)
	old, err := ix.DocsIn(changed)
	if err != nil {
		return 0, Wrap(CodeIO, err, "search index")
	}
	changedArch := map[string]bool{}
	changedTopic := map[string]bool{}
	for _, p := range changed {
		if strings.HasPrefix(p, "topics/") {
			changedTopic[p] = true
			continue
		}
		changedArch[p] = true
		if a, ok := s.archives[p]; ok {
			for _, src := range a.sources {
				refs[src.view.Ref] = true
			}
		}
	}
	candidates := map[string]bool{}
	for _, d := range old {
		candidates[d.ID] = true
		if d.Kind == index.KindSource {
			refs[d.Ref] = true // another archive's record of it may be preferred now
		}
	}
	docs := map[string]index.Doc{}
	for p := range changedArch {
		if a, ok := s.archives[p]; ok {
			for _, src := range a.sources {
				s.addSourceDoc(docs, src)
			}
		}
	}
	if len(refs) > 0 {
		for _, p := range s.archPaths {
			for _, src := range s.archives[p].sources {
				if !refs[src.view.Ref] {
					continue
				}
				candidates["source:"+src.view.Path+"#"+src.view.Anchor] = true
				s.addSourceDoc(docs, src)
				// The next turn holds this one as its context.
				if _, next := s.neighbours(src); next != nil {
					s.addSourceDoc(docs, next)
				}
			}
		}
	}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		if changedTopic[p] {
			s.addTopicDocs(docs, tf, nil)
			continue
		}
		if only := tf.blocksCiting(changedArch, refs); len(only) > 0 {
			for id := range only {
				candidates["topic:"+p+"#^"+id] = true
			}
			s.addTopicDocs(docs, tf, only)
		}
	}
	upserts := make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		upserts = append(upserts, d)
	}
	sort.Slice(upserts, func(i, j int) bool { return upserts[i].ID < upserts[j].ID })
	var deletes []string
	for id := range candidates {
		if _, ok := docs[id]; !ok {
			deletes = append(deletes, id)
		}
	}
	sort.Strings(deletes)
	if err := ix.ApplyWithMeta(upserts, deletes, meta); err != nil {
		return 0, Wrap(CodeIO, err, "search index")
	}
	return len(upserts) + len(deletes), nil
}
