package engine_test

// Metrics of the longchat evaluation (longchat_eval_test.go): per category
// recall@1/5/10 and MRR of the evidence turns, and for unanswerable
// questions how well the top score separates them from answerable ones.

import (
	"fmt"
	"math"
	"scriptorium/engine/enginetest"
	"strings"
	"testing"
)

// lcQuestion is one entry of testdata/search/longchat/questions.json.
type lcQuestion struct {
	ID       string   `json:"id"`
	Text     string   `json:"text"`
	Category string   `json:"category"`
	Evidence []string `json:"evidence"`
}

// lcRanked is one ranker's answer to a question: per result, the evidence
// source-ids it stands for (a source record stands for itself, a topic
// block for every source it cites), best first, and the top score.
type lcRanked struct {
	Covers [][]string
	Top    float64
}

// lcScores are one ranker's metrics over a category (or all questions).
type lcScores struct {
	N           int
	R1, R5, R10 float64
	MRR         float64
	Missed      []string
}

// lcCategories is the order categories are reported in.
var lcCategories = []string{"single-hop", "multi-hop", "temporal", "speaker", "paraphrase", "chinese", "cross-lingual"}

// lcFound is the share of a question's evidence covered by the first k
// results.
func lcFound(q lcQuestion, r lcRanked, k int) float64 {
	ev := map[string]bool{}
	for _, e := range q.Evidence {
		ev[e] = true
	}
	got := map[string]bool{}
	for _, c := range r.Covers[:min(k, len(r.Covers))] {
		for _, s := range c {
			if ev[s] {
				got[s] = true
			}
		}
	}
	return float64(len(got)) / float64(len(ev))
}

// lcEvaluate scores the answerable questions, overall ("all") and per
// category.
func lcEvaluate(qs []lcQuestion, answers map[string]lcRanked) map[string]lcScores {
	out := map[string]lcScores{}
	add := func(cat string, q lcQuestion, r lcRanked) {
		s := out[cat]
		s.N++
		s.R1 += lcFound(q, r, 1)
		s.R5 += lcFound(q, r, 5)
		s.R10 += lcFound(q, r, 10)
		first := -1
		for i := 0; i < min(10, len(r.Covers)); i++ {
			if lcFound(q, lcRanked{Covers: r.Covers[i : i+1]}, 1) > 0 {
				first = i
				break
			}
		}
		if first >= 0 {
			s.MRR += 1 / float64(first+1)
		} else {
			s.Missed = append(s.Missed, q.ID)
		}
		out[cat] = s
	}
	for _, q := range qs {
		if q.Category == "unanswerable" {
			continue
		}
		add("all", q, answers[q.ID])
		add(q.Category, q, answers[q.ID])
	}
	for c, s := range out {
		n := float64(s.N)
		s.R1, s.R5, s.R10, s.MRR = s.R1/n, s.R5/n, s.R10/n, s.MRR/n
		out[c] = s
	}
	return out
}

// lcAUC is the probability that an answerable question's top score beats
// an unanswerable one's (ties count half): 1.0 means the scores alone tell
// a question the memory cannot answer, 0.5 means they do not. Scores are
// compared within one ranker only.
func lcAUC(qs []lcQuestion, answers map[string]lcRanked) float64 {
	var pos, neg []float64
	for _, q := range qs {
		if q.Category == "unanswerable" {
			neg = append(neg, answers[q.ID].Top)
		} else {
			pos = append(pos, answers[q.ID].Top)
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	var wins float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				wins++
			case p == n:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(pos)*len(neg))
}

// lcTable renders rankers' scores as the Markdown table BENCHMARKS.md
// holds, with recall@budget columns where given.
func lcTable(names []string, scores map[string]map[string]lcScores, auc map[string]float64, budget map[string]map[string][]float64) string {
	var b strings.Builder
	b.WriteString("| category | ranker | n | R@1 | R@5 | R@10 | MRR | R@500 tok | R@1000 tok | R@2000 tok |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, c := range append([]string{"all"}, lcCategories...) {
		for _, n := range names {
			s := scores[n][c]
			bud := "— | — | —"
			if v := budget[n][c]; len(v) == 3 {
				bud = fmt.Sprintf("%.3f | %.3f | %.3f", v[0], v[1], v[2])
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %s |\n", c, n, s.N, s.R1, s.R5, s.R10, s.MRR, bud)
		}
	}
	b.WriteString("\n| ranker | unanswerable AUC (top score) |\n| --- | --- |\n")
	for _, n := range names {
		fmt.Fprintf(&b, "| %s | %.3f |\n", n, auc[n])
	}
	return b.String()
}

// lcTextbook is the baseline: a textbook BM25 over the trusted turns'
// content (enginetest.Textbook), answering as the rankers do.
type lcTextbook struct{ *enginetest.Textbook }

func newLCTextbook(t testing.TB, ids, texts []string) lcTextbook {
	return lcTextbook{enginetest.NewTextbook(t, ids, texts)}
}

// rank returns the best limit turns for query, ties by id.
func (bl lcTextbook) rank(t testing.TB, query string, limit int) lcRanked {
	t.Helper()
	ids, top := bl.Scored(t, query, limit)
	var r lcRanked
	for _, id := range ids {
		r.Covers = append(r.Covers, []string{id})
	}
	r.Top = top
	return r
}
