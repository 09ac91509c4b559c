package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// The search index is a cache of topics/ and sources/: it is opened for one
// operation and closed again (bleve holds an exclusive lock, and the TUI and
// a CLI search must be able to take turns), brought up to date from the
// files when it is missing, broken, of another format or stale, and
// otherwise updated incrementally inside every install.

const fingerprintKey = "fingerprint"

func (e *Engine) indexDir() string { return filepath.Join(e.ws.Root(), ".scriptorium", "index") }

// docsOf builds every searchable document of a snapshot. Pending sources,
// pending blocks and legacy records shadowed by a v2 frame are not
// documents at all, so no search path can return them.
func (s *snapshot) docsOf() map[string]index.Doc {
	docs := map[string]index.Doc{}
	for _, p := range s.topicPaths {
		s.addTopicDocs(docs, s.topics[p], nil)
	}
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			s.addSourceDoc(docs, src)
		}
	}
	return docs
}

// addTopicDocs adds the documents of a topic file's trusted blocks; with
// only set, just the blocks it names.
func (s *snapshot) addTopicDocs(docs map[string]index.Doc, tf *topicFile, only map[string]bool) {
	defs := tf.file.Definitions()
	for _, b := range tf.file.Blocks() {
		if (only != nil && !only[b.BlockID]) || !s.blockTrusted(tf, b) {
			continue
		}
		d := index.Doc{ID: "topic:" + tf.path + "#^" + b.BlockID, Kind: index.KindTopic, Path: tf.path,
			Anchor: "^" + b.BlockID, Ref: b.BlockID, Text: topic.BlockText(b), Visible: true}
		var cited []string
		for _, r := range b.Refs {
			if def, ok := defs[r.Label]; ok {
				if t, err := time.Parse(time.DateOnly, def.Date); err == nil && t.After(d.Time) {
					d.Time = t
				}
				for _, c := range def.Sources {
					cited = append(cited, c.SourceID)
				}
			}
		}
		d.Who, d.Context = s.blockSources(cited)
		docs[d.ID] = d
	}
}

// addSourceDoc adds a source record's document when it is visible: trusted,
// and the record search prefers for its source-id.
func (s *snapshot) addSourceDoc(docs map[string]index.Doc, src *sourceEntry) {
	v := src.view
	if src.pending() || v.Forgotten || s.sources[v.Ref] != src {
		return
	}
	t, _ := time.Parse(time.RFC3339, v.Time)
	d := index.Doc{ID: "source:" + v.Path + "#" + v.Anchor, Kind: index.KindSource, Path: v.Path, Anchor: v.Anchor,
		Ref: v.Ref, Time: t, Text: v.Content, SpeakerID: v.SpeakerID, SpeakerDisplay: v.SpeakerDisplay,
		SpeakerLabel: v.SpeakerLabel, SpeakerTrusted: v.SpeakerTrusted, Visible: true,
		Who: whoOf(src), Context: s.turnBefore(src)}
	docs[d.ID] = d
}

// touchedDocs builds the documents of before and after, restricted to what
// the change between them can have touched: every record of a changed
// archive, the preferred record of every source-id such an archive holds or
// whose promotion changed, every block of a changed topic file, and the
// blocks elsewhere that cite a changed archive or such a source-id (their
// trust may have flipped). The rest of the index is left alone, so an
// install costs what it changed, not the whole workspace.
func touchedDocs(before, after *snapshot) (old, cur map[string]index.Doc) {
	changedArch := map[string]bool{}
	refs := map[string]bool{}
	for _, pair := range [][2]*snapshot{{before, after}, {after, before}} {
		a, b := pair[0], pair[1]
		for _, p := range a.archPaths {
			if other, ok := b.archives[p]; !ok || !sameParse(a.archives[p], other) {
				changedArch[p] = true
				for _, src := range a.archives[p].sources {
					refs[src.view.Ref] = true
				}
			}
		}
		for id := range a.promoted {
			if !b.promoted[id] {
				refs[id] = true
			}
		}
	}
	changedTopic := map[string]bool{}
	for _, pair := range [][2]*snapshot{{before, after}, {after, before}} {
		for _, p := range pair[0].topicPaths {
			if other, ok := pair[1].topics[p]; !ok || other != pair[0].topics[p] {
				changedTopic[p] = true
			}
		}
	}
	build := func(s *snapshot) map[string]index.Doc {
		docs := map[string]index.Doc{}
		for p := range changedArch {
			if a, ok := s.archives[p]; ok {
				for _, src := range a.sources {
					s.addSourceDoc(docs, src)
				}
			}
		}
		for ref := range refs {
			if src, ok := s.sources[ref]; ok {
				if changedArch[src.file.path] {
					// Its whole archive, the neighbour included, is built
					// above; finding the neighbour of each of a long chat's
					// pending records was quadratic in the chat.
					continue
				}
				s.addSourceDoc(docs, src)
				// The next turn holds this one as its context: if this
				// one stopped being trusted, its text must leave there too.
				if _, after := s.neighbours(src); after != nil {
					s.addSourceDoc(docs, after)
				}
			}
		}
		for _, p := range s.topicPaths {
			tf := s.topics[p]
			if changedTopic[p] {
				s.addTopicDocs(docs, tf, nil)
				continue
			}
			if !tf.mayCite(changedArch, refs) {
				continue // its dependencies name none of them: no block to scan
			}
			if only := tf.blocksCiting(changedArch, refs); len(only) > 0 {
				s.addTopicDocs(docs, tf, only)
			}
		}
		return docs
	}
	return build(before), build(after)
}

// mayCite reports whether a topic file's citations or links reach one of
// the archives or cite one of the source-ids given, from its dependencies
// (built once per parse and shared between snapshots), so that an install
// scans the blocks of only those files, not of every file of the workspace.
func (tf *topicFile) mayCite(archives, refs map[string]bool) bool {
	d := tf.deps()
	for _, t := range d.Targets {
		if archives[t] {
			return true
		}
	}
	for _, r := range d.Refs {
		if refs[r] {
			return true
		}
	}
	return false
}

// blocksCiting names the blocks of a topic file that cite one of the
// archives or source-ids given.
func (tf *topicFile) blocksCiting(archives, refs map[string]bool) map[string]bool {
	var out map[string]bool
	defs := tf.file.Definitions()
	for _, b := range tf.file.Blocks() {
		for _, r := range b.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			for _, c := range d.Sources {
				if refs[c.SourceID] || archives[resolveRel(tf.path, c.Path)] {
					if out == nil {
						out = map[string]bool{}
					}
					out[b.BlockID] = true
				}
			}
		}
	}
	return out
}

// sameParse reports whether two archive values hold the same parse: a file
// re-read or rewritten is parsed into new slices, an unchanged one shares
// them.
func sameParse(a, b *archiveFile) bool {
	if a.legacy != b.legacy || len(a.frames) != len(b.frames) || len(a.records) != len(b.records) || a.stopErr != b.stopErr {
		return false
	}
	if len(a.frames) > 0 {
		return &a.frames[0] == &b.frames[0]
	}
	if len(a.records) > 0 {
		return &a.records[0] == &b.records[0]
	}
	return bytes.Equal(a.data, b.data)
}

// fingerprint summarises everything the index derives from: every memory
// file's path and signature (size, mtime, ctime, inode), and the promotion
// ledger. A hand edit behind the engine's back changes it, so the index is
// brought up to date. Files read from disk carry the signature they were
// read with, so a snapshot's fingerprint describes that snapshot even after
// an install has replaced the files; files a transaction produced in memory
// are stat'ed.
func (s *snapshot) fingerprint(root string) string {
	// A snapshot read from disk has every signature: its fingerprint never
	// changes, and a long-lived engine asks for it on every search.
	if s.fp != nil {
		if fp := s.fp.Load(); fp != nil {
			return *fp
		}
	}
	var lines []fpLine
	for _, p := range s.topicPaths {
		lines = append(lines, fpLine{p, s.topics[p].sig})
	}
	stable := s.fp != nil
	for _, p := range s.archPaths {
		lines = append(lines, fpLine{p, s.archives[p].sig})
	}
	for _, l := range lines {
		stable = stable && l.sig != (fileSig{})
	}
	fp := fingerprintOf(root, lines, s.promoted)
	if stable {
		s.fp.Store(&fp)
	}
	return fp
}

// fpLine is one file of a fingerprint.
type fpLine struct {
	path string
	sig  fileSig
}

// fingerprintOf hashes the files (topics first, then archives, each in
// path order) and the promoted source-ids. A zero signature is stat'ed.
func fingerprintOf(root string, lines []fpLine, promoted map[string]bool) string {
	h := sha256.New()
	for _, l := range lines {
		sig := l.sig
		if sig == (fileSig{}) {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(l.path)))
			if err != nil {
				fmt.Fprintf(h, "%s missing\n", l.path)
				continue
			}
			sig = statSig(fi)
		}
		fmt.Fprintf(h, "%s %d %d %d %d\n", l.path, sig.size, sig.mtime, sig.ctime, sig.ino)
	}
	ids := make([]string, 0, len(promoted))
	for id := range promoted {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(h, "promoted %s\n", id)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// openIndex opens the index, waiting up to a second for another handle.
func (e *Engine) openIndex() (*index.Index, error) {
	// A writable handle needs every reader gone: ours now, the others'
	// within a poll (index_reader.go).
	e.reader.close()
	announceWrite(e.indexDir())
	ix, err := index.OpenWith(e.indexDir(), index.Options{LockTimeout: time.Second})
	if errors.Is(err, index.ErrLocked) {
		return nil, &Error{Code: CodeLockBusy, Message: "the search index is in use by another process; try again", Err: err}
	}
	if err != nil {
		// The index names the operation and its directory ("open index
		// /x/.scriptorium/index: …"); another prefix would only repeat it.
		return nil, &Error{Code: CodeIO, Message: err.Error(), Err: err}
	}
	return ix, nil
}

// openReadOnly opens the index for reading beside other readers; it fails
// (ErrUnavailable) where only a writable open could repair the index.
func (e *Engine) openReadOnly() (*index.Index, error) {
	return index.OpenWith(e.indexDir(), index.Options{ReadOnly: true, LockTimeout: time.Second})
}

// syncIndex makes the index match the snapshot: a rebuild when it is not
// fresh, nothing otherwise. It returns whether it rebuilt.
func (e *Engine) syncIndex(ctx context.Context, ix *index.Index, s *snapshot) (bool, error) {
	fp := s.fingerprint(e.ws.Root())
	if _, err := ix.Meta(fingerprintKey); err != nil && !errors.Is(err, index.ErrCorrupt) {
		return false, Wrap(CodeIO, err, "read search index")
	}
	// A damaged index has marked itself for a rebuild: the rebuild below is
	// its repair.
	if indexDescribes(ix, fp, s.snapshotContent) {
		return false, nil
	}
	if n, ok, err := e.resyncIndex(ctx, ix, s); ok || err != nil {
		e.indexResynced.Add(int64(n))
		return false, err
	}
	if stale(ctx, ix) {
		return false, errSyncCutShort
	}
	docs := s.docsOf()
	list := make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		list = append(list, d)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	if err := ix.Rebuild(list); err != nil {
		return false, Wrap(CodeIO, err, "search index") // "search index: rebuild: …"
	}
	e.indexRebuilds.Add(1)
	if err := ix.ApplyWithMeta(nil, nil, s.indexMeta(e.ws.Root(), time.Now())); err != nil {
		return false, Wrap(CodeIO, err, "search index")
	}
	recordIndexFiles(e.ws.Root(), ix, s)
	return true, nil
}

// updateIndex applies the difference between two snapshots to the index
// in one batch, so a fact is searchable the moment its install returns. An
// index that was not fresh before the change is rebuilt instead. Failures
// leave the index stale, and the next search rebuilds it.
func (e *Engine) updateIndex(ctx context.Context, before, after *snapshot) {
	e.recordManifest(after)
	ix, err := e.openIndex()
	if err != nil {
		return
	}
	defer ix.Close()
	if before == nil || !indexDescribes(ix, before.fingerprint(e.ws.Root()), before.snapshotContent) {
		_, _ = e.syncIndex(ctx, ix, after)
		return
	}
	old, cur := touchedDocs(before, after)
	var upserts []index.Doc
	var deletes []string
	for id, d := range cur {
		if o, ok := old[id]; !ok || o != d {
			upserts = append(upserts, d)
		}
	}
	for id := range old {
		if _, ok := cur[id]; !ok {
			deletes = append(deletes, id)
		}
	}
	sort.Slice(upserts, func(i, j int) bool { return upserts[i].ID < upserts[j].ID })
	sort.Strings(deletes)
	if ix.ApplyWithMeta(upserts, deletes, after.indexMeta(e.ws.Root(), time.Now())) == nil {
		recordIndexFiles(e.ws.Root(), ix, after)
	}
}

// indexStateOf describes the index without changing it: fresh when it
// describes the files whose fingerprint is fp.
func (e *Engine) indexStateOf(fp string, content func(string) ([]byte, bool)) result.IndexState {
	st := result.IndexState{Format: index.FormatVersion}
	// A writable open: it is the one that finds damage a reader would not
	// (bolt reads its freelist only for writing), so fresh means usable.
	ix, err := e.openIndex()
	if err != nil {
		return st
	}
	defer ix.Close()
	if n, err := ix.Count(); err == nil {
		st.Documents = n
	}
	st.Fresh = indexDescribes(ix, fp, content)
	return st
}

// Search runs a search over trusted blocks and sources (SPEC §10): BM25,
// fused with vector similarity when [embeddings] is configured.
func (e *Engine) Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error) {
	rep, err := e.SearchReport(ctx, q)
	if err != nil {
		return nil, err
	}
	return rep.Results, nil
}

// SearchReport is Search that also says how the results were ranked, and
// why it fell back to BM25 when the embeddings provider failed.
func (e *Engine) SearchReport(ctx context.Context, q result.SearchQuery) (SearchReport, error) {
	rep := SearchReport{Results: []result.SearchResult{}}
	if err := e.gate(trust.OpSearch); err != nil {
		return rep, err
	}
	iq, err := checkQuery(q)
	if err != nil {
		return rep, err
	}
	if rep.Method, err = e.methodFor(q); err != nil {
		return rep, err
	}
	// A cold engine (a one-shot CLI search) answers from a fresh index
	// without reading the workspace; a warm one has its snapshot in memory.
	if rep.Method == MethodBM25 && !e.warm() && !e.opts.LongLived {
		if results, ok := e.searchFromFiles(ctx, iq, q.Text); ok {
			rep.Results = results
			return rep, nil
		}
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return rep, err
	}
	var hits []index.Hit
	if rep.Method == MethodBM25 {
		hits, err = e.searchIndexCtx(ctx, s, iq)
	} else {
		hits, rep.Method, rep.Fallback, err = e.searchVectors(ctx, s, iq, rep.Method)
	}
	if err != nil {
		return rep, err
	}
	for _, h := range hits {
		rep.Results = append(rep.Results, s.result(h, q.Text))
	}
	return rep, nil
}

// searchIndex runs a checked query on an index brought up to date with s.
// A damaged index (ErrCorrupt: bleve panicked or read garbage) has marked
// itself for a rebuild; it is rebuilt from s at once and asked again, so
// one damaged cache costs one slow search, not every search after it.
func (e *Engine) searchIndex(s *snapshot, iq index.Query) ([]index.Hit, error) {
	return e.searchIndexCtx(context.Background(), s, iq)
}

// searchIndexCtx is searchIndex for a caller whose ctx may end: a sync it
// cannot finish in time leaves the index as far as it got, and the answer
// comes from the index as it stands (index_stale.go).
func (e *Engine) searchIndexCtx(ctx context.Context, s *snapshot, iq index.Query) ([]index.Hit, error) {
	if e.opts.LongLived {
		// Anything but a clean answer goes the writable way, which repairs
		// and reports.
		if hits, ok, err := e.searchHeld(s, iq); ok && err == nil {
			return hits, nil
		}
	}
	ix, err := e.openIndex()
	if lockBusy(err) {
		if hits, ok := e.searchStale(ctx, s, iq); ok {
			return hits, nil
		}
	}
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	for attempt := 1; ; attempt++ {
		_, err := e.syncIndex(ctx, ix, s)
		if errors.Is(err, errSyncCutShort) {
			return e.searchAsItStands(ix, s, iq)
		}
		if err != nil {
			return nil, err
		}
		hits, err := ix.Search(iq)
		switch {
		case err == nil:
			return hits, nil
		case errors.Is(err, index.ErrCorrupt) && attempt == 1:
			continue
		case errors.Is(err, index.ErrCorrupt):
			return nil, &Error{Code: CodeIO, Err: err,
				Message: "the search index is damaged and rebuilding it did not help: " + err.Error()}
		case errors.Is(err, index.ErrClosed):
			return nil, Wrap(CodeIO, err, "search")
		}
		// checkQuery has already refused every malformed query the index
		// knows of, so this is the index refusing one it could not parse.
		return nil, &Error{Code: CodeInvalidArgument, Message: err.Error(), Err: err}
	}
}

// checkQuery validates a query and converts it for the index. Every
// problem is INVALID_ARGUMENT naming it; no filter is ever ignored.
func checkQuery(q result.SearchQuery) (index.Query, error) {
	var iq index.Query
	text := strings.TrimSpace(q.Text)
	switch {
	case text == "":
		return iq, Errorf(CodeInvalidArgument, "empty query")
	case utf8.RuneCountInString(q.Text) > index.MaxQueryRunes:
		return iq, Errorf(CodeInvalidArgument, "query is longer than %d characters", index.MaxQueryRunes)
	case !utf8.ValidString(q.Text):
		return iq, Errorf(CodeInvalidArgument, "query is not valid UTF-8")
	}
	switch q.Method {
	case "", MethodBM25, MethodHybrid:
	case MethodEmbedding:
		if q.Speaker != "" {
			return iq, Errorf(CodeInvalidArgument, "method=embedding cannot filter by speaker: embedding results carry no trusted speaker")
		}
	default:
		return iq, Errorf(CodeInvalidArgument, "unknown method %q (want bm25, hybrid or embedding)", q.Method)
	}
	switch q.Sort {
	case "", "score", "date":
	default:
		return iq, Errorf(CodeInvalidArgument, "unknown sort %q (want score or date)", q.Sort)
	}
	if q.Limit < 0 || q.Limit > index.MaxLimit {
		return iq, Errorf(CodeInvalidArgument, "limit must be between 1 and %d", index.MaxLimit)
	}
	since, err := index.ParseBound(q.Since, false)
	if err != nil {
		return iq, Errorf(CodeInvalidArgument, "since %q: want YYYY-MM-DD or an RFC 3339 time", q.Since)
	}
	until, err := index.ParseBound(q.Until, true)
	if err != nil {
		return iq, Errorf(CodeInvalidArgument, "until %q: want YYYY-MM-DD or an RFC 3339 time", q.Until)
	}
	if !since.IsZero() && !until.IsZero() && until.Before(since) {
		return iq, Errorf(CodeInvalidArgument, "until is before since")
	}
	iq = index.Query{Text: q.Text, Speaker: strings.TrimSpace(q.Speaker), PathPrefix: q.Path,
		Since: since, Until: until, Sort: q.Sort, Limit: q.Limit, Explain: q.Explain}
	if iq.Sort == "" {
		iq.Sort = "score"
	}
	return iq, nil
}

// result turns an index hit into a SPEC §10 result, with its snippet cut
// from the text in the snapshot (the index stores no text).
func (s *snapshot) result(h index.Hit, query string) result.SearchResult {
	text := ""
	if h.Kind == index.KindSource {
		// The record indexed is the one preferred for its source-id (the
		// first of duplicates), which the anchor map may not be.
		if src, ok := s.sources[h.Ref]; ok && src.view.Path == h.Path && src.view.Anchor == h.Anchor {
			text = src.view.Content
		} else if src, ok := s.anchors[h.Path+"#"+h.Anchor]; ok {
			text = src.view.Content
		}
	} else if tf, ok := s.topics[h.Path]; ok {
		if b, ok := tf.file.Block(h.Ref); ok {
			text = topic.BlockText(b)
		}
	}
	return hitResult(h, query, text)
}

// hitResult is the result of a hit whose document text is text.
func hitResult(h index.Hit, query, text string) result.SearchResult {
	r := result.SearchResult{Kind: h.Kind, Path: h.Path, Anchor: h.Anchor, Ref: h.Ref, Score: h.Score, Explanation: h.Explanation}
	if !h.Time.IsZero() {
		r.Time = h.Time.UTC().Format(time.RFC3339)
	}
	if h.Kind == index.KindSource {
		id, disp, label, trusted := h.SpeakerID, h.SpeakerDisplay, h.SpeakerLabel, h.SpeakerTrusted
		r.SpeakerID, r.SpeakerDisplay, r.SpeakerLabel, r.SpeakerTrusted = &id, &disp, &label, &trusted
	}
	r.Snippet, r.SnippetComplete = index.MakeSnippet(text, query, index.DefaultSnippetRunes)
	return r
}
