package render

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// coreBlocks are the building blocks of the budget tests, keyed by name.
func coreBlocks() map[string]Block {
	f := func(label, date string) []Footnote {
		return []Footnote{footnote(label, date, 0, citeMorning)}
	}
	return map[string]Block{
		"A":   block("aaaaaaaa", "Ada prefers short answers.[^e-000000000a]", true, f("e-000000000a", "2024-01-01")),
		"B":   block("bbbbbbbb", "Ada's project is the budget tracker.[^e-000000000b]", true, f("e-000000000b", "2024-01-02")),
		"C":   block("cccccccc", "Tea.[^e-000000000a]", true, f("e-000000000a", "2024-01-01")),
		"Big": block("dddddddd", strings.Repeat("Ada keeps long notes about everything she reads. ", 20)+"[^e-000000000d]", true, f("e-000000000d", "2024-01-04")),
		"P1":  block("eeeeeeee", "Rumour: the secret pending claim.[^e-000000000e]", false, f("e-000000000e", "2024-01-05")),
		"P2":  block("ffffffff", "Another pending claim.[^e-000000000f]", false, f("e-000000000f", "2024-01-06")),
	}
}

// topicOf returns topics/core.md holding the named blocks in order.
func topicOf(names ...string) Topic {
	all := coreBlocks()
	t := Topic{Path: CoreTopicPath}
	for _, n := range names {
		t.Blocks = append(t.Blocks, all[n])
	}
	return t
}

// unlimited renders the named blocks with a budget nothing can exceed.
func unlimited(t *testing.T, names ...string) string {
	t.Helper()
	out, rep := Core(topicOf(names...), 1<<30)
	if len(rep.Excluded) > 0 {
		t.Fatalf("unlimited render excluded %v", rep.Excluded)
	}
	return string(out)
}

func ids(names ...string) []string {
	all := coreBlocks()
	out := []string{}
	for _, n := range names {
		out = append(out, all[n].ID)
	}
	return out
}

func TestCore_Budget(t *testing.T) {
	tests := []struct {
		name     string
		blocks   []string
		budget   func(t *testing.T) int
		want     func(t *testing.T) string
		included []string
		excluded []string
		pending  []string
	}{
		{
			name:     "exact fit",
			blocks:   []string{"A", "B"},
			budget:   func(t *testing.T) int { return CountTokens(unlimited(t, "A", "B")) },
			want:     func(t *testing.T) string { return unlimited(t, "A", "B") },
			included: ids("A", "B"),
			excluded: ids(),
		},
		{
			name:     "one token over",
			blocks:   []string{"A", "B"},
			budget:   func(t *testing.T) int { return CountTokens(unlimited(t, "A", "B")) - 1 },
			want:     func(t *testing.T) string { return unlimited(t, "A") },
			included: ids("A"),
			excluded: ids("B"),
		},
		{
			name:     "tiny block after an excluded one",
			blocks:   []string{"A", "Big", "C"},
			budget:   func(t *testing.T) int { return CountTokens(unlimited(t, "A", "C")) },
			want:     func(t *testing.T) string { return unlimited(t, "A") },
			included: ids("A"),
			excluded: ids("Big", "C"),
		},
		{
			name:     "pending blocks skipped",
			blocks:   []string{"P1", "A", "P2", "B"},
			budget:   func(t *testing.T) int { return CountTokens(unlimited(t, "A", "B")) },
			want:     func(t *testing.T) string { return unlimited(t, "A", "B") },
			included: ids("A", "B"),
			excluded: ids(),
			pending:  ids("P1", "P2"),
		},
		{
			name:     "first block too big",
			blocks:   []string{"Big", "A"},
			budget:   func(t *testing.T) int { return CountTokens(unlimited(t, "A")) },
			want:     func(t *testing.T) string { return "" },
			included: ids(),
			excluded: ids("Big", "A"),
		},
		{
			name:     "budget zero",
			blocks:   []string{"A", "P1", "C"},
			budget:   func(t *testing.T) int { return 0 },
			want:     func(t *testing.T) string { return "" },
			included: ids(),
			excluded: ids("A", "C"),
			pending:  ids("P1"),
		},
		{
			name:     "negative budget",
			blocks:   []string{"A"},
			budget:   func(t *testing.T) int { return -5 },
			want:     func(t *testing.T) string { return "" },
			included: ids(),
			excluded: ids("A"),
		},
		{
			name:     "only pending",
			blocks:   []string{"P1", "P2"},
			budget:   func(t *testing.T) int { return DefaultCoreBudget },
			want:     func(t *testing.T) string { return "" },
			included: ids(),
			excluded: ids(),
			pending:  ids("P1", "P2"),
		},
		{
			name:     "no blocks",
			budget:   func(t *testing.T) int { return DefaultCoreBudget },
			want:     func(t *testing.T) string { return "" },
			included: ids(),
			excluded: ids(),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			budget := tc.budget(t)
			out, rep := Core(topicOf(tc.blocks...), budget)
			if got, want := string(out), tc.want(t); got != want {
				t.Errorf("output:\n%s\nwant:\n%s", got, want)
			}
			if tc.pending == nil {
				tc.pending = []string{}
			}
			if !slices.Equal(rep.Included, tc.included) || !slices.Equal(rep.Excluded, tc.excluded) || !slices.Equal(rep.Pending, tc.pending) {
				t.Errorf("report included %v excluded %v pending %v; want %v %v %v",
					rep.Included, rep.Excluded, rep.Pending, tc.included, tc.excluded, tc.pending)
			}
			if rep.Budget != budget {
				t.Errorf("budget %d, want %d", rep.Budget, budget)
			}
			if rep.Tokens != CountTokens(string(out)) {
				t.Errorf("tokens %d, but the output counts %d", rep.Tokens, CountTokens(string(out)))
			}
			if rep.Tokens > max(budget, 0) {
				t.Errorf("tokens %d over budget %d", rep.Tokens, budget)
			}
			for _, p := range tc.pending {
				if strings.Contains(string(out), p) || strings.Contains(string(out), "pending") {
					t.Errorf("pending block %s leaked into the output", p)
				}
			}
			for _, name := range tc.blocks {
				if _, ok := rep.Costs[coreBlocks()[name].ID]; !ok {
					t.Errorf("no cost for %s", name)
				}
			}
		})
	}
}

func TestCore_EmptyArraysInJSON(t *testing.T) {
	_, rep := Core(Topic{Path: CoreTopicPath}, DefaultCoreBudget)
	got, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"budget":2000,"tokens":0,"included":[],"excluded":[],"pending":[]}`
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCore_FootnotesOnceInFirstReferenceOrder(t *testing.T) {
	out := unlimited(t, "B", "A", "C")
	if n := strings.Count(out, "[^e-000000000a]:"); n != 1 {
		t.Errorf("shared footnote defined %d times", n)
	}
	b := strings.Index(out, "[^e-000000000b]:")
	a := strings.Index(out, "[^e-000000000a]:")
	if b < 0 || a < 0 || b > a {
		t.Errorf("footnotes not in first-reference order:\n%s", out)
	}
	if !strings.HasSuffix(out, ")\n") || strings.HasSuffix(out, "\n\n") {
		t.Errorf("output must end with exactly one newline:\n%q", out)
	}
}

func TestCore_CostIsStandaloneRender(t *testing.T) {
	_, rep := Core(topicOf("A", "P1", "Big", "C"), 10)
	for _, name := range []string{"A", "P1", "Big", "C"} {
		b := coreBlocks()[name]
		b.Trusted = true
		out, _ := Core(Topic{Path: CoreTopicPath, Blocks: []Block{b}}, 1<<30)
		if got, want := rep.Costs[b.ID], CountTokens(string(out)); got != want {
			t.Errorf("cost of %s = %d, want %d", name, got, want)
		}
	}
}

// trickyTopic holds blocks whose joins defeat the per-segment sums: trailing
// spaces, punctuation before a slash, CRLF, empty and non-Latin text.
func trickyTopic() Topic {
	raws := []string{
		"Plain block. ^11111111",
		"Ends with spaces   ",
		"/starts with a slash!!!",
		"ends with punctuation ...",
		"",
		"\r\nCRLF inside\r\nthe block\r\n",
		"日本語のブロック。^22222222",
		"emoji 🎉🎉",
		"    indented code",
		"'s contraction start",
		"- list\n- items ^33333333",
		"Link [x](../sources/a.md#source-1) and [y](/abs) and [z](https://e.x/a) ^44444444",
	}
	t := Topic{Path: CoreTopicPath}
	for i, r := range raws {
		id := strings.Repeat(string(rune('a'+i)), 8)
		notes := []Footnote{{Label: "e-" + id[:1], Raw: "[^e-" + id[:1] + "]: Time: `2024-01-01`; Sources: [s](../sources/x.md#source-" + id + ")"}}
		if i%3 == 1 {
			notes[0].Raw += "   "
		}
		if i%4 == 2 {
			notes = nil
		}
		t.Blocks = append(t.Blocks, Block{ID: id, Raw: r, Trusted: i != 7, Footnotes: notes})
	}
	return t
}

// prepared rebases every block of topic for coreRender.
func prepared(topic Topic) []coreBlock {
	blocks := make([]coreBlock, len(topic.Blocks))
	for i, b := range topic.Blocks {
		blocks[i] = prepareCore(b, CoreTopicPath)
	}
	return blocks
}

// boundaryBudgets returns 0 and, for every prefix of topic, the exact token
// count of its render and the counts one below and one above: the budgets
// where a decision can flip.
func boundaryBudgets(topic Topic) []int {
	budgets := []int{0}
	for k := 1; k <= len(topic.Blocks); k++ {
		prefix := Topic{Path: topic.Path, Blocks: topic.Blocks[:k]}
		s, _, _ := coreRender(prefix.Blocks, prepared(prefix), 1<<30, exactTokens)
		n := CountTokens(s)
		budgets = append(budgets, n-1, n, n+1)
	}
	return budgets
}

func TestCore_MatchesFullCounting(t *testing.T) {
	topics := map[string]Topic{"tricky": trickyTopic(), "bench": benchCore(12), "fixture": fixtureTopics()[1]}
	for name, topic := range topics {
		t.Run(name, func(t *testing.T) {
			blocks := prepared(topic)
			for _, budget := range boundaryBudgets(topic) {
				out, rep := Core(topic, budget)
				want, wantRep, _ := coreRender(topic.Blocks, blocks, budget, exactTokens)
				if string(out) != want || !slices.Equal(rep.Included, wantRep.Included) || rep.Tokens != wantRep.Tokens {
					t.Fatalf("budget %d: render differs from full counting:\n%q\nwant\n%q", budget, out, want)
				}
				// The cached sums themselves must be right, not only rescued
				// by the fallback.
				if _, _, agree := coreRender(topic.Blocks, blocks, budget, segCounts{}.docTokens); !agree {
					t.Errorf("budget %d: segment sums disagreed with full counts", budget)
				}
			}
		})
	}
}

func TestSegCounts_SumIsExactWhenClean(t *testing.T) {
	segs := []string{
		"Plain block. ^11111111", "Ends with spaces   ", "/slash start", "punct ...", "",
		"CRLF\r\n", "日本語。", "🎉", "    code", "'s", "- a\n- b", ")", "x)", "[^e-1]: a](b)",
		"\u00a0nbsp", "mark\u0301", "\u0301mark", "123", "4567", "a/", "//",
	}
	clean, dirty := 0, 0
	for _, a := range segs {
		for _, b := range segs {
			for _, c := range segs {
				list := []string{a, b, c}
				n, ok := segCounts{}.sum(list)
				if !ok {
					dirty++
					continue
				}
				clean++
				d := &coreDoc{blocks: list}
				if want := CountTokens(d.String()); n != want {
					t.Errorf("sum of %q = %d, full count %d", list, n, want)
				}
			}
		}
	}
	if clean == 0 || dirty == 0 {
		t.Errorf("cases not exercised: %d clean, %d dirty", clean, dirty)
	}
}

func TestCore_DisagreementIsDetected(t *testing.T) {
	topic := topicOf("A", "B", "Big")
	blocks := prepared(topic)
	lying := func(d *coreDoc) int { return CountTokens(d.String()) - 1 }
	if _, _, agree := coreRender(topic.Blocks, blocks, 100, lying); agree {
		t.Error("a counter that disagrees with full counts was accepted")
	}
	if _, _, agree := coreRender(topic.Blocks, blocks, 100, exactTokens); !agree {
		t.Error("an exact counter was rejected")
	}
}

func TestCountTokens_Known(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"\n", 1},
	}
	for _, tc := range tests {
		if got := CountTokens(tc.in); got != tc.want {
			t.Errorf("CountTokens(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestCountTokens_Concurrent(t *testing.T) {
	want := CountTokens("Craig is building a budget tracker in Flask.")
	done := make(chan int)
	for range 4 {
		go func() { done <- CountTokens("Craig is building a budget tracker in Flask.") }()
	}
	for range 4 {
		if got := <-done; got != want {
			t.Errorf("concurrent count %d, want %d", got, want)
		}
	}
}
