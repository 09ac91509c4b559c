package render

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// relState is the relation graph of a ViewSet, kept by block id. Of the
// blocks sharing an id the first in path order is the winner, as in Graph:
// only winners become nodes, only links to winners are edges, and a
// winner's citations make the shares_source pairs.
type relState struct {
	owners   map[string][]string       // id → sorted paths holding a trusted block with it
	reg      map[string]relReg         // id → the winner registered in the maps below
	ids      buckets[string]           // winner ids, each bucket with its ids' links edges
	linkedBy map[string]map[string]int // target id → winner ids linking to it
	citedBy  map[string]map[string]int // source-id → winner ids citing it
	pairs    map[relPair]map[string]bool
	pairList buckets[relPair]   // keys of pairs, each bucket with its shares_source edges
	pairEdge map[relPair][]byte // pair → its shares_source edge (with its leading comma), until it changes

	links      map[string][]byte // winner id → its links edges (each with its leading comma)
	dirtyLinks map[string]bool
	topicNode  map[string][]byte // path → its topic node
	fileNodes  map[string][]byte // path → its winners' block nodes, file order
	contains   map[string][]byte // path → its winners' contains edges, by id
	dirtyFiles map[string]bool

	files map[string]*vsTopic // the ViewSet's topics, by path
	out   []byte              // the last render; nil = render again
}

// relReg is the winner of one id: its topic and its entry there.
type relReg struct {
	vt *vsTopic
	e  *vsEntry
}

type relPair struct{ a, b string }

func comparePairs(x, y relPair) int {
	return cmp.Or(strings.Compare(x.a, y.a), strings.Compare(x.b, y.b))
}

func newRelState(files map[string]*vsTopic) relState {
	return relState{files: files, owners: map[string][]string{}, reg: map[string]relReg{}, linkedBy: map[string]map[string]int{},
		citedBy: map[string]map[string]int{}, pairs: map[relPair]map[string]bool{}, pairEdge: map[relPair][]byte{},
		links: map[string][]byte{}, ids: newBuckets(strings.Compare),
		pairList:   newBuckets(comparePairs),
		dirtyLinks: map[string]bool{}, topicNode: map[string][]byte{}, fileNodes: map[string][]byte{},
		contains: map[string][]byte{}, dirtyFiles: map[string]bool{}}
}

// firstEntries returns the first entry of each id in vt, in file order.
func firstEntries(vt *vsTopic) []*vsEntry {
	var out []*vsEntry
	seen := map[string]bool{}
	for i := range vt.entries {
		if e := &vt.entries[i]; !seen[e.id] {
			seen[e.id] = true
			out = append(out, e)
		}
	}
	return out
}

func (r *relState) addTopic(vt *vsTopic) {
	r.out = nil
	r.topicNode[vt.path] = appendNode([]byte{','}, RelationNode{ID: vt.path, Kind: NodeTopic, Path: vt.path})
	r.dirtyFiles[vt.path] = true
	for _, e := range firstEntries(vt) {
		r.owners[e.id] = insertString(r.owners[e.id], vt.path)
		if r.owners[e.id][0] == vt.path {
			r.setWinner(e.id, relReg{vt: vt, e: e})
		}
	}
}

func (r *relState) removeTopic(vt *vsTopic) {
	r.out = nil
	delete(r.topicNode, vt.path)
	delete(r.fileNodes, vt.path)
	delete(r.contains, vt.path)
	delete(r.dirtyFiles, vt.path)
	for _, e := range firstEntries(vt) {
		wasWinner := r.reg[e.id].vt == vt
		ps := removeString(r.owners[e.id], vt.path)
		if len(ps) == 0 {
			delete(r.owners, e.id)
		} else {
			r.owners[e.id] = ps
		}
		if !wasWinner {
			continue
		}
		if len(ps) == 0 {
			r.setWinner(e.id, relReg{})
			continue
		}
		r.setWinner(e.id, r.entryIn(ps[0], e.id))
	}
}

// entryIn returns the topic at path and its first entry for id: when a
// duplicate id's winner goes, the next holder in path order takes over.
func (r *relState) entryIn(path, id string) relReg {
	vt := r.files[path]
	for i := range vt.entries {
		if vt.entries[i].id == id {
			return relReg{vt: vt, e: &vt.entries[i]}
		}
	}
	return relReg{}
}

// setWinner makes w the winner of id (the zero relReg: no block has id).
func (r *relState) setWinner(id string, w relReg) {
	old, had := r.reg[id]
	if had {
		r.dirtyFiles[old.vt.path] = true
		for _, to := range old.e.links {
			decr(r.linkedBy, to, id)
		}
		for _, src := range distinct(old.e.sources) {
			decr(r.citedBy, src, id)
			for o := range r.citedBy[src] {
				r.pairSource(id, o, src, false)
			}
		}
	}
	if w.vt == nil {
		delete(r.reg, id)
		delete(r.links, id)
		delete(r.dirtyLinks, id)
		r.ids.remove(id)
		for from := range r.linkedBy[id] {
			r.dirtyLinks[from] = true
		}
		return
	}
	r.reg[id] = w
	r.dirtyFiles[w.vt.path] = true
	r.dirtyLinks[id] = true
	for _, to := range w.e.links {
		incr(r.linkedBy, to, id)
	}
	for _, src := range distinct(w.e.sources) {
		for o := range r.citedBy[src] {
			r.pairSource(id, o, src, true)
		}
		incr(r.citedBy, src, id)
	}
	if !had {
		r.ids.insert(id)
		for from := range r.linkedBy[id] {
			r.dirtyLinks[from] = true
		}
	}
}

// pairSource adds or removes src from the shares_source pair of a and b.
func (r *relState) pairSource(a, b, src string, add bool) {
	if a == b {
		return
	}
	if b < a {
		a, b = b, a
	}
	k := relPair{a, b}
	delete(r.pairEdge, k)
	r.pairList.touch(k)
	set := r.pairs[k]
	if add {
		if set == nil {
			set = map[string]bool{}
			r.pairs[k] = set
			r.pairList.insert(k)
		}
		set[src] = true
		return
	}
	delete(set, src)
	if len(set) == 0 && set != nil {
		delete(r.pairs, k)
		r.pairList.remove(k)
	}
}

func incr(m map[string]map[string]int, k, v string) {
	if m[k] == nil {
		m[k] = map[string]int{}
	}
	m[k][v]++
}

func decr(m map[string]map[string]int, k, v string) {
	if m[k][v]--; m[k][v] <= 0 {
		delete(m[k], v)
		if len(m[k]) == 0 {
			delete(m, k)
		}
	}
}

func distinct(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	return slices.Compact(out)
}

// render returns relations.json, rendering again only the fragments of
// the files and ids that changed.
func (r *relState) render(v *ViewSet) []byte {
	if r.out != nil {
		return r.out
	}
	for path := range r.dirtyFiles {
		vt := v.files[path]
		if vt == nil {
			continue // removed since it was marked
		}
		var nodes, contains []byte
		var ids []string
		for _, e := range firstEntries(vt) {
			if r.reg[e.id].vt != vt {
				continue
			}
			nodes = appendNode(append(nodes, ','), RelationNode{ID: e.id, Kind: NodeBlock, Path: path})
			ids = append(ids, e.id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			contains = appendEdge(append(contains, ','), RelationEdge{Kind: EdgeContains, From: path, To: id})
		}
		r.fileNodes[path], r.contains[path] = nodes, contains
	}
	clear(r.dirtyFiles)
	for id := range r.dirtyLinks {
		var targets []string
		for _, to := range r.reg[id].e.links {
			if _, known := r.reg[to]; known && to != id && !slices.Contains(targets, to) {
				targets = append(targets, to)
			}
		}
		slices.Sort(targets)
		var b []byte
		for _, to := range targets {
			b = appendEdge(append(b, ','), RelationEdge{Kind: EdgeLinks, From: id, To: to})
		}
		r.links[id] = b
		r.ids.touch(id)
	}
	clear(r.dirtyLinks)

	linksOf := func(out []byte, ids []string) []byte {
		for _, id := range ids {
			out = append(out, r.links[id]...)
		}
		return out
	}
	// The pairs are most of the file at 100k records: each is encoded
	// once and again only when its sources change.
	pairsOf := func(out []byte, keys []relPair) []byte {
		edges := make([][]byte, len(keys))
		n := 0
		for i, k := range keys {
			edge, ok := r.pairEdge[k]
			if !ok {
				srcs := make([]string, 0, len(r.pairs[k]))
				for s := range r.pairs[k] {
					srcs = append(srcs, s)
				}
				slices.Sort(srcs)
				edge = appendEdge([]byte{','}, RelationEdge{Kind: EdgeSharesSource, From: k.a, To: k.b, Sources: srcs})
				r.pairEdge[k] = edge
			}
			edges[i] = edge
			n += len(edge)
		}
		out = slices.Grow(out, n)
		for _, edge := range edges {
			out = append(out, edge...)
		}
		return out
	}
	// The file's length, known before it is joined: growing a slice of
	// megabytes by doubling copies and touches fresh memory several times
	// over, which a fresh process's one render paid in full (issue 26).
	size := len("{\n  \"nodes\": [\n  ],\n  \"edges\": [\n  ]\n}\n") + r.ids.rendered(linksOf) + r.pairList.rendered(pairsOf)
	for _, p := range v.paths {
		size += len(r.topicNode[p]) + len(r.fileNodes[p]) + len(r.contains[p])
	}
	b := append(make([]byte, 0, size), "{\n  \"nodes\": ["...)
	first := true
	for _, p := range v.paths {
		b = appendElems(b, r.topicNode[p], &first)
	}
	for _, p := range v.paths {
		b = appendElems(b, r.fileNodes[p], &first)
	}
	b = closeArray(b, first)
	b = append(b, "],\n  \"edges\": ["...)
	first = true
	for _, p := range v.paths {
		b = appendElems(b, r.contains[p], &first)
	}
	b = r.ids.appendTo(b, &first, linksOf)
	b = r.pairList.appendTo(b, &first, pairsOf)
	b = closeArray(b, first)
	r.out = append(b, "]\n}\n"...)
	return r.out
}

// closeArray ends a non-empty array's last line as appendGraph does
// (empty: nothing was appended since first was set).
func closeArray(b []byte, empty bool) []byte {
	if empty {
		return b
	}
	return append(b, "\n  "...)
}
