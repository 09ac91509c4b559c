package render

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"testing"
)

// encodingJSONRelations is the reference Relations writes by hand.
func encodingJSONRelations(g RelationGraph) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(g)
	return buf.Bytes()
}

func TestRelations_MatchesEncodingJSON(t *testing.T) {
	pieces := []string{"a", "topics/x.md", "é", "张伟", "<&>", `"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f",
		"\u2028", "\u2029", "\xff", "\xe4\xbd", "😀", " ", "/", "#^"}
	r := rand.New(rand.NewSource(1))
	str := func() string {
		var b []byte
		for range r.Intn(5) {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		return string(b)
	}
	graphs := []RelationGraph{{Nodes: []RelationNode{}, Edges: []RelationEdge{}}}
	for range 300 {
		g := RelationGraph{Nodes: []RelationNode{}, Edges: []RelationEdge{}}
		for range r.Intn(4) {
			g.Nodes = append(g.Nodes, RelationNode{ID: str(), Kind: str(), Path: str()})
		}
		for range r.Intn(4) {
			e := RelationEdge{Kind: str(), From: str(), To: str()}
			switch r.Intn(3) {
			case 0:
				e.Sources = []string{}
			case 1:
				for range 1 + r.Intn(3) {
					e.Sources = append(e.Sources, str())
				}
			}
			g.Edges = append(g.Edges, e)
		}
		graphs = append(graphs, g)
	}
	for _, g := range graphs {
		if got, want := appendGraph(nil, g), encodingJSONRelations(g); !bytes.Equal(got, want) {
			t.Fatalf("graph %+v:\ngot  %q\nwant %q", g, got, want)
		}
	}
	topics := fixtureTopics()
	if got, want := Relations(topics), encodingJSONRelations(Graph(topics)); !bytes.Equal(got, want) {
		t.Fatalf("fixture:\ngot  %q\nwant %q", got, want)
	}
}

// BenchmarkRelationsJSON compares the hand-written relations.json encoder
// with encoding/json on a graph of 10,000 blocks; read the ratio.
func BenchmarkRelationsJSON(b *testing.B) {
	g := RelationGraph{}
	for i := range 10000 {
		id := string(rune('a'+i%26)) + "0c0ffee" + string(rune('a'+i/26%26))
		g.Nodes = append(g.Nodes, RelationNode{ID: id, Kind: NodeBlock, Path: "topics/people/alice.md"})
		g.Edges = append(g.Edges, RelationEdge{Kind: EdgeContains, From: "topics/people/alice.md", To: id})
		if i%3 == 0 {
			g.Edges = append(g.Edges, RelationEdge{Kind: EdgeSharesSource, From: id, To: id + "x",
				Sources: []string{"telegram/s0001/s0001-t001"}})
		}
	}
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			encodingJSONRelations(g)
		}
	})
	b.Run("by-hand", func(b *testing.B) {
		for b.Loop() {
			appendGraph(make([]byte, 0, 96*(len(g.Nodes)+len(g.Edges))+64), g)
		}
	})
}
