package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"scriptorium/engine/index"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
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

func toManifestSig(s fileSig) manifest.Sig {
	return manifest.Sig{Size: s.size, MtimeNS: s.mtime, CtimeNS: s.ctime, Ino: s.ino}
}

// summary is a topic file's manifest entry, without its signature; built
// once per parsed file (a snapshot shares unchanged files with the last).
func (tf *topicFile) summary() *manifest.Entry {
	return tf.sum.Get(func() *manifest.Entry { return manifest.TopicEntry(tf.path, tf.file, tf.definitions()) })
}

// summary is an archive's manifest entry, without its signature.
func (a *archiveFile) summary() *manifest.Entry {
	return a.sum.Get(func() *manifest.Entry {
		return manifest.ArchiveEntry(a.path, a.provider, a.thread, a.frames, a.records)
	})
}

// partialRead is a stat walk reconciled with the manifest.
type partialRead struct {
	*manifest.Listing
	root     string
	promoted map[string]bool
	listed   map[string]fileSig // in-layout memory files
	parsed   *snapshot          // files parsed while repairing the manifest
}

// readPartial stats the workspace and brings the manifest up to date with
// it. ok is false when a file could not be read as the walk saw it (it is
// changing right now): the caller takes the full path.
func (e *Engine) readPartial(ctx context.Context) (*partialRead, bool, error) {
	promoted, err := e.rec.Promoted(ctx)
	if err != nil {
		return nil, false, errcode.Wrap(errcode.IO, err, "state.db")
	}
	root := e.ws.Root()
	pr := &partialRead{Listing: &manifest.Listing{}, root: root, promoted: promoted, listed: map[string]fileSig{},
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
		pr.listed[f.path], pr.Topics = f.sig, append(pr.Topics, f.path)
	}
	for _, f := range sources {
		if _, _, _, ok := archive.PathParts(f.path); ok {
			pr.listed[f.path], pr.Archives = f.sig, append(pr.Archives, f.path)
		}
	}
	pr.M = manifest.Read(manifest.Path(root))
	sigs := make(map[string]manifest.Sig, len(pr.listed))
	for p, sig := range pr.listed {
		sigs[p] = toManifestSig(sig)
	}
	now := time.Now()
	changed, ok := pr.M.Reconcile(sigs, func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) },
		func(p string) (*manifest.Entry, bool) {
			if !pr.parse(p) {
				return nil, false
			}
			// Not kept: a repair of every file (no manifest yet) held them
			// all, 0.9 GiB at 1M; snapshotOf parses again the few it picks.
			ent := pr.entryOf(p, pr.listed[p], now)
			delete(pr.parsed.topics, p)
			delete(pr.parsed.archives, p)
			return ent, true
		})
	if !ok {
		return nil, false, nil
	}
	if changed {
		e.writeManifest(pr.M, now)
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

// writeManifest replaces the manifest, best effort (manifest.Write).
func (e *Engine) writeManifest(m *manifest.Manifest, now time.Time) {
	e.inc.man.Write(e.ws.RuntimeDir(), manifest.Path(e.ws.Root()), m, now)
}

// snapshotOf returns a snapshot of just the files named and the archives
// the named topic files cite. ok is false when a file changed while it
// was being read.
func (pr *partialRead) snapshotOf(paths []string) (*snapshot, bool) {
	want := pr.WithCites(paths)
	for p := range want {
		if !pr.parse(p) {
			return nil, false
		}
	}
	s := &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: pr.promoted}
	for _, p := range pr.Topics {
		if want[p] {
			s.topics[p], s.topicPaths = pr.parsed.topics[p], append(s.topicPaths, p)
		}
	}
	for _, p := range pr.Archives {
		if want[p] {
			a := *pr.parsed.archives[p] // indexSources fills entries: keep pr's untouched
			a.sources = nil
			s.archives[p], s.archPaths = &a, append(s.archPaths, p)
		}
	}
	s.indexSources()
	return s, true
}

// fingerprint is the fingerprint a full snapshot of the listed files has.
func (pr *partialRead) fingerprint() string {
	files := make([]index.FileSig, 0, len(pr.listed))
	for _, list := range [][]string{pr.Topics, pr.Archives} {
		for _, p := range list {
			files = append(files, index.FileSig{Path: p, Sig: toManifestSig(pr.listed[p])})
		}
	}
	return index.Fingerprint(pr.root, files, pr.promoted)
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
