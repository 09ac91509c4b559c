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
				// for and did not fit, or it ranked below them, as a
				// block or (nothing distilled from it) as a turn.
				if best > 0 {
					inTop++
				}
				why := "not distilled, turn ranks below the hits"
				switch {
				case best > 0 && best <= budget/25:
					why = "among the hits, not packed"
				case len(evBlocks) > 0:
					why = "distilled, block ranks below the hits"
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
