package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"scriptorium/workspace"
	"scriptorium/workspace/manifest"
)

// A one-shot reading verb (get, status, pending) needs a handful of files,
// not the workspace. The manifest (workspace/manifest) says which: per
// file its signature and summary. Opening for such a verb stats the tree,
// re-reads only the files whose signature moved since the manifest was
// written (and racy files whose hash moved), writes the repaired manifest
// back, and then parses just the files the answer is made of plus the
// archives their citations name. A long-lived engine keeps its whole
// snapshot in memory and does not use this path.

func (e *Engine) manifestPath() string {
	return filepath.Join(e.ws.Root(), ".scriptorium", manifest.FileName)
}

func toManifestSig(s fileSig) manifest.Sig {
	return manifest.Sig{Size: s.size, MtimeNS: s.mtime, CtimeNS: s.ctime, Ino: s.ino}
}

// summary is a topic file's manifest entry, without its signature; built
// once per parsed file (a snapshot shares unchanged files with the last).
func (tf *topicFile) summary() *manifest.Entry { return tf.sum.get(tf.summarise) }

// summaryCache holds a parsed file's manifest summary once built.
type summaryCache struct {
	once sync.Once
	ent  *manifest.Entry
}

// get returns a copy of the summary, building it on first use.
func (c *summaryCache) get(build func() *manifest.Entry) *manifest.Entry {
	if c == nil {
		return build()
	}
	c.once.Do(func() { c.ent = build() })
	cp := *c.ent
	return &cp
}

func (tf *topicFile) summarise() *manifest.Entry {
	ent := &manifest.Entry{Path: tf.path}
	for _, b := range tf.file.Blocks() {
		ent.Blocks = append(ent.Blocks, b.BlockID)
	}
	seen := map[string]bool{}
	for _, d := range tf.definitions() {
		for _, c := range d.Sources {
			if p := resolveRel(tf.path, c.Path); p != "" && !seen[p] {
				seen[p] = true
				ent.Cites = append(ent.Cites, p)
			}
		}
	}
	sort.Strings(ent.Cites)
	return ent
}

// summary is an archive's manifest entry, without its signature.
func (a *archiveFile) summary() *manifest.Entry { return a.sum.get(a.summarise) }

func (a *archiveFile) summarise() *manifest.Entry {
	ent := &manifest.Entry{Path: a.path}
	own := a.provider + "/" + a.thread + "/"
	foreign := func(id string) {
		if id != "" && !strings.HasPrefix(id, own) {
			ent.Foreign = append(ent.Foreign, id)
		}
	}
	for _, f := range a.frames {
		ent.Records++
		if f.Pending {
			ent.Pending = append(ent.Pending, f.SourceID)
		}
		foreign(f.SourceID)
	}
	for _, r := range a.records {
		ent.Records++
		foreign(r.SourceID)
	}
	return ent
}

// partialRead is a stat walk reconciled with the manifest.
type partialRead struct {
	root     string
	promoted map[string]bool
	listed   map[string]fileSig // in-layout memory files
	topics   []string           // listed topic paths, sorted
	archives []string           // listed archive paths, sorted
	m        *manifest.Manifest
	parsed   *snapshot // files parsed while repairing the manifest

	byThread, byForeign map[string][]string // archivesHolding's lookups, built on first use
}

// readPartial stats the workspace and brings the manifest up to date with
// it. ok is false when a file could not be read as the walk saw it (it is
// changing right now): the caller takes the full path.
func (e *Engine) readPartial(ctx context.Context) (*partialRead, bool, error) {
	promoted, err := e.ledger.Promoted(ctx)
	if err != nil {
		return nil, false, Wrap(CodeIO, err, "state.db")
	}
	root := e.ws.Root()
	pr := &partialRead{root: root, promoted: promoted, listed: map[string]fileSig{},
		parsed: &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: promoted}}
	topics, _, err := listMarkdown(root, "topics")
	if err != nil {
		return nil, false, err
	}
	sources, _, err := listMarkdown(root, "sources")
	if err != nil {
		return nil, false, err
	}
	for _, f := range topics {
		pr.listed[f.path], pr.topics = f.sig, append(pr.topics, f.path)
	}
	for _, f := range sources {
		if _, _, _, ok := archivePathParts(f.path); ok {
			pr.listed[f.path], pr.archives = f.sig, append(pr.archives, f.path)
		}
	}
	pr.m = e.readManifest()
	changed := false
	for _, p := range pr.m.Paths() {
		if _, ok := pr.listed[p]; !ok {
			pr.m.Delete(p)
			changed = true
		}
	}
	now := time.Now()
	for p, sig := range pr.listed {
		full := filepath.Join(root, filepath.FromSlash(p))
		if pr.m.Get(p).Describes(toManifestSig(sig), func() ([]byte, error) { return os.ReadFile(full) }) {
			continue
		}
		if !pr.parse(p) {
			return nil, false, nil
		}
		pr.m.Put(pr.entryOf(p, sig, now))
		changed = true
	}
	if changed {
		e.writeManifest(pr.m, now)
	}
	return pr, true, nil
}

// parse reads and parses one listed file into pr.parsed, if it is still
// the version the walk saw.
func (pr *partialRead) parse(p string) bool {
	if _, ok := pr.parsed.topics[p]; ok {
		return true
	}
	if _, ok := pr.parsed.archives[p]; ok {
		return true
	}
	sig := pr.listed[p]
	data, ok := readIfSig(filepath.Join(pr.root, filepath.FromSlash(p)), sig)
	if !ok {
		return false
	}
	if strings.HasPrefix(p, "topics/") {
		pr.parsed.setTopic(p, data)
		pr.parsed.topics[p].sig = sig
		return true
	}
	if _, ok := pr.parsed.addArchive(p, data); !ok {
		return false
	}
	pr.parsed.archives[p].sig = sig
	return true
}

// entryOf is the manifest entry of a file pr.parsed holds.
func (pr *partialRead) entryOf(p string, sig fileSig, now time.Time) *manifest.Entry {
	var ent *manifest.Entry
	var data []byte
	if tf, ok := pr.parsed.topics[p]; ok {
		ent, data = tf.summary(), tf.data
	} else {
		a := pr.parsed.archives[p]
		ent, data = a.summary(), a.data
	}
	ent.Sig = toManifestSig(sig)
	if sig.racy(now) {
		ent.SHA256 = manifest.Hash(data)
	}
	return ent
}

// recordManifest writes the manifest of a snapshot just installed, under
// the write lock: every transaction leaves a manifest that describes the
// files it wrote. Files the transaction produced in memory are stat'ed,
// and their hashes recorded (they are racy: just written).
func (e *Engine) recordManifest(s *snapshot) {
	now := time.Now()
	root := e.ws.Root()
	m := manifest.New()
	add := func(p string, sig fileSig, ent *manifest.Entry, data []byte) {
		if sig == (fileSig{}) {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				return // gone already: the next reader finds it missing
			}
			sig = statSig(fi)
		}
		ent.Sig = toManifestSig(sig)
		if sig.racy(now) {
			ent.SHA256 = manifest.Hash(data)
		}
		m.Put(ent)
	}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		add(p, tf.sig, tf.summary(), tf.data)
	}
	for _, p := range s.archPaths {
		a := s.archives[p]
		add(p, a.sig, a.summary(), a.data)
	}
	e.writeManifest(m, now)
}

// readManifest reads the manifest; a missing, damaged or unreadable one
// reads as empty, so every file is read again and the manifest rebuilt.
func (e *Engine) readManifest() *manifest.Manifest {
	data, err := os.ReadFile(e.manifestPath())
	if err != nil {
		return manifest.New()
	}
	m, err := manifest.Decode(data, e.manifestPath())
	if err != nil {
		return manifest.New()
	}
	return m
}

// writeManifest replaces the manifest, best effort: it is a cache, and a
// reader that finds it missing or stale reads the files instead. Two
// processes writing at once each install a complete, self-checking file.
func (e *Engine) writeManifest(m *manifest.Manifest, now time.Time) {
	_ = workspace.WriteFileAtomic(e.ws.RuntimeDir(), e.manifestPath(), m.Encode(now.UnixNano()))
}

// snapshotOf returns a snapshot of just the files named and the archives
// the named topic files cite. ok is false when a file changed while it
// was being read.
func (pr *partialRead) snapshotOf(paths []string) (*snapshot, bool) {
	want := map[string]bool{}
	for _, p := range paths {
		if _, ok := pr.listed[p]; !ok {
			continue
		}
		want[p] = true
		if ent := pr.m.Get(p); ent != nil {
			for _, c := range ent.Cites {
				if _, ok := pr.listed[c]; ok {
					want[c] = true
				}
			}
		}
	}
	for p := range want {
		if !pr.parse(p) {
			return nil, false
		}
	}
	s := &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: pr.promoted}
	for _, p := range pr.topics {
		if want[p] {
			s.topics[p], s.topicPaths = pr.parsed.topics[p], append(s.topicPaths, p)
		}
	}
	for _, p := range pr.archives {
		if want[p] {
			a := *pr.parsed.archives[p] // indexSources fills entries: keep pr's untouched
			a.sources = nil
			s.archives[p], s.archPaths = &a, append(s.archPaths, p)
		}
	}
	s.indexSources()
	return s, true
}

// archivesHolding names every archive that may hold a record of the
// source-id: the thread's own archives (v2 and legacy) and any archive the
// manifest lists it in as out of thread. The lookup tables are built once
// per read (a pending list asks for thousands of ids).
func (pr *partialRead) archivesHolding(id string) []string {
	if pr.byThread == nil {
		pr.byThread, pr.byForeign = map[string][]string{}, map[string][]string{}
		for _, p := range pr.archives {
			provider, thread, _, _ := archivePathParts(p)
			key := provider + "/" + thread + "/"
			pr.byThread[key] = append(pr.byThread[key], p)
			if ent := pr.m.Get(p); ent != nil {
				for _, f := range ent.Foreign {
					pr.byForeign[f] = append(pr.byForeign[f], p)
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	// A thread's key "provider/thread/" is a prefix of the id ending in a
	// slash: look each such prefix up.
	for i := 0; i < len(id); i++ {
		if id[i] != '/' {
			continue
		}
		for _, p := range pr.byThread[id[:i+1]] {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	for _, p := range pr.byForeign[id] {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// topicHolding names the first topic file (in path order) with the block.
func (pr *partialRead) topicHolding(id string) []string {
	for _, p := range pr.topics {
		if ent := pr.m.Get(p); ent != nil {
			for _, b := range ent.Blocks {
				if b == id {
					return []string{p}
				}
			}
		}
	}
	return nil
}

// fingerprint is the fingerprint a full snapshot of the listed files has.
func (pr *partialRead) fingerprint() string {
	lines := make([]fpLine, 0, len(pr.listed))
	for _, p := range pr.topics {
		lines = append(lines, fpLine{p, pr.listed[p]})
	}
	for _, p := range pr.archives {
		lines = append(lines, fpLine{p, pr.listed[p]})
	}
	return fingerprintOf(pr.root, lines, pr.promoted)
}

// pathsForRef names the files a get of ref reads (see snapshot.get).
func (pr *partialRead) pathsForRef(ref string) []string {
	ref = strings.TrimSpace(ref)
	if p, _, ok := strings.Cut(ref, "#"); ok {
		return []string{strings.TrimPrefix(p, "./")}
	}
	if id := strings.TrimPrefix(ref, "^"); len(id) == 8 {
		if hits := pr.topicHolding(id); hits != nil {
			return hits
		}
	}
	if strings.Count(ref, "/") >= 2 {
		return pr.archivesHolding(ref)
	}
	return nil
}

// pendingPaths names the archives the pending list is made of: those
// holding a frame marked pending that no promotion lifted, and every other
// archive holding a record of the same source-id (the preferred record
// decides).
func (pr *partialRead) pendingPaths() []string {
	var out []string
	for _, p := range pr.archives {
		ent := pr.m.Get(p)
		if ent == nil {
			continue
		}
		for _, id := range ent.Pending {
			if !pr.promoted[id] {
				out = append(out, pr.archivesHolding(id)...)
			}
		}
	}
	return out
}

// partial is a snapshot of just the files pick names, for a cold engine;
// ok is false when the caller must read the whole workspace instead (a
// warm engine, or files changing under the read).
func (e *Engine) partial(ctx context.Context, pick func(*partialRead) []string) (*snapshot, *partialRead, bool) {
	if e.warm() || e.opts.LongLived {
		return nil, nil, false
	}
	pr, ok, err := e.readPartial(ctx)
	if err != nil || !ok {
		return nil, nil, false
	}
	s, ok := pr.snapshotOf(pick(pr))
	if !ok {
		return nil, nil, false
	}
	e.partialReads.Add(1)
	return s, pr, true
}
