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
	ids      []string                  // winner ids, sorted
	linkedBy map[string]map[string]int // target id → winner ids linking to it
	citedBy  map[string]map[string]int // source-id → winner ids citing it
	pairs    map[relPair]map[string]bool
	pairList []relPair // keys of pairs, sorted

	links      map[string][]byte // winner id → its links edges (each with its leading comma)
	dirtyLinks map[string]bool
	topicNode  map[string][]byte // path → its topic node
	fileNodes  map[string][]byte // path → its winners' block nodes, file order
	contains   map[string][]byte // path → its winners' contains edges, by id
	dirtyFiles map[string]bool

	files map[string]*vsTopic // the ViewSet's topics, by path
	out   []byte              // the last render; nil = render again
	size  int                 // the length of the last render
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
		citedBy: map[string]map[string]int{}, pairs: map[relPair]map[string]bool{}, links: map[string][]byte{},
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
		r.ids = removeString(r.ids, id)
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
		r.ids = insertString(r.ids, id)
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
	set := r.pairs[k]
	if add {
		if set == nil {
			set = map[string]bool{}
			r.pairs[k] = set
			i, _ := slices.BinarySearchFunc(r.pairList, k, comparePairs)
			r.pairList = slices.Insert(r.pairList, i, k)
		}
		set[src] = true
		return
	}
	delete(set, src)
	if len(set) == 0 && set != nil {
		delete(r.pairs, k)
		if i, ok := slices.BinarySearchFunc(r.pairList, k, comparePairs); ok {
			r.pairList = slices.Delete(r.pairList, i, i+1)
		}
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
	}
	clear(r.dirtyLinks)

	b := append(make([]byte, 0, r.size+64), "{\n  \"nodes\": ["...)
	start := len(b)
	for _, p := range v.paths {
		b = append(b, r.topicNode[p]...)
	}
	for _, p := range v.paths {
		b = append(b, r.fileNodes[p]...)
	}
	b = closeArray(b, start)
	b = append(b, "],\n  \"edges\": ["...)
	start = len(b)
	for _, p := range v.paths {
		b = append(b, r.contains[p]...)
	}
	for _, id := range r.ids {
		b = append(b, r.links[id]...)
	}
	for _, k := range r.pairList {
		srcs := make([]string, 0, len(r.pairs[k]))
		for s := range r.pairs[k] {
			srcs = append(srcs, s)
		}
		slices.Sort(srcs)
		b = appendEdge(append(b, ','), RelationEdge{Kind: EdgeSharesSource, From: k.a, To: k.b, Sources: srcs})
	}
	b = closeArray(b, start)
	r.out = append(b, "]\n}\n"...)
	r.size = len(r.out)
	return r.out
}

// closeArray drops the leading comma of the elements appended since start
// and ends a non-empty array's last line as appendGraph does.
func closeArray(b []byte, start int) []byte {
	if len(b) == start {
		return b
	}
	b = append(b[:start], b[start+1:]...)
	return append(b, "\n  "...)
}
