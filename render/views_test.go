package render

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// pendingMarkers are ids and words that only the fixture's pending blocks
// and their footnotes carry.
var pendingMarkers = []string{"a1000003", "f888f60f", "deadline moved", "quit Flask", "e-3a3b3c3d3e", "e-5a5b5c5d5e", "telegram/group-42"}

func TestViews_PendingNeverAppears(t *testing.T) {
	topics := fixtureTopics()
	outputs := map[string][]byte{
		"recent_events.jsonl": RecentEvents(topics),
		"relations.json":      Relations(topics),
	}
	core, rep := Core(topics[1], 1<<30)
	outputs["core.md"] = core
	maps.Copy(outputs, Timeline(topics))
	for name, data := range outputs {
		for _, m := range pendingMarkers {
			if bytes.Contains(data, []byte(m)) {
				t.Errorf("%s contains pending marker %q", name, m)
			}
		}
	}
	if !slices.Equal(rep.Pending, []string{"a1000003"}) {
		t.Errorf("core report pending = %v", rep.Pending)
	}
	// The 2024-03-17 date is cited only by pending blocks.
	if _, ok := Timeline(topics)["timeline/2024/03/17.md"]; ok {
		t.Error("a date cited only by pending blocks got a timeline file")
	}
}

func TestViews_Deterministic(t *testing.T) {
	base := fixtureTopics()
	wantTimeline := Timeline(base)
	wantEvents := RecentEvents(base)
	wantRelations := Relations(base)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		topics := fixtureTopics()
		rng.Shuffle(len(topics), func(a, b int) { topics[a], topics[b] = topics[b], topics[a] })
		if got := Timeline(topics); !maps.EqualFunc(got, wantTimeline, bytes.Equal) {
			t.Fatalf("shuffle %d: timeline differs", i)
		}
		if got := RecentEvents(topics); !bytes.Equal(got, wantEvents) {
			t.Fatalf("shuffle %d: recent events differ", i)
		}
		if got := Relations(topics); !bytes.Equal(got, wantRelations) {
			t.Fatalf("shuffle %d: relations differ", i)
		}
	}
	a, _ := Core(base[1], fixtureCoreBudget)
	b, _ := Core(fixtureTopics()[1], fixtureCoreBudget)
	if !bytes.Equal(a, b) {
		t.Error("core renders differ")
	}
}

func TestTimeline_Cases(t *testing.T) {
	dup := Topic{Path: "topics/x.md", Blocks: []Block{
		block("0000000a", "Two notes, one day.[^e-1][^e-2]", true, []Footnote{
			footnote("e-1", "2024-05-01", 0, citeMorning), footnote("e-2", "2024-05-01", 0, citeTracker)}),
		block("0000000b", "Bad date.[^e-3]", true, []Footnote{{Label: "e-3", Date: "../../../../etc/passwd"}}),
		block("0000000c", "Feb 30.[^e-4]", true, []Footnote{{Label: "e-4", Date: "2024-02-30"}}),
	}}
	spaced := Topic{Path: "topics/my notes (old).md", Blocks: []Block{
		block("0000000d", "Spaced path.[^e-5]", true, []Footnote{footnote("e-5", "2024-05-02", 0, citeMorning)}),
	}}
	tests := []struct {
		name   string
		topics []Topic
		want   map[string]string
	}{
		{"no topics", nil, map[string]string{}},
		{"one item per block and date, invalid dates ignored", []Topic{dup}, map[string]string{
			"timeline/2024/05/01.md": "# 2024-05-01\n\n## topics/x.md\n\n- [Two notes, one day.](../../../topics/x.md#^0000000a)\n",
		}},
		{"path needing brackets", []Topic{spaced}, map[string]string{
			"timeline/2024/05/02.md": "# 2024-05-02\n\n## topics/my notes (old).md\n\n- [Spaced path.](<../../../topics/my notes (old).md#^0000000d>)\n",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Timeline(tc.topics)
			if len(got) != len(tc.want) {
				t.Fatalf("got files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(tc.want)))
			}
			for k, w := range tc.want {
				if string(got[k]) != w {
					t.Errorf("%s:\n%s\nwant:\n%s", k, got[k], w)
				}
			}
		})
	}
}

func TestRecentEvents_NewestFirstOnePerBlockAndDate(t *testing.T) {
	data := RecentEvents(fixtureTopics())
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	seen := map[[2]string]bool{}
	prev := "9999-99-99"
	for i, line := range lines {
		var e map[string]string
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %d is not a JSON object: %v", i+1, err)
		}
		for _, k := range []string{"block", "path", "date", "excerpt", "visibility"} {
			if e[k] == "" {
				t.Errorf("line %d lacks %q", i+1, k)
			}
		}
		if e["visibility"] != VisibilityOwner {
			t.Errorf("line %d visibility %q", i+1, e["visibility"])
		}
		if e["date"] > prev {
			t.Errorf("line %d: %s after %s, want newest first", i+1, e["date"], prev)
		}
		prev = e["date"]
		k := [2]string{e["block"], e["date"]}
		if seen[k] {
			t.Errorf("line %d repeats %v", i+1, k)
		}
		seen[k] = true
	}
	// f8890000 cites two dates and so gives two events.
	if !seen[[2]string{"f8890000", "2024-04-01"}] || !seen[[2]string{"f8890000", "2024-03-16"}] {
		t.Error("a block with two dates must give an event per date")
	}
	if got := RecentEvents(nil); len(got) != 0 {
		t.Errorf("no topics gave %q", got)
	}
}

func TestRelations_Cases(t *testing.T) {
	g := Graph(fixtureTopics())
	has := func(kind, from, to string) bool {
		return slices.ContainsFunc(g.Edges, func(e RelationEdge) bool { return e.Kind == kind && e.From == from && e.To == to })
	}
	tests := []struct {
		name           string
		kind, from, to string
		want           bool
	}{
		{"topic contains block", EdgeContains, "topics/people/craig.md", "f888f60e", true},
		{"link across topics", EdgeLinks, "f8890000", "b0000001", true},
		{"link to a pending block dropped", EdgeLinks, "f8890000", "f888f60f", false},
		{"link to a missing block dropped", EdgeLinks, "f8890000", "missing0", false},
		{"shared source, ordered pair", EdgeSharesSource, "b0000001", "f888f60e", true},
		{"shared source, reversed pair absent", EdgeSharesSource, "f888f60e", "b0000001", false},
		{"pending block shares nothing", EdgeSharesSource, "a1000003", "f888f60f", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := has(tc.kind, tc.from, tc.to); got != tc.want {
				t.Errorf("edge %s %s→%s present = %v, want %v", tc.kind, tc.from, tc.to, got, tc.want)
			}
		})
	}
	if got := string(Relations(nil)); got != "{\n  \"nodes\": [],\n  \"edges\": []\n}\n" {
		t.Errorf("empty relations = %q", got)
	}
}

func TestRelations_DuplicateIDFirstWins(t *testing.T) {
	topics := []Topic{
		{Path: "topics/b.md", Blocks: []Block{block("12345678", "Later copy.", true, nil)}},
		{Path: "topics/a.md", Blocks: []Block{block("12345678", "First copy.", true, nil)}},
	}
	g := Graph(topics)
	var blocks []RelationNode
	for _, n := range g.Nodes {
		if n.Kind == NodeBlock {
			blocks = append(blocks, n)
		}
	}
	if len(blocks) != 1 || blocks[0].Path != "topics/a.md" {
		t.Errorf("block nodes = %+v, want one in topics/a.md", blocks)
	}
}
