// Package deps is the dependency index of a workspace's memory files:
// which topic files depend on which workspace paths and source-ids, who
// holds each block id, and which v2 archives hold each source-id. The core
// keeps one in step with its snapshots, file by file, so bringing it up to
// date costs what changed; incremental derived views and the install's
// validation ask it which files a change can affect. A leaf: it knows the
// topic and archive formats, not the engine.
package deps

import (
	"slices"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// Topic is what one parsed topic file's trust and violations depend on.
type Topic struct {
	Blocks  []BlockCites // per block of File.Blocks(), for trust
	Targets []string     // distinct workspace paths its citations and links resolve to, itself excluded
	Refs    []string     // distinct source-ids its definitions cite
	IDs     []string     // distinct block ids
}

// BlockCites is one block's citations, resolved to anchor keys.
type BlockCites struct {
	Defined bool     // every footnote reference has a definition
	Keys    []string // "path#anchor" of each citation, the path resolved against the file's
	Refs    []string // the source-id each citation names
}

// AddAnchors adds to cited, by archive path, the anchors that the
// citations of a topic file's footnote definitions defs name, the paths
// resolved against the file's path: every record a block's trust can
// depend on (the core's trust-only read keeps only these).
func AddAnchors(cited map[string]map[string]bool, path string, defs map[string]*topic.Definition) {
	for _, d := range defs {
		for _, c := range d.Sources {
			p := topic.ResolvePath(path, c.Path)
			if cited[p] == nil {
				cited[p] = map[string]bool{}
			}
			cited[p][c.Anchor] = true
		}
	}
}

// OfTopic returns the dependencies of the topic file f at path, whose
// footnote definitions are defs.
func OfTopic(path string, f *topic.File, defs map[string]*topic.Definition) *Topic {
	d := &Topic{}
	targets, refs, ids := map[string]bool{}, map[string]bool{}, map[string]bool{}
	// A file's citations name a few archives many times over: each
	// relative path is resolved once (path.Join was most of this function).
	resolved := map[string]string{}
	resolve := func(rel string) string {
		p, ok := resolved[rel]
		if !ok {
			p = topic.ResolvePath(path, rel)
			resolved[rel] = p
		}
		return p
	}
	for _, b := range f.Blocks() {
		bc := BlockCites{Defined: true}
		for _, r := range b.Refs {
			def, ok := defs[r.Label]
			if !ok {
				bc.Defined = false
				break
			}
			for _, c := range def.Sources {
				bc.Keys = append(bc.Keys, resolve(c.Path)+"#"+c.Anchor)
				bc.Refs = append(bc.Refs, c.SourceID)
			}
		}
		d.Blocks = append(d.Blocks, bc)
		ids[b.BlockID] = true
	}
	for _, def := range defs {
		for _, c := range def.Sources {
			refs[c.SourceID] = true
		}
	}
	for _, e := range f.Elements {
		if e.Def != nil {
			for _, c := range e.Def.Sources {
				targets[resolve(c.Path)] = true
			}
		}
		for _, l := range e.Links {
			if l.Path != "" {
				targets[resolve(l.Path)] = true
			}
		}
	}
	delete(targets, path)
	d.Targets, d.Refs, d.IDs = SortedKeys(targets), SortedKeys(refs), SortedKeys(ids)
	return d
}

// Index is the dependency index of a set of files. The zero value is
// empty; files are added and dropped one at a time.
type Index struct {
	archRefs map[string][]string       // v2 archive path → distinct source-ids of its frames
	citers   map[string]map[string]int // workspace path → topic paths whose citations or links reach it
	refCite  holders                   // source-id → topic paths citing it
	idHold   holders                   // block id → topic paths holding it
	// source-id → the v2 archive holding a frame of it; refMore holds the
	// source-ids more than one archive holds. A set per source-id cost a
	// third of a 1M snapshot (issue 26): almost every one is in one archive.
	refHold map[string]string
	refMore map[string]map[string]struct{}
	// unread holds the archives added but not yet indexed, by path. Only
	// a plan that changes an archive asks about archives; indexing every
	// source-id of the workspace up front was a tenth of a one-file
	// `update` in a fresh process (issue 26), which never asks.
	unread map[string][]archive.Frame
}

func (x *Index) init() {
	if x.citers == nil {
		*x = Index{archRefs: map[string][]string{}, citers: map[string]map[string]int{}, refCite: holders{},
			idHold: holders{}, refHold: map[string]string{}, refMore: map[string]map[string]struct{}{},
			unread: map[string][]archive.Frame{}}
	}
}

// AddTopic indexes the topic file at p with dependencies d.
func (x *Index) AddTopic(p string, d *Topic) { x.topic(p, d, 1) }

// DropTopic removes the topic file at p, indexed with dependencies d.
func (x *Index) DropTopic(p string, d *Topic) { x.topic(p, d, -1) }

func (x *Index) topic(p string, d *Topic, by int) {
	x.init()
	for _, t := range d.Targets {
		bump(x.citers, t, p, by)
	}
	for _, r := range d.Refs {
		x.refCite.bump(r, p, by)
	}
	for _, id := range d.IDs {
		x.idHold.bump(id, p, by)
	}
}

// AddArchive indexes the v2 archive at p with its frames (a legacy
// archive holds no frames the index follows). The frames are read on the
// first question about archives, so they must not change until then.
func (x *Index) AddArchive(p string, frames []archive.Frame) {
	x.init()
	_, indexed := x.archRefs[p]
	if _, waiting := x.unread[p]; indexed || waiting {
		x.readArchives() // added again without a drop: as it always did
		x.addArchive(p, frames)
		return
	}
	x.unread[p] = frames
}

// readArchives indexes the archives added since the last question.
func (x *Index) readArchives() {
	for p, frames := range x.unread {
		x.addArchive(p, frames)
	}
	clear(x.unread)
}

func (x *Index) addArchive(p string, frames []archive.Frame) {
	refs := FrameRefs(frames)
	x.archRefs[p] = refs
	for _, r := range refs {
		if m := x.refMore[r]; m != nil {
			m[p] = struct{}{}
		} else if q, ok := x.refHold[r]; ok && q != p {
			delete(x.refHold, r)
			x.refMore[r] = map[string]struct{}{q: {}, p: {}}
		} else {
			x.refHold[r] = p
		}
	}
}

// DropArchive removes the archive at p.
func (x *Index) DropArchive(p string) {
	x.init()
	if _, ok := x.unread[p]; ok {
		delete(x.unread, p)
		return
	}
	for _, r := range x.archRefs[p] {
		if m := x.refMore[r]; m != nil {
			if delete(m, p); len(m) == 1 {
				for q := range m {
					x.refHold[r] = q
				}
				delete(x.refMore, r)
			}
		} else if x.refHold[r] == p {
			delete(x.refHold, r)
		}
	}
	delete(x.archRefs, p)
}

// Citers are the topic files whose citations or links reach path.
func (x *Index) Citers(path string) map[string]int { return x.citers[path] }

// Citing are the topic files citing the source-id.
func (x *Index) Citing(ref string) map[string]int { return x.refCite.of(ref) }

// Holding are the topic files holding the block id.
func (x *Index) Holding(id string) map[string]int { return x.idHold.of(id) }

// ArchivesHolding are the v2 archives holding a frame of the source-id.
func (x *Index) ArchivesHolding(ref string) map[string]struct{} {
	x.readArchives()
	if m := x.refMore[ref]; m != nil {
		return m
	}
	if p, ok := x.refHold[ref]; ok {
		return map[string]struct{}{p: {}}
	}
	return nil
}

// ArchiveRefs are the distinct source-ids of the frames of the v2 archive
// at p, as indexed.
func (x *Index) ArchiveRefs(p string) []string {
	x.readArchives()
	return x.archRefs[p]
}

// FrameRefs returns the distinct source-ids of frames, sorted.
func FrameRefs(frames []archive.Frame) []string {
	set := make(map[string]bool, len(frames))
	for _, f := range frames {
		set[f.SourceID] = true
	}
	return SortedKeys(set)
}

// bump counts v under k by by, dropping counts that reach zero.
func bump(m map[string]map[string]int, k, v string, by int) {
	if m[k] == nil {
		m[k] = map[string]int{}
	}
	if m[k][v] += by; m[k][v] <= 0 {
		delete(m[k], v)
		if len(m[k]) == 0 {
			delete(m, k)
		}
	}
}

// holders counts topic paths per key, as bump does, for keys almost
// always held by one path (a block id by one file, a source-id cited by
// one): that path and its count are kept inline and a map is made for a
// second. A map per key was 4% of a fresh one-file update (issue 26).
type holders map[string]holder

type holder struct {
	one  string         // the only path, when more is nil
	n    int            // its count
	more map[string]int // every path's count, once a second was added
}

// bump counts v under k by by, dropping counts that reach zero.
func (h holders) bump(k, v string, by int) {
	c, ok := h[k]
	switch {
	case c.more != nil:
		if c.more[v] += by; c.more[v] <= 0 {
			delete(c.more, v)
			if len(c.more) == 0 {
				delete(h, k)
			}
		}
	case !ok || c.one == v:
		if c.one, c.n = v, c.n+by; c.n > 0 {
			h[k] = c
		} else {
			delete(h, k)
		}
	case by > 0: // a second path
		h[k] = holder{more: map[string]int{c.one: c.n, v: by}}
	}
}

// of returns the paths holding k with their counts (nil for none); the
// map must not be changed.
func (h holders) of(k string) map[string]int {
	c, ok := h[k]
	switch {
	case !ok:
		return nil
	case c.more != nil:
		return c.more
	}
	return map[string]int{c.one: c.n}
}

// SortedKeys returns the keys of m, sorted.
func SortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// AddKeys adds the keys of m to set.
func AddKeys[V any](set map[string]bool, m map[string]V) {
	for k := range m {
		set[k] = true
	}
}
