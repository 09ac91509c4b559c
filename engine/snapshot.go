package engine

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"scriptorium/engine/deps"
	"scriptorium/engine/overlay"
	"scriptorium/engine/result"
	"scriptorium/engine/sourceview"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/stage"
	"scriptorium/workspace/topic"
)

// topicFile is one parsed topic file.
type topicFile struct {
	sig      fileSig // the on-disk version this was parsed from; zero if not from disk
	racy     bool    // sig was racy when read: reuse only after comparing bytes
	path     string  // "topics/people/craig.md"
	data     []byte
	file     *topic.File
	problems []topic.Problem
	// defs is file.Definitions(), computed once at parse time: block trust
	// and rendering look definitions up per block, and rebuilding the map
	// per block made them O(blocks²) in a file.
	defs map[string]*topic.Definition
	// blocks is the file's blocks as the renderer takes them, without
	// trust (which depends on the archives, not on this file), built
	// once: every install re-renders the derived views of every file.
	blocksOnce sync.Once
	blocks     []render.Block
	sum        manifest.Cached // the file's manifest summary, built once (manifest.go)
	// dep is what the file's trust and violations depend on, built once
	// (depindex.go): incremental views and validation look it up per
	// file instead of resolving every citation of the workspace.
	depOnce sync.Once
	dep     *deps.Topic
}

// definitions returns the file's footnote definitions by label (see
// topic.File.Definitions); the map is shared and must not be modified.
func (tf *topicFile) definitions() map[string]*topic.Definition {
	if tf.defs == nil {
		return tf.file.Definitions()
	}
	return tf.defs
}

// archiveFile is one parsed source archive.
type archiveFile struct {
	sig      fileSig
	racy     bool   // as topicFile.racy
	path     string // "sources/openprogram/_v2/sess.md" or "sources/openprogram/sess.md"
	provider string
	thread   string
	data     []byte
	legacy   bool
	frames   []archive.Frame        // v2
	records  []archive.LegacyRecord // legacy
	stopErr  *archive.FrameError    // v2: why parsing stopped, nil if the file is valid
	sources  []*sourceEntry         // in file order
	sum      *manifest.Cached       // the manifest summary, built once; copies share it
	anchorIx *anchorIndex           // anchor → position, built on first lookup; copies share it
}

// sourceEntry is one source record, resolved. It keeps only what lookups
// need; view() builds the rest from the parsed frame or record, so a 1M
// snapshot does not hold a million SourceViews (issue 26).
type sourceEntry struct {
	file              *archiveFile
	ref, anchor       string
	pos               int // its index in file.sources (and frames or records), so neighbours needs no search
	framePending, pnd bool
}

// snapshot is a read of the whole workspace: every topic and archive parsed,
// trust resolved. Validation, verify, get, render and search all work on one.
type snapshot struct {
	topics     map[string]*topicFile
	topicPaths []string
	archives   map[string]*archiveFile
	archPaths  []string
	sources    *overlay.Map[*sourceEntry] // by source-id; a v2 frame wins over a legacy record
	promoted   map[string]bool
	strays     []errcode.Violation // files that are not where the layout allows
	trustOnly  bool                // archives hold only their cited entries (loadFiles): for Core alone

	archiveStrays []errcode.Violation // the strays found under sources/, for reuse

	// fp caches the fingerprint of a snapshot read from disk (nil for the
	// snapshots a transaction builds, whose new files are stat'ed).
	fp     *atomic.Pointer[string]
	recall *sync.Map // TrustedTopics' *RecallFile per path, read from disk; nil for a transaction's
}

// loadFiles reads topics/ and sources/ at root, through the committed stages
// ov (workspace/stage). Files whose size, mtime and inode match prev's copy
// are reused unread, so a long-lived engine pays for what changed. A
// trustOnly read (Core's, prev nil) keeps of each archive only the cited
// entries, copied: no bytes, parse or source map (issue 26).
// afterTopicsListed (tests only) runs between listing topics/ and reading.
var afterTopicsListed func()

func loadFiles(root string, promoted map[string]bool, prev *snapshot, ov stage.Overlay, trustOnly bool) (*snapshot, error) {
	s := &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: promoted, fp: new(atomic.Pointer[string]), recall: new(sync.Map),
		trustOnly: trustOnly}
	topics, strays, err := listMarkdown(root, "topics")
	if err != nil {
		return nil, err
	}
	topics = applyStages(ov, "topics", topics)
	if afterTopicsListed != nil {
		afterTopicsListed()
	}
	s.strays = append(s.strays, strays...)
	for _, f := range topics {
		// A file read while its signature was racy is read again: a
		// same-size edit in the same clock tick would not show in it.
		if prev != nil {
			if tf, ok := prev.topics[f.path]; ok && tf.sig == f.sig && !tf.racy {
				s.topics[f.path] = tf
				s.topicPaths = append(s.topicPaths, f.path)
				continue
			}
		}
		data, err := ov.ReadFile(root, f.path)
		if err != nil {
			return nil, errcode.Wrap(errcode.IO, err, "read %s", f.path)
		}
		s.setTopic(f.path, data)
		s.topics[f.path].sig = f.sig
		s.topics[f.path].racy = f.sig.racy(time.Now())
	}
	cited := map[string]map[string]bool{} // what a trust-only read keeps
	for _, tf := range s.topics {
		if trustOnly {
			deps.AddAnchors(cited, tf.path, tf.definitions())
		}
	}
	sources, strays, err := listMarkdown(root, "sources")
	if err != nil {
		return nil, err
	}
	sources = applyStages(ov, "sources", sources)
	s.strays = append(s.strays, strays...)
	// When no archive changed and no promotion happened, the whole source
	// index of prev is still right: share it instead of rebuilding 100k
	// entries. Shared values are never mutated (indexSources only runs on
	// fresh copies).
	if prev != nil && sameArchives(prev, sources) && sameSet(prev.promoted, promoted) {
		s.strays = append(s.strays, prev.archiveStrays...)
		s.archiveStrays = prev.archiveStrays
		s.archives, s.archPaths = prev.archives, prev.archPaths
		s.sources = prev.sources
		return s, nil
	}
	var fresh []string          // archives read and parsed again
	reused := map[string]bool{} // archives shared with prev as they are
	for _, f := range sources {
		if prev != nil {
			if a, ok := prev.archives[f.path]; ok && a.sig == f.sig && !a.racy {
				s.archives[f.path] = a
				s.archPaths = append(s.archPaths, f.path)
				reused[f.path] = true
				continue
			}
		}
		fresh = append(fresh, f.path)
		data, err := ov.ReadFile(root, f.path)
		if err != nil {
			return nil, errcode.Wrap(errcode.IO, err, "read %s", f.path)
		}
		if v, ok := s.addArchive(f.path, data); !ok {
			s.strays = append(s.strays, v)
			s.archiveStrays = append(s.archiveStrays, v)
			continue
		}
		if trustOnly {
			s.archives[f.path].keepOnly(promoted, cited[f.path])
		}
		s.archives[f.path].sig = f.sig
		s.archives[f.path].racy = f.sig.racy(time.Now())
	}
	// Only some archives changed (a writer batch appended to one of them):
	// update prev's source index for those, as an install's plan does,
	// instead of rebuilding 100k entries for every read after a write.
	if trustOnly || prev != nil && sameSet(prev.promoted, promoted) && keepsArchives(prev, s) && s.indexChanged(prev, fresh) {
		return s, nil
	}
	for p := range reused {
		cp := *s.archives[p] // indexSources rebuilds entries; never touch prev's
		cp.sources = nil
		s.archives[p] = &cp
	}
	s.indexSources()
	return s, nil
}

// keepsArchives reports whether every archive of prev is still in s: an
// archive that went away (or became a stray) needs the whole index rebuilt.
func keepsArchives(prev, s *snapshot) bool {
	for _, p := range prev.archPaths {
		if s.archives[p] == nil {
			return false
		}
	}
	return true
}

// sameArchives reports whether the listed archive files are exactly the
// ones prev read, unchanged.
func sameArchives(prev *snapshot, listed []listedFile) bool {
	n, strays := 0, 0
	for _, f := range listed {
		a, ok := prev.archives[f.path]
		if !ok {
			if _, _, _, inLayout := archive.PathParts(f.path); inLayout {
				return false
			}
			strays++
			continue
		}
		if a.sig != f.sig || a.sig == (fileSig{}) || a.racy {
			return false
		}
		n++
	}
	return n == len(prev.archPaths) && strays == len(prev.archiveStrays)
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// fileSig identifies one version of a file without reading it. ctime is in
// it because only a change sets it: an edit keeping size and mtime (touch -r)
// still moves ctime; a file put back by git or a copy has a new inode.
type fileSig struct {
	size, mtime, ctime int64
	ino                uint64
}

// statSig is the signature of a file from its lstat information.
func statSig(fi fs.FileInfo) fileSig {
	m := manifest.SigOf(fi)
	return fileSig{size: m.Size, mtime: m.MtimeNS, ctime: m.CtimeNS, ino: m.Ino}
}

// listedFile is one Markdown file found by listMarkdown.
type listedFile struct {
	path string // slash path relative to the workspace root
	sig  fileSig
}

// listMarkdown is workspace.ListMarkdown with each file's signature.
func listMarkdown(root, sub string) ([]listedFile, []errcode.Violation, error) {
	files, strays, err := workspace.ListMarkdown(root, sub)
	if err != nil {
		return nil, nil, err
	}
	out := make([]listedFile, len(files))
	for i, f := range files {
		if out[i].path = f.Path; f.Info != nil {
			out[i].sig = statSig(f.Info)
		}
	}
	return out, strays, nil
}

func (s *snapshot) setTopic(p string, data []byte) {
	f, probs := topic.Parse(data)
	if _, ok := s.topics[p]; !ok {
		s.topicPaths = insertSorted(s.topicPaths, p)
	}
	s.topics[p] = &topicFile{path: p, data: data, file: f, problems: probs, defs: f.Definitions()}
}

// insertSorted inserts p into the sorted list; loading in sorted order
// appends at the end, so a whole load stays linear.
func insertSorted(list []string, p string) []string {
	if n := len(list); n == 0 || list[n-1] < p {
		return append(list, p)
	}
	return slices.Insert(list, sort.SearchStrings(list, p), p)
}

func (s *snapshot) removeTopic(p string) {
	delete(s.topics, p)
	for i, q := range s.topicPaths {
		if q == p {
			s.topicPaths = append(s.topicPaths[:i], s.topicPaths[i+1:]...)
			break
		}
	}
}

// addArchive parses one archive; it reports false for a file outside the
// archive layout.
func (s *snapshot) addArchive(p string, data []byte) (errcode.Violation, bool) {
	provider, thread, inV2, ok := archive.PathParts(p)
	if !ok {
		return errcode.Violation{Code: "unexpected_file", Path: p, Message: "source archives live at sources/<provider>/_v2/<thread>.md (or the frozen legacy sources/<provider>/<thread>.md)"}, false
	}
	a := &archiveFile{path: p, provider: provider, thread: thread, data: data, sum: &manifest.Cached{}, anchorIx: &anchorIndex{}}
	// The location decides the format: a file at the legacy path is frozen
	// legacy evidence even if it carries the v2 marker, so none of its
	// speaker markers can be trusted (SPEC §3.2).
	if inV2 {
		frames, err := archive.ParseV2(data)
		a.frames = frames
		var fe *archive.FrameError
		if errors.As(err, &fe) {
			a.stopErr = fe
		} else if err != nil {
			a.stopErr = &archive.FrameError{Line: 1, Reason: err.Error()}
		}
	} else {
		a.legacy = true
		a.records = archive.ParseLegacy(data)
	}
	if _, exists := s.archives[p]; !exists {
		s.archPaths = insertSorted(s.archPaths, p)
	}
	s.archives[p] = a
	return errcode.Violation{}, true
}

// indexSources builds the source maps from the parsed archives. Legacy
// records are indexed first so a v2 frame of the same source-id replaces
// them (SPEC §3.2: v2 is preferred once it exists).
func (s *snapshot) indexSources() {
	n := 0 // sized, not grown: growing it was 8% of a fresh update (issue 26)
	for _, a := range s.archives {
		n += len(a.frames) + len(a.records)
	}
	s.sources = overlay.New[*sourceEntry](n)
	for _, pass := range []bool{true, false} {
		for _, p := range s.archPaths {
			if a := s.archives[p]; a.legacy == pass {
				s.indexArchive(a)
			}
		}
	}
}

// indexArchive makes a's entries, in file order, and enters each source-id
// that is free or held by a record e wins over.
func (s *snapshot) indexArchive(a *archiveFile) {
	n := len(a.frames)
	if a.legacy {
		n = len(a.records)
	}
	a.sources = make([]*sourceEntry, 0, n)
	entries := make([]sourceEntry, n) // one allocation per archive, not per record
	for i := range n {
		e := &entries[i]
		e.file, e.pos = a, i
		if a.legacy {
			e.ref, e.anchor = archive.LegacyID(a.provider, a.thread, a.records[i])
		} else {
			f := &a.frames[i]
			e.ref, e.anchor, e.framePending = f.SourceID, f.Anchor, f.Pending
			e.pnd = trust.SourcePendingNow(f.Pending, s.promoted[f.SourceID])
		}
		a.sources = append(a.sources, e)
		if cur, dup := s.sources.Get(e.ref); !dup || wins(e, cur) {
			s.sources.Set(e.ref, e)
		}
	}
}

// keepOnly makes a's entries and keeps those at the anchors in keep, in
// file order, their strings copied; a's bytes and parse are let go.
func (a *archiveFile) keepOnly(promoted, keep map[string]bool) {
	(&snapshot{promoted: promoted, sources: overlay.New[*sourceEntry](0)}).indexArchive(a)
	var kept []*sourceEntry
	for _, e := range a.sources {
		if keep[e.anchor] {
			kept = append(kept, &sourceEntry{file: a, ref: strings.Clone(e.ref), anchor: strings.Clone(e.anchor), pos: len(kept),
				framePending: e.framePending, pnd: e.pnd})
		}
	}
	a.sources, a.data, a.frames, a.records = kept, nil, nil, nil
}

// view is the record as result.SourceView, built from its frame or record.
func (e *sourceEntry) view() result.SourceView {
	if e.file.legacy {
		return sourceview.Legacy(e.file.path, e.ref, e.anchor, &e.file.records[e.pos])
	}
	return sourceview.Frame(e.file.path, &e.file.frames[e.pos], e.pnd)
}

// anchorIndex is an archive's anchors with their positions, built on the
// first lookup in the archive: a map of every record's "path#anchor" cost
// a tenth of a 1M snapshot, and most archives are never looked up.
type anchorIndex struct {
	once sync.Once
	pos  map[string]int
}

// anchorEntry is the record at an anchor of archive p (of duplicates, the
// last in the file).
func (s *snapshot) anchorEntry(p, anchor string) (*sourceEntry, bool) {
	a := s.archives[p]
	if a == nil {
		return nil, false
	}
	ix := a.anchorIx
	ix.once.Do(func() {
		ix.pos = make(map[string]int, len(a.sources))
		for i, e := range a.sources {
			ix.pos[e.anchor] = i
		}
	})
	i, ok := ix.pos[anchor]
	if !ok {
		return nil, false
	}
	return a.sources[i], true
}

// forgotten reports whether the record is a tombstone or a blanked legacy record.
func (e *sourceEntry) forgotten() bool {
	if e.file.legacy {
		return archive.LegacyForgotten(e.file.records[e.pos])
	}
	return e.file.frames[e.pos].Forgotten
}

// pending reports whether a source is pending now.
func (e *sourceEntry) pending() bool { return e.pnd }

// resolveCitation finds the source a footnote citation names. relPath is
// relative to the topic file's directory. It returns the workspace path too.
func (s *snapshot) resolveCitation(topicPath string, c topic.Citation) (*sourceEntry, string) {
	target := resolveRel(topicPath, c.Path)
	e, ok := s.anchorEntry(target, c.Anchor)
	if !ok || e.ref != c.SourceID {
		return nil, target
	}
	return e, target
}

// resolveRel resolves a relative link target against a topic file's
// directory and returns a clean slash path relative to the workspace root
// ("" if it escapes the workspace).
func resolveRel(from, rel string) string { return topic.ResolvePath(from, rel) }

// relFrom is the inverse of resolveRel: the relative path from a file to a
// workspace path.
func relFrom(from, target string) string { return topic.RelPath(from, target) }

// citationState is the trust resolver's view of one citation.
func (s *snapshot) citationState(topicPath string, c topic.Citation) trust.SourceState {
	e, _ := s.resolveCitation(topicPath, c)
	switch {
	case e == nil:
		return trust.SourceMissing
	case e.pending():
		return trust.SourcePending
	}
	return trust.SourceTrusted
}

// blockTrusted resolves a block's trust: all or nothing over the citations
// of every footnote it references.
func (s *snapshot) blockTrusted(tf *topicFile, b topic.Element) bool {
	defs := tf.definitions()
	var cited []topic.Citation
	for _, r := range b.Refs {
		d, ok := defs[r.Label]
		if !ok {
			return false // a reference without a definition cannot be resolved
		}
		cited = append(cited, d.Sources...)
	}
	return trust.BlockTrusted(cited, func(c topic.Citation) trust.SourceState { return s.citationState(tf.path, c) })
}
