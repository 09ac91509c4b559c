package engine

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"scriptorium/engine/index"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// A search needs the whole workspace only to bring the index up to date.
// When the index already is a fresh build of the files on disk (the same
// signatures, racy files unchanged, the same promotions), the search
// service (engine/search) answers from the index and reads only the files
// holding a hit, for their snippets: a stat walk instead of reading and
// parsing everything. Listing is that walk.

// Listing is a stat walk of the workspace's memory files.
type Listing struct {
	root     string
	promoted map[string]bool
	sigs     map[string]fileSig
	fp       string
}

// List stats the memory files; ok is false when any could not be stat'ed
// or the ledger read (the caller then takes the full path, which says
// why).
func (e *Engine) List(ctx context.Context) (*Listing, bool) {
	promoted, err := e.ledger.Promoted(ctx)
	if err != nil {
		return nil, false
	}
	root := e.ws.Root()
	sigs, fp, ok := listFingerprint(root, promoted)
	if !ok {
		return nil, false
	}
	return &Listing{root: root, promoted: promoted, sigs: sigs, fp: fp}, true
}

// Fingerprint is the fingerprint a snapshot of the listed files would
// have.
func (l *Listing) Fingerprint() string { return l.fp }

// HitTexts reads the files holding hits, each only if it is still the
// version the walk saw, and returns the text of each hit's document; ok
// is false when a file moved (the index may describe another version).
func (l *Listing) HitTexts(hits []index.Hit) ([]string, bool) {
	hf, ok := loadHitFiles(l.root, l.promoted, l.sigs, hits)
	if !ok {
		return nil, false
	}
	texts := make([]string, len(hits))
	for i, h := range hits {
		texts[i] = hf.text(h)
	}
	return texts, true
}

// listFingerprint stats the workspace's memory files and returns their
// signatures by path and the fingerprint a snapshot of them would have.
// Strays do not count (a snapshot skips them too).
func listFingerprint(root string, promoted map[string]bool) (map[string]fileSig, string, bool) {
	topics, _, err := listMarkdown(root, "topics")
	if err != nil {
		return nil, "", false
	}
	sources, _, err := listMarkdown(root, "sources")
	if err != nil {
		return nil, "", false
	}
	sigs := make(map[string]fileSig, len(topics)+len(sources))
	lines := make([]fpLine, 0, len(topics)+len(sources))
	for _, f := range topics {
		lines = append(lines, fpLine(f))
		sigs[f.path] = f.sig
	}
	for _, f := range sources {
		if _, _, _, inLayout := archivePathParts(f.path); inLayout {
			lines = append(lines, fpLine(f))
			sigs[f.path] = f.sig
		}
	}
	for _, l := range lines {
		if l.sig == (fileSig{}) {
			return nil, "", false // could not be stat'ed: let the full path say why
		}
	}
	return sigs, fingerprintOf(root, lines, promoted), true
}

// hitFiles are the files holding a search's hits, read as the stat walk
// saw them: topic files parsed, v2 archives kept as bytes (FindFrame reads
// the one record needed), legacy archives parsed.
type hitFiles struct {
	s  *snapshot
	v2 map[string][]byte
}

// loadHitFiles reads just the files that hold hits, each only if it is
// still the version the stat walk saw (otherwise the index may describe
// another version, and ok is false).
func loadHitFiles(root string, promoted map[string]bool, listed map[string]fileSig, hits []index.Hit) (*hitFiles, bool) {
	hf := &hitFiles{s: &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: promoted}, v2: map[string][]byte{}}
	for _, h := range hits {
		if hf.has(h.Path) {
			continue
		}
		want, ok := listed[h.Path]
		if !ok {
			return nil, false
		}
		data, ok := readIfSig(filepath.Join(root, filepath.FromSlash(h.Path)), want)
		if !ok {
			return nil, false
		}
		if h.Kind != index.KindSource {
			hf.s.setTopic(h.Path, data)
			continue
		}
		if _, _, v2, _ := archivePathParts(h.Path); v2 {
			hf.v2[h.Path] = data
			continue
		}
		if _, ok := hf.s.addArchive(h.Path, data); !ok {
			return nil, false
		}
	}
	return hf, true
}

func (hf *hitFiles) has(p string) bool {
	_, t := hf.s.topics[p]
	_, a := hf.s.archives[p]
	_, v := hf.v2[p]
	return t || a || v
}

// text is the text of a hit's document. The index describes exactly these
// file versions, so the record at the hit's anchor is the one it indexed
// (for duplicates in one archive, the first: the one preferred for its
// source-id).
func (hf *hitFiles) text(h index.Hit) string {
	if h.Kind != index.KindSource {
		if tf, ok := hf.s.topics[h.Path]; ok {
			if b, ok := tf.file.Block(h.Ref); ok {
				return topic.BlockText(b)
			}
		}
		return ""
	}
	if data, ok := hf.v2[h.Path]; ok {
		if f, ok := archive.FindFrame(data, h.Anchor); ok {
			return f.Content
		}
		return ""
	}
	if a, ok := hf.s.archives[h.Path]; ok {
		for _, r := range a.records {
			if e := hf.s.legacyEntry(a, r); e.view.Anchor == h.Anchor && e.view.Ref == h.Ref {
				return e.view.Content
			}
		}
	}
	return ""
}

// readIfSig reads a file if its signature, taken on the open file, is
// want.
func readIfSig(path string, want fileSig) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || statSig(fi) != want {
		return nil, false
	}
	data, err := io.ReadAll(f)
	if err != nil || int64(len(data)) != want.size {
		return nil, false
	}
	return data, true
}
