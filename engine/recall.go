package engine

import (
	"context"
	"errors"
	"strings"

	"scriptorium/render"
	"scriptorium/trust"
)

// RecallItem is one piece of a RecallBudget answer, in the order it appears
// inside the fence.
type RecallItem struct {
	Kind   string `json:"kind"`   // "core", "topic" or "source"
	Ref    string `json:"ref"`    // block id or source-id; "core.md" for the core
	Path   string `json:"path"`   // workspace-relative: "core.md", "topics/…", "sources/…"
	Anchor string `json:"anchor"` // "^<id>" or "source-<hash>"; "" for the core
	Tokens int    `json:"tokens"` // o200k_base tokens of Text on its own
	Text   string `json:"text"`   // the text as it stands inside the fence
}

// RecallResult is the per-prompt context a host adds to a turn.
type RecallResult struct {
	// Text is the whole context fenced once in <memory-context>, or ""
	// when there is nothing to recall.
	Text   string       `json:"text"`
	Items  []RecallItem `json:"items"`
	Tokens int          `json:"tokens"` // o200k_base tokens of Text; never more than Budget
	Budget int          `json:"budget"`
}

// recallSearchLimit is the fewest hits RecallBudget considers; a larger
// budget asks for more (recallLimit), so the budget rather than the limit
// decides what fits.
const recallSearchLimit = 10

// recallSlack is how far below the budget the running token estimate
// switches to exact counts.
const recallSlack = 24

// recallLimit is how many hits to ask for under a budget: about one per
// 40 tokens (a hit line is 25–60), between recallSearchLimit and 50.
func recallLimit(budget int) int { return min(max(budget/25, recallSearchLimit), 100) }

// maxRecallQueryRunes bounds the part of a message searched for: a pasted
// log is still a message to recall for, but only its start is a query.
const maxRecallQueryRunes = 1000

// Section headings inside the fence. They tell the agent which part is the
// standing memory and which part was found for this prompt.
const (
	recallCoreHeading = "## Core memory\n\n"
	recallHitsHeading = "## Recalled for this prompt\n\n"
)

// RecallBudget returns what a host adds to one user prompt: the rendered
// core (topics/core.md under its own budget, as core.md holds it) and then
// the best trusted search hits for the prompt in rank order, each with its
// citation path#anchor, all fenced once in <memory-context> and within
// budget o200k_base tokens counted on the fenced text (budget <= 0 means
// recall.budget_tokens). The core is trimmed at block boundaries to leave
// room inside the budget; hits are added while they fit, and the first
// that does not fit ends the list. A topic hit that is already in the core
// is not repeated. Pending content never appears: the core render skips
// pending blocks and search never returns pending sources or blocks.
//
// The Claude Code hook and MCP's memory_recall both answer with it, so the
// two hosts give an agent the same context for the same prompt.
func (e *Engine) RecallBudget(ctx context.Context, prompt string, budget int) (RecallResult, error) {
	if err := e.gate(trust.OpSearch); err != nil {
		return RecallResult{}, err
	}
	if budget <= 0 {
		budget = e.Config().Recall.BudgetTokens
	}
	res := RecallResult{Budget: budget, Items: []RecallItem{}}
	s, err := e.snapshot(ctx)
	if err != nil {
		return res, err
	}
	items, inCore := e.recallCore(s, budget)
	hits, err := e.recallHits(ctx, prompt, recallLimit(budget))
	if err != nil {
		return res, err
	}
	// A block and the source it cites say the same thing: whichever comes
	// first is recalled, the other is not repeated.
	covered := map[string]bool{}
	total := 0
	if len(items) > 0 {
		total = render.CountTokens(recallText(items))
	}
	for _, h := range hits {
		if h.Kind == "topic" && h.Path == coreTopicPath && inCore[h.Ref] {
			continue
		}
		cites := []string{h.Ref}
		if h.Kind == "topic" {
			cites = s.blockCitations(h.Path, h.Ref)
		}
		if len(cites) > 0 && allCovered(covered, cites) {
			continue
		}
		line := recallLine(h)
		n := render.CountTokens(line)
		cand := append(items, RecallItem{Kind: h.Kind, Ref: h.Ref, Path: h.Path, Anchor: h.Anchor,
			Tokens: n, Text: line})
		// Counting the whole fenced text for every hit is quadratic; the
		// running sum is within a few tokens of it, so the exact count is
		// taken only near the budget.
		if est := total + n + 1; total == 0 || est > budget-recallSlack {
			total = render.CountTokens(recallText(cand))
		} else {
			total = est
		}
		if total > budget {
			break
		}
		items = cand
		for _, c := range cites {
			covered[c] = true
		}
	}
	if len(items) == 0 {
		return res, nil
	}
	// The estimate may have let the last hits overshoot by a token or two.
	for len(items) > 0 && render.CountTokens(recallText(items)) > budget {
		items = items[:len(items)-1]
	}
	if len(items) == 0 {
		return res, nil
	}
	res.Items = items
	res.Text = recallText(items)
	res.Tokens = render.CountTokens(res.Text)
	return res, nil
}

// recallCore returns the core as at most one item, rendered under the
// smaller of the core budget and what the recall budget leaves once the
// fence is paid for, and the ids of the core blocks it holds. Token counts
// of joined texts are not exactly additive, so the core budget is lowered
// by the overshoot until the fenced whole fits.
func (e *Engine) recallCore(s *snapshot, budget int) ([]RecallItem, map[string]bool) {
	tf, ok := s.topics[coreTopicPath]
	if !ok {
		return nil, nil
	}
	t := s.renderTopic(tf)
	coreBudget := min(e.Config().Memory.Core.Budget, budget-render.CountTokens(recallText([]RecallItem{{Kind: "core"}})))
	for tries := 0; coreBudget > 0 && tries < 8; tries++ {
		out, rep := render.Core(t, coreBudget)
		text := strings.TrimSpace(string(out))
		if text == "" {
			return nil, nil
		}
		item := RecallItem{Kind: "core", Ref: "core.md", Path: "core.md", Tokens: render.CountTokens(text), Text: text}
		items := []RecallItem{item}
		over := render.CountTokens(recallText(items)) - budget
		if over <= 0 {
			inCore := make(map[string]bool, len(rep.Included))
			for _, id := range rep.Included {
				inCore[id] = true
			}
			return items, inCore
		}
		coreBudget -= over
	}
	return nil, nil
}

// recallHits searches trusted memory for the prompt. A prompt that is no
// query at all (only symbols, say) recalls nothing rather than failing the
// turn.
func (e *Engine) recallHits(ctx context.Context, prompt string, limit int) ([]SearchResult, error) {
	q := recallQuery(prompt)
	if q == "" {
		return nil, nil
	}
	hits, err := e.Search(ctx, SearchQuery{Text: q, Limit: limit})
	var ee *Error
	if errors.As(err, &ee) && ee.Code == CodeInvalidArgument {
		return nil, nil
	}
	return hits, err
}

// recallQuery turns a user's message into a search text: valid UTF-8, at
// most maxRecallQueryRunes runes, "" when there is nothing to search for.
func recallQuery(message string) string {
	if strings.TrimSpace(message) == "" {
		return ""
	}
	// A host passes the user's message as it came; bytes that are not
	// UTF-8 make it no less a message to recall for.
	text := strings.ToValidUTF8(message, " ")
	if r := []rune(text); len(r) > maxRecallQueryRunes {
		text = string(r[:maxRecallQueryRunes])
	}
	return text
}

// recallLine is one hit as recall shows it: the citation path#anchor, the
// speaker's label for a source, and the snippet on one line.
func recallLine(r SearchResult) string {
	who := ""
	if r.SpeakerLabel != nil && *r.SpeakerLabel != "" {
		who = " " + *r.SpeakerLabel + ":"
	}
	return "- [" + r.Path + "#" + r.Anchor + "]" + who + " " + strings.Join(strings.Fields(r.Snippet), " ")
}

// recallText fences the items: the core under its heading, then the hits
// under theirs. An empty core item stands for the headings alone.
func recallText(items []RecallItem) string {
	var b strings.Builder
	hits := false
	for _, it := range items {
		if it.Kind == "core" {
			b.WriteString(recallCoreHeading + it.Text + "\n\n")
			continue
		}
		if !hits {
			b.WriteString(recallHitsHeading)
			hits = true
		}
		b.WriteString(it.Text + "\n")
	}
	return FenceMemory(b.String())
}

// allCovered reports whether every source-id is already recalled.
func allCovered(covered map[string]bool, ids []string) bool {
	for _, id := range ids {
		if !covered[id] {
			return false
		}
	}
	return true
}

// blockCitations are the source-ids a block's footnotes cite.
func (s *snapshot) blockCitations(path, id string) []string {
	tf, ok := s.topics[path]
	if !ok {
		return nil
	}
	b, ok := tf.file.Block(id)
	if !ok {
		return nil
	}
	defs := tf.file.Definitions()
	var out []string
	for _, r := range b.Refs {
		if d, ok := defs[r.Label]; ok {
			for _, c := range d.Sources {
				out = append(out, c.SourceID)
			}
		}
	}
	return out
}
