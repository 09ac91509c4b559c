package render

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
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
// a final newline, byte for byte what encoding/json's Encoder writes with
// SetIndent("", "  ") and SetEscapeHTML(false) (TestRelations_MatchesEncodingJSON).
// It is written by hand because every install re-renders it for the whole
// workspace, and the reflective encoder plus its indentation pass was the
// largest part of a writer batch's derived views (issue 14).
func Relations(topics []Topic) []byte {
	g := Graph(topics)
	return appendGraph(make([]byte, 0, 96*(len(g.Nodes)+len(g.Edges))+64), g)
}

func appendGraph(b []byte, g RelationGraph) []byte {
	b = append(b, "{\n  \"nodes\": ["...)
	for i, n := range g.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNode(b, n)
	}
	if len(g.Nodes) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"edges\": ["...)
	for i, e := range g.Edges {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEdge(b, e)
	}
	if len(g.Edges) > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, "]\n}\n"...)
}

// appendNode appends one element of the nodes array, without the comma
// that separates it from the one before.
func appendNode(b []byte, n RelationNode) []byte {
	b = append(b, "\n    {\n      \"id\": "...)
	b = appendJSONString(b, n.ID)
	b = append(b, ",\n      \"kind\": "...)
	b = appendJSONString(b, n.Kind)
	b = append(b, ",\n      \"path\": "...)
	b = appendJSONString(b, n.Path)
	return append(b, "\n    }"...)
}

// appendEdge appends one element of the edges array, without the comma
// that separates it from the one before.
func appendEdge(b []byte, e RelationEdge) []byte {
	b = append(b, "\n    {\n      \"kind\": "...)
	b = appendJSONString(b, e.Kind)
	b = append(b, ",\n      \"from\": "...)
	b = appendJSONString(b, e.From)
	b = append(b, ",\n      \"to\": "...)
	b = appendJSONString(b, e.To)
	if len(e.Sources) > 0 {
		b = append(b, ",\n      \"sources\": ["...)
		for j, src := range e.Sources {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n        "...)
			b = appendJSONString(b, src)
		}
		b = append(b, "\n      ]"...)
	}
	return append(b, "\n    }"...)
}

// appendJSONString appends s as encoding/json writes a string without HTML
// escaping: quotes, backslashes and control characters escaped, invalid
// UTF-8 as \ufffd, U+2028 and U+2029 as escapes.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
