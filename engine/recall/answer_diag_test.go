package recall_test

// The answer-in-context diagnosis (BENCHMARKS.md, "Answer in context:
// where the misses were"): for each question recall misses at 1,000
// tokens, was an evidence turn distilled into a block, where did that
// block (and the turn itself) rank in search, and what was the budget
// spent on instead.
//
//	AIC_DIAG=heldout2,heldout3 go test ./engine/recall -run TestAnswerInContext_Diagnose -v

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"scriptorium/engine/recall"
	"scriptorium/engine/result"
)

func TestAnswerInContext_Diagnose(t *testing.T) {
	if q := os.Getenv("AIC_SHOW"); q != "" {
		set := loadAIC(t, os.Getenv("AIC_DIAG"))
		res, err := recall.Recall(context.Background(), set.e, recall.Request{Prompt: q, Budget: 1000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d tokens\n%s", res.Tokens, res.Text)
		return
	}
	splits := os.Getenv("AIC_DIAG")
	if splits == "" {
		t.Skip("AIC_DIAG names the splits to diagnose")
	}
	ctx := context.Background()
	const budget = 1000
	for _, split := range strings.Split(splits, ",") {
		set := loadAIC(t, split)
		citedBy := map[string][]string{} // source-id -> block ids citing it
		for id, cs := range set.cites {
			for _, c := range cs {
				citedBy[c] = append(citedBy[c], id)
			}
		}
		var out strings.Builder
		// inTop counts the missed questions whose evidence (a turn, or a
		// block citing it) ranks in search's first 100 at all: no packing
		// of those hits answers more than these.
		missed, asked, inTop := 0, 0, 0
		causes := map[string]int{}
		for _, c := range set.convs {
			for _, q := range c.Questions {
				asked++
				evidence := map[string]bool{}
				evBlocks := map[string]bool{}
				for _, ev := range q.Evidence {
					evidence[ev] = true
					for _, b := range citedBy[ev] {
						evBlocks[b] = true
					}
				}
				res, err := recall.Recall(ctx, set.e, recall.Request{Prompt: q.Text, Budget: budget, Cwd: c.Project})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, it := range res.Items {
					if evidence[it.Ref] || evBlocks[it.Ref] {
						found = true
					}
				}
				if found {
					continue
				}
				missed++
				fmt.Fprintf(&out, "\n## %s [%s] %q\n   evidence %v; blocks citing it: %d\n", c.File, c.Kind, q.Text, q.Evidence, len(evBlocks))
				for b := range evBlocks {
					fmt.Fprintf(&out, "   block %s: %.120q\n", b, set.text[b])
				}
				hits, err := set.e.Search(ctx, result.SearchQuery{Text: recall.Query(q.Text), Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				best := 0
				for i, h := range hits {
					if evidence[h.Ref] || evBlocks[h.Ref] {
						fmt.Fprintf(&out, "   rank %d %s %s: %.80q\n", i+1, h.Kind, h.Ref, h.Snippet)
						if best == 0 {
							best = i + 1
						}
					}
				}
				// Why: the evidence was among the hits the recall asks
				// for and did not fit, or in the first 100 below them (the
				// recall's), or further down, as a block or (nothing
				// distilled from it) as a turn; there, evidence that shares
				// no word with the question but its names is the
				// distiller's (or embeddings'): no lexical ranking meets it.
				if best > 0 {
					inTop++
				}
				var evText []string
				for b := range evBlocks {
					evText = append(evText, set.text[b])
				}
				if len(evText) == 0 {
					for _, tr := range set.turns {
						if evidence[tr.Ref()] {
							evText = append(evText, tr.Content)
						}
					}
				}
				shared := sharesWord(q.Text, evText)
				why := "not distilled, turn ranks below the first 100"
				switch {
				case best > 0 && best <= budget/25: // recall.hitLimit
					why = "among the hits, not packed"
				case best > 0:
					why = "in the first 100, below the hits asked for"
				case len(evBlocks) > 0 && !shared && quoted(evText):
					why = "distilled as a quote that shares no word with the question"
				case len(evBlocks) > 0 && !shared:
					why = "distilled, its block shares no word with the question"
				case len(evBlocks) > 0:
					why = "distilled, block ranks below the first 100"
				case !shared:
					why = "not distilled, the turn shares no word with the question"
				}
				causes[why]++
				fmt.Fprintf(&out, "   why: %s\n", why)
				for _, it := range res.Items {
					fmt.Fprintf(&out, "   got %-7s %3d tok %s %.90q\n", it.Kind, it.Tokens, it.Path, it.Text)
				}
			}
		}
		t.Logf("%s: %d of %d questions missed %v; evidence in the first 100 hits for %d of them%s", split, missed, asked, causes, inTop, out.String())
	}
}

// diagStop are question words that say nothing of the answer.
var diagStop = map[string]bool{"what": true, "when": true, "where": true, "which": true, "who": true, "whom": true,
	"whose": true, "does": true, "did": true, "will": true, "with": true, "from": true, "that": true, "this": true,
	"have": true, "has": true, "their": true, "they": true, "there": true, "about": true, "after": true,
	"before": true, "into": true, "your": true, "owner": true, "owner's": true, "many": true, "much": true,
	"long": true, "often": true, "and": true, "the": true, "for": true, "how": true, "why": true, "now": true}

// sharesWord is true when a text shares a word of the question other than
// its names (capitalised words) and question words: a word search could
// meet the evidence by. Words meet on their first five letters.
func sharesWord(question string, texts []string) bool {
	key := func(w string) string {
		if r := []rune(w); len(r) > 5 {
			return string(r[:5])
		}
		return w
	}
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	}
	in := map[string]bool{}
	for _, t := range texts {
		for _, w := range split(strings.ToLower(t)) {
			in[key(w)] = true
		}
	}
	for _, w := range split(question) {
		lw := strings.ToLower(w)
		if len([]rune(lw)) < 3 || diagStop[lw] || unicode.IsUpper([]rune(w)[0]) {
			continue
		}
		if in[key(lw)] {
			return true
		}
	}
	return false
}

// quoted is true when a text keeps a speaker's words as a quote.
func quoted(texts []string) bool {
	for _, t := range texts {
		if strings.Contains(t, "said:") || strings.ContainsAny(t, "\"“«„") {
			return true
		}
	}
	return false
}
