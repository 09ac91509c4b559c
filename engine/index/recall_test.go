package index

// Search quality on a labelled multi-session conversation set
// (testdata/search/recall at the repository root): turns.jsonl holds the
// turns in the `import` format of SPEC §7, questions.json the questions
// with the source-ids of the turns that answer them. Each turn becomes the
// source document the engine would index (its content, nothing else), and
// the questions are asked, unedited, of our index and of the textbook BM25
// baseline (baseline_test.go) over the same tokens.
//
// recall@k is the share of a question's evidence turns found in the top k,
// averaged over questions; MRR is the mean reciprocal rank of the first
// evidence turn within the top 10 (0 when none is there).

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// recallDir is the labelled set, shared by the whole repository.
var recallDir = filepath.Join("..", "..", "testdata", "search", "recall")

// recallFloor is what TestRecall_Floor demands of recall@10. Measured on
// this set: 0.839 (see BENCHMARKS.md); the floor leaves room for small
// analyser changes and catches a broken scorer or analyser.
const recallFloor = 0.75

type recallTurn struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
}

type recallQuestion struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	Category string   `json:"category"`
}

// loadRecallSet reads the set and turns every turn into a source Doc whose
// Ref is its source-id.
func loadRecallSet(t testing.TB) ([]Doc, []recallQuestion) {
	t.Helper()
	f, err := os.Open(filepath.Join(recallDir, "turns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []Doc
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var tr recallTurn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatalf("turns.jsonl:%d: %v", line, err)
		}
		tm, err := time.Parse(time.RFC3339, tr.Time)
		if err != nil {
			t.Fatalf("turns.jsonl:%d: %v", line, err)
		}
		ref := tr.Provider + "/" + tr.Session + "/" + tr.ID
		sum := sha256.Sum256([]byte(ref))
		d := Doc{Kind: KindSource, Ref: ref, Path: "sources/" + tr.Provider + "/_v2/" + tr.Session + ".md",
			Anchor: "source-" + hex.EncodeToString(sum[:4]), Time: tm, Text: tr.Content, Visible: true,
			SpeakerID: tr.SpeakerID, SpeakerDisplay: tr.SpeakerDisplay, SpeakerTrusted: tr.SpeakerDisplay != ""}
		switch {
		case tr.SpeakerID != "" && tr.SpeakerDisplay != "":
			d.SpeakerLabel = tr.SpeakerDisplay + " (" + tr.SpeakerID + ")"
		default:
			d.SpeakerLabel = tr.SpeakerDisplay + tr.SpeakerID
		}
		d.ID = "source:" + d.Path + "#" + d.Anchor
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(recallDir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []recallQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("questions.json: %v", err)
	}
	return docs, qs
}

// checkRecallSet fails on a set that could not measure anything: too
// small, or a question citing a turn that does not exist.
func checkRecallSet(t testing.TB, docs []Doc, qs []recallQuestion) {
	t.Helper()
	refs := map[string]bool{}
	sessions := map[string]bool{}
	for _, d := range docs {
		if refs[d.Ref] {
			t.Errorf("duplicate turn %s", d.Ref)
		}
		refs[d.Ref] = true
		sessions[d.Path] = true
	}
	if len(docs) < 60 || len(sessions) < 4 || len(qs) < 25 {
		t.Fatalf("set too small: %d turns in %d sessions, %d questions", len(docs), len(sessions), len(qs))
	}
	for _, q := range qs {
		if q.Question == "" || len(q.Evidence) == 0 {
			t.Errorf("%s: no question or no evidence", q.ID)
		}
		for _, e := range q.Evidence {
			if !refs[e] {
				t.Errorf("%s: evidence %s is not a turn", q.ID, e)
			}
		}
	}
}

// recallScores are the metrics of one ranker over a question set.
type recallScores struct {
	N             int
	R1, R5, R10   float64
	MRR           float64
	Missed        []string // questions with no evidence in the top 10
	ByCategoryR10 map[string]float64
}

// evaluate asks every question of rank (which returns refs, best first)
// and averages the metrics.
func evaluate(t testing.TB, qs []recallQuestion, rank func(q string) []string) recallScores {
	t.Helper()
	s := recallScores{N: len(qs), ByCategoryR10: map[string]float64{}}
	perCat := map[string]int{}
	for _, q := range qs {
		got := rank(q.Question)
		ev := map[string]bool{}
		for _, e := range q.Evidence {
			ev[e] = true
		}
		found := func(k int) float64 {
			n := 0
			for _, r := range got[:min(k, len(got))] {
				if ev[r] {
					n++
				}
			}
			return float64(n) / float64(len(ev))
		}
		s.R1 += found(1)
		s.R5 += found(5)
		r10 := found(10)
		s.R10 += r10
		s.ByCategoryR10[q.Category] += r10
		perCat[q.Category]++
		first := slices.IndexFunc(got[:min(10, len(got))], func(r string) bool { return ev[r] })
		if first >= 0 {
			s.MRR += 1 / float64(first+1)
		} else {
			s.Missed = append(s.Missed, q.ID)
		}
	}
	n := float64(len(qs))
	s.R1, s.R5, s.R10, s.MRR = s.R1/n, s.R5/n, s.R10/n, s.MRR/n
	for c, k := range perCat {
		s.ByCategoryR10[c] /= float64(k)
	}
	return s
}

func (s recallScores) String() string {
	cats := make([]string, 0, len(s.ByCategoryR10))
	for c := range s.ByCategoryR10 {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	fmt.Fprintf(&b, "R@1 %.3f  R@5 %.3f  R@10 %.3f  MRR %.3f  (%d questions)", s.R1, s.R5, s.R10, s.MRR, s.N)
	for _, c := range cats {
		fmt.Fprintf(&b, "\n    R@10 %-14s %.3f", c, s.ByCategoryR10[c])
	}
	fmt.Fprintf(&b, "\n    missed (no evidence in top 10): %v", s.Missed)
	return b.String()
}

// recallRankers builds our index (on disk, in t.TempDir) and the textbook
// baseline over docs, and returns one ranking function for each.
func recallRankers(t testing.TB, docs []Doc) (ours, base func(string) []string) {
	t.Helper()
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	refOf := map[string]string{}
	for _, d := range docs {
		refOf[d.ID] = d.Ref
	}
	bl := newBaselineBM25(t, docs)
	ours = func(q string) []string {
		hits, err := ix.Search(Query{Text: q, Limit: 10})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		return refs(hits)
	}
	base = func(q string) []string {
		var out []string
		for _, h := range bl.search(t, q, 10) {
			out = append(out, refOf[h.ID])
		}
		return out
	}
	return ours, base
}

// withDistractors adds n generated documents (gen_test.go) that answer no
// question, so the labelled turns compete with a larger corpus.
func withDistractors(docs []Doc, n int) []Doc {
	return append(slices.Clone(docs), genDocs(n, 77)...)
}

// TestRecall_Floor measures recall of our index and of the textbook
// baseline on the labelled set and requires ours to stay above the floor.
func TestRecall_Floor(t *testing.T) {
	docs, qs := loadRecallSet(t)
	checkRecallSet(t, docs, qs)
	ours, base := recallRankers(t, docs)
	so, sb := evaluate(t, qs, ours), evaluate(t, qs, base)
	t.Logf("ours (bleve BM25):    %v", so)
	t.Logf("textbook BM25:        %v", sb)
	if so.R10 < recallFloor {
		t.Errorf("recall@10 = %.3f, below the floor %.2f", so.R10, recallFloor)
	}
}

// BenchmarkRecall reports the recall metrics of both rankers, on the set
// alone and with 2000 generated distractor documents; the time per
// iteration is one pass over every question with both rankers.
func BenchmarkRecall(b *testing.B) {
	docs, qs := loadRecallSet(b)
	checkRecallSet(b, docs, qs)
	for _, c := range []struct {
		name string
		docs []Doc
	}{{"set", docs}, {"set+2000", withDistractors(docs, 2000)}} {
		b.Run(c.name, func(b *testing.B) {
			ours, base := recallRankers(b, c.docs)
			var so, sb recallScores
			for b.Loop() {
				so, sb = evaluate(b, qs, ours), evaluate(b, qs, base)
			}
			b.ReportMetric(so.R1, "R@1")
			b.ReportMetric(so.R5, "R@5")
			b.ReportMetric(so.R10, "R@10")
			b.ReportMetric(so.MRR, "MRR")
			b.ReportMetric(sb.R1, "base-R@1")
			b.ReportMetric(sb.R5, "base-R@5")
			b.ReportMetric(sb.R10, "base-R@10")
			b.ReportMetric(sb.MRR, "base-MRR")
			b.Logf("ours:     %v", so)
			b.Logf("textbook: %v", sb)
		})
	}
}
