package render

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// Node kinds and edge kinds of relations.json.
const (
	NodeTopic        = "topic"
	NodeBlock        = "block"
	EdgeContains     = "contains"      // topic → block
	EdgeLinks        = "links"         // block → block it links to
	EdgeSharesSource = "shares_source" // block — block, from < to
)

// RelationNode is a topic (id = its workspace path) or a trusted block
// (id = its block id).
type RelationNode struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// RelationEdge joins two nodes. Sources lists the source-ids two blocks
// both cite; it is set on shares_source edges only.
type RelationEdge struct {
	Kind    string   `json:"kind"`
	From    string   `json:"from"`
	To      string   `json:"to"`
	Sources []string `json:"sources,omitempty"`
}

// RelationGraph is the content of relations.json.
type RelationGraph struct {
	Nodes []RelationNode `json:"nodes"`
	Edges []RelationEdge `json:"edges"`
}

// Graph builds the relation graph of the trusted blocks. Nodes are topics
// in path order, then blocks in path and file order. Edges are sorted by
// kind, from, to. Links to blocks that are missing or untrusted are left
// out, as are self-links; of blocks sharing an id, the first in path order
// wins.
func Graph(topics []Topic) RelationGraph {
	g := RelationGraph{Nodes: []RelationNode{}, Edges: []RelationEdge{}}
	paths := make([]string, 0, len(topics))
	for _, t := range topics {
		paths = append(paths, t.Path)
	}
	entries := trustedEntries(topics)
	known := map[string]bool{}
	var blocks []entry
	for _, e := range entries {
		if known[e.block.ID] {
			continue
		}
		known[e.block.ID] = true
		blocks = append(blocks, e)
		paths = append(paths, e.path)
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		g.Nodes = append(g.Nodes, RelationNode{ID: p, Kind: NodeTopic, Path: p})
	}

	cited := map[string][]string{} // source-id → ids of blocks citing it
	for _, e := range blocks {
		id := e.block.ID
		g.Nodes = append(g.Nodes, RelationNode{ID: id, Kind: NodeBlock, Path: e.path})
		g.Edges = append(g.Edges, RelationEdge{Kind: EdgeContains, From: e.path, To: id})
		var targets []string
		for _, l := range e.block.Links {
			if to := normalizeID(l); known[to] && to != id && !slices.Contains(targets, to) {
				targets = append(targets, to)
				g.Edges = append(g.Edges, RelationEdge{Kind: EdgeLinks, From: id, To: to})
			}
		}
		for _, f := range e.block.Footnotes {
			for _, c := range f.Sources {
				if c.SourceID == "" {
					continue
				}
				if ids := cited[c.SourceID]; len(ids) == 0 || ids[len(ids)-1] != id {
					cited[c.SourceID] = append(ids, id)
				}
			}
		}
	}

	type pair struct{ a, b string }
	shared := map[pair][]string{}
	for src, ids := range cited {
		slices.Sort(ids)
		ids = slices.Compact(ids)
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				shared[pair{a, b}] = append(shared[pair{a, b}], src)
			}
		}
	}
	for p, srcs := range shared {
		slices.Sort(srcs)
		g.Edges = append(g.Edges, RelationEdge{Kind: EdgeSharesSource, From: p.a, To: p.b, Sources: srcs})
	}
	slices.SortFunc(g.Edges, func(x, y RelationEdge) int {
		return cmp.Or(strings.Compare(x.Kind, y.Kind), strings.Compare(x.From, y.From), strings.Compare(x.To, y.To))
	})
	return g
}

// Relations renders relations.json (SPEC §8): Graph as indented JSON with
// a final newline.
func Relations(topics []Topic) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// Encoding structs of strings cannot fail.
	_ = enc.Encode(Graph(topics))
	return buf.Bytes()
}
