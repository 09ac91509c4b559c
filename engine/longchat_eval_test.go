package engine_test

// The longchat evaluation: a year of invented conversation
// (testdata/search/longchat, see its README) is imported into a fresh
// state dir and written by the offline writer, exactly as `scriptorium
// import` and `scriptorium write --force` would. Every question is then
// asked through engine.Search (and RecallBudget), and the same trusted
// turns are ranked by textbook BM25 in the same run. A hit counts when it
// is an evidence source record or a topic block citing one.
//
//	go test ./engine/ -run TestLongChat -v     # prints the table BENCHMARKS.md holds

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/render"
	"scriptorium/workspace"
)

var lcDir = filepath.Join("..", "testdata", "search", "longchat")

// lcTurn is the part of an import line the baseline needs.
type lcTurn struct {
	Session  string `json:"session"`
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Content  string `json:"content"`
	Tier     string `json:"tier"`
	Group    bool   `json:"group"`
}

// lcSet is the set, imported and written.
type lcSet struct {
	state     string
	e         *engine.Engine
	questions []lcQuestion
	ids       []string // trusted turns' source-ids
	texts     []string // and their content
	canary    string
	cites     map[string][]string // block ref -> cited source-ids
}

// lcLoad imports and writes the set into a temp state dir.
func lcLoad(t *testing.T, mod ...func(*engine.Options)) *lcSet {
	t.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(filepath.Join(lcDir, "turns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	set := &lcSet{state: filepath.Join(t.TempDir(), "state"), cites: map[string][]string{}, canary: "CANARY-PENDING-7Q2"}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr lcTurn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Tier == "unpaired" && tr.Group {
			continue // archived pending: never searchable, so not in the baseline either
		}
		set.ids = append(set.ids, tr.Provider+"/"+tr.Session+"/"+tr.ID)
		set.texts = append(set.texts, tr.Content)
	}
	qb, err := os.ReadFile(filepath.Join(lcDir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(qb, &set.questions); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(set.state, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	store, err := sessions.Open(workspace.SessionsDB(set.state), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Import(bytes.NewReader(raw)); err != nil {
		store.Close()
		t.Fatal(err)
	}
	store.Close()
	opts := engine.Options{StateDir: set.state, Interactive: true, Distiller: writer.Distiller{}}
	for _, m := range mod {
		m(&opts)
	}
	set.e, err = engine.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.e.Close() })
	res, err := writer.Write(ctx, set.e, writer.WriteOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d trusted turns and wrote them in %d batches in %s", len(set.ids), res.Batches, time.Since(start).Round(time.Millisecond))
	return set
}

// covers maps search results to the evidence they stand for.
func (s *lcSet) covers(t *testing.T, res []result.SearchResult) lcRanked {
	t.Helper()
	var r lcRanked
	for i, h := range res {
		if i == 0 {
			r.Top = h.Score
		}
		if strings.Contains(h.Snippet, s.canary) {
			t.Fatalf("pending canary in a search result: %+v", h)
		}
		r.Covers = append(r.Covers, s.cover(t, h.Kind, h.Ref))
	}
	return r
}

// cover is what one hit stands for: a source itself, a block its sources.
func (s *lcSet) cover(t *testing.T, kind, ref string) []string {
	if kind == "source" {
		return []string{ref}
	}
	if c, ok := s.cites[ref]; ok {
		return c
	}
	got, err := s.e.Get(context.Background(), ref)
	if err != nil {
		t.Fatalf("get %s: %v", ref, err)
	}
	var fns []result.FootnoteView
	switch b := got.(type) {
	case result.BlockView:
		fns = b.Footnotes
	case *result.BlockView:
		fns = b.Footnotes
	default:
		t.Fatalf("get %s: %T", ref, got)
	}
	var c []string
	for _, fn := range fns {
		for _, src := range fn.Sources {
			c = append(c, src.Ref)
		}
	}
	s.cites[ref] = c
	return c
}

// ask runs every question through engine.Search with the given method.
func (s *lcSet) ask(t *testing.T, method string) map[string]lcRanked {
	t.Helper()
	out := map[string]lcRanked{}
	for _, q := range s.questions {
		res, err := s.e.Search(context.Background(), result.SearchQuery{Text: q.Text, Limit: 10, Method: method})
		if err != nil {
			t.Fatalf("%s %q: %v", q.ID, q.Text, err)
		}
		out[q.ID] = s.covers(t, res)
	}
	return out
}

// askBaseline ranks the trusted turns by textbook BM25.
func (s *lcSet) askBaseline(t *testing.T) map[string]lcRanked {
	bl := newLCTextbook(t, s.ids, s.texts)
	out := map[string]lcRanked{}
	for _, q := range s.questions {
		out[q.ID] = bl.rank(t, q.Text, 10)
	}
	return out
}

// recallAtBudget is, per category, the share of evidence inside what
// RecallBudget returns for the question at each budget.
func (s *lcSet) recallAtBudget(t *testing.T, budgets []int) map[string][]float64 {
	t.Helper()
	sum := map[string][]float64{}
	n := map[string]int{}
	for _, q := range s.questions {
		if q.Category == "unanswerable" {
			continue
		}
		for _, cat := range []string{"all", q.Category} {
			if sum[cat] == nil {
				sum[cat] = make([]float64, len(budgets))
			}
			n[cat]++
		}
		for i, b := range budgets {
			rr, err := recall.Recall(context.Background(), s.e, recall.Request{Prompt: q.Text, Budget: b})
			if err != nil {
				t.Fatalf("%s: %v", q.ID, err)
			}
			if strings.Contains(rr.Text, s.canary) {
				t.Fatalf("pending canary in recall: %s", q.ID)
			}
			var r lcRanked
			for _, it := range rr.Items {
				if it.Kind != "core" {
					r.Covers = append(r.Covers, s.cover(t, it.Kind, it.Ref))
				}
			}
			f := lcFound(q, r, len(r.Covers))
			sum["all"][i] += f
			sum[q.Category][i] += f
		}
	}
	for cat, v := range sum {
		for i := range v {
			v[i] /= float64(n[cat])
		}
	}
	return sum
}

// baselineAtBudget is recall@budget for textbook BM25: its turns, best
// first, each as a recall line ("- [source-id] text"), while the lines fit
// the budget in o200k tokens, with nothing else (no core, no fence).
func (s *lcSet) baselineAtBudget(t *testing.T, budgets []int) map[string][]float64 {
	t.Helper()
	bl := newLCTextbook(t, s.ids, s.texts)
	text := map[string]string{}
	for i, id := range s.ids {
		text[id] = s.texts[i]
	}
	sum := map[string][]float64{}
	n := map[string]int{}
	for _, q := range s.questions {
		if q.Category == "unanswerable" {
			continue
		}
		r := bl.rank(t, q.Text, 50)
		for _, cat := range []string{"all", q.Category} {
			if sum[cat] == nil {
				sum[cat] = make([]float64, len(budgets))
			}
			n[cat]++
		}
		for i, b := range budgets {
			used, k := 0, 0
			for ; k < len(r.Covers); k++ {
				c := render.CountTokens("- [" + r.Covers[k][0] + "] " + text[r.Covers[k][0]] + "\n")
				if used+c > b {
					break
				}
				used += c
			}
			f := lcFound(q, r, k)
			sum["all"][i] += f
			sum[q.Category][i] += f
		}
	}
	for cat, v := range sum {
		for i := range v {
			v[i] /= float64(n[cat])
		}
	}
	return sum
}
