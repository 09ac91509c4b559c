package recall_test

// Answer in context (issue 22 §4): on the labelled distillation set
// (testdata/distill), does an evidence turn of each question reach the
// agent's context within 1,000 tokens? Ours is recall.Recall over the
// memory the offline writer makes of the conversations (the turns are
// imported as the importer stores them and written by `write --force`,
// which distils each session); the baseline is textbook BM25 over the same turns,
// its best turns packed as "- [source-id] text" lines into the same
// budget. A question counts when one of its evidence turns is recalled
// itself or cited by a recalled block.
//
//	go test ./engine/recall -run TestAnswerInContext -v    # the table BENCHMARKS.md holds

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/writer"
	"scriptorium/render"
	"scriptorium/workspace/topic"
)

var distillDir = filepath.Join("..", "..", "testdata", "distill")

// aicSet is one split imported and written by the offline writer.
type aicSet struct {
	e     *engine.Engine
	convs []enginetest.DistillConv
	turns []enginetest.DistillTurn
	cites map[string][]string // block id -> cited source-ids
	text  map[string]string   // block id -> its text
}

func loadAIC(t *testing.T, split string) *aicSet {
	t.Helper()
	ctx := context.Background()
	ds := enginetest.LoadDistillSet(t, distillDir, split)
	set := &aicSet{convs: ds.Convs, turns: ds.Turns, cites: map[string][]string{}, text: map[string]string{}}
	state := filepath.Join(t.TempDir(), "state")
	ds.Import(t, state)
	set.e = enginetest.Open(t, state)
	if _, err := writer.Write(ctx, set.e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	v, err := set.e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.TopicPaths() {
		_, f, _ := v.Topic(p)
		defs := f.Definitions()
		for _, el := range f.Blocks() {
			set.text[el.BlockID] = recall.Clean(topic.BlockText(el))
			for _, r := range el.Refs {
				for _, c := range defs[r.Label].Sources {
					set.cites[el.BlockID] = append(set.cites[el.BlockID], c.SourceID)
				}
			}
		}
	}
	return set
}

// aicFigures are the questions answered in context, per kind and all.
type aicFigures map[string][2]int // kind -> {answered, asked}

func (f aicFigures) add(kind string, ok bool) {
	for _, k := range []string{"all", kind} {
		v := f[k]
		v[1]++
		if ok {
			v[0]++
		}
		f[k] = v
	}
}

func (f aicFigures) share(kind string) float64 {
	if f[kind][1] == 0 {
		return 0
	}
	return float64(f[kind][0]) / float64(f[kind][1])
}

// measure asks every question of the split through recall and through the
// packed baseline at budget.
func (s *aicSet) measure(t *testing.T, budget int) (ours, bm25 aicFigures) {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(s.turns))
	texts := make([]string, len(s.turns))
	content := map[string]string{}
	for i, tr := range s.turns {
		ids[i], texts[i] = tr.Ref(), tr.Content
		content[tr.Ref()] = tr.Content
	}
	bl := enginetest.NewTextbook(t, ids, texts)
	ours, bm25 = aicFigures{}, aicFigures{}
	for _, c := range s.convs {
		for _, q := range c.Questions {
			evidence := map[string]bool{}
			for _, ev := range q.Evidence {
				evidence[ev] = true
			}
			res, err := recall.Recall(ctx, s.e, recall.Request{Prompt: q.Text, Budget: budget, Cwd: c.Project})
			if err != nil {
				t.Fatal(err)
			}
			if res.Tokens > budget {
				t.Fatalf("%q: %d tokens over %d", q.Text, res.Tokens, budget)
			}
			found := false
			for _, it := range res.Items {
				cov := []string{it.Ref}
				if it.Kind != "source" {
					cov = s.cites[it.Ref]
				}
				for _, r := range cov {
					found = found || evidence[r]
				}
			}
			ours.add(c.Kind, found)
			used, found := 0, false
			for _, id := range bl.Rank(t, q.Text, 50) {
				n := render.CountTokens("- [" + id + "] " + content[id] + "\n")
				if used+n > budget {
					break
				}
				used += n
				found = found || evidence[id]
			}
			bm25.add(c.Kind, found)
		}
	}
	return ours, bm25
}

// aicFloor is the least ours ÷ BM25 each split keeps at 1,000 tokens,
// a little under what each measures since a source line cites its
// source-id and says its speaker's name without the id (round six,
// BENCHMARKS.md "Answer in context, round six"): dev 1.39×, heldout2
// 1.23×, heldout3 1.15×, heldout4 1.20×, heldout5 1.18×; heldout6,
// measured once at round six's end, 1.42× (0.621 against BM25's 0.437:
// a Portuguese part under English questions, where BM25 finds little),
// 1.49× (0.650) after round seven tuned the distiller on it.
// heldout7, measured once at round seven's end, 1.19× (0.743 against
// 0.624), 1.21× (0.752) after round eight tuned the distiller on it.
// heldout8, measured once at round eight's end, 1.07× (0.807 against
// 0.754), 1.09× (0.825) after round nine tuned the distiller on it.
// heldout9 (Ukrainian), measured once at round nine's end, 1.29× (0.495
// against 0.385: little of it is read, by either), 1.38× (0.532) after
// round ten read other scripts by shape.
// heldout10 (Vietnamese), measured once at round ten's end, 1.55× (0.787
// against 0.509), 1.64× (0.833) after round eleven read Vietnamese by shape.
// heldout11 (Hinglish), measured once at round eleven's end, 1.17× (0.817
// against 0.697).
// heldout12 (Indonesian), measured once at round twelve's end, 1.43× (0.686
// against 0.479), 1.45× once a summary's file name kept its "__".
// aic15's blocks under the heading a question names (heading.go): heldout9
// 1.40×, heldout11 1.18× (BENCHMARKS.md, "Answer in context, round
// eight"); the floors of heldout5, 6 and 7 raised to their figures of that run.
// heldout13 (Egyptian Arabic and Arabizi), measured once at round
// thirteen's end, 1.31× (0.739 against 0.563); tuned on in round fourteen
// (BENCHMARKS.md "Round fourteen"), 1.33× (0.748 against 0.563).
// heldout14 (Kansai Japanese), measured once at round fourteen's end,
// 1.12× (0.444 against 0.397): Japanese is barely distilled, and BM25's
// own share is low; tuned on in round fifteen (BENCHMARKS.md "Round
// fifteen"), 1.16× (0.460 against 0.397): its Japanese facts are kept,
// quoted in Japanese, which English questions reach no better than BM25;
// 1.14× (0.452) once merged with chat16's summaries (one question fewer).
// heldout15 (Mandarin Chinese), measured once at round fifteen's end,
// 1.35× (0.411 against 0.304); tuned on in round sixteen (Chinese read by
// its shapes and words, a Mandarin coding session's conventions), 1.47×
// (0.446 against 0.304). heldout16 (English), measured once at round
// sixteen's end, 1.11× (0.958 against 0.866: BM25 alone already reaches
// most of its plainly worded evidence); tuned on in round seventeen,
// 1.12× (0.966 against 0.866). heldout17 (German), measured once at
// round seventeen's end, 1.41× (0.628 against 0.446): German is barely
// distilled yet, and BM25's own share is low on its lower-case chat;
// tuned on in round eighteen, 1.48× (0.661 against 0.446).
// heldout18 (Korean), measured once at round eighteen's end, 1.67×
// (0.132 against 0.079): its questions are English and its evidence
// Korean, names in Hangul, so neither ranking reaches most of it;
// tuned on in round nineteen, 2.67× (0.211 against 0.079), nearly all
// of it the coding sessions' conventions (4.75×).
// Issue 22 §4's target is 1.25×: met on dev, heldout6, heldout9, heldout10, heldout12, heldout13 and heldout17 only; the held-out misses are mostly
// evidence no lexical ranking reaches (another language, a paraphrase, a
// turn not distilled), see there.
var aicFloor = map[string]float64{"dev": 1.38, "heldout2": 1.22, "heldout3": 1.14, "heldout4": 1.19, "heldout5": 1.19, "heldout6": 1.48, "heldout7": 1.21, "heldout8": 1.08, "heldout9": 1.39, "heldout10": 1.63, "heldout11": 1.17, "heldout12": 1.44, "heldout13": 1.32, "heldout14": 1.13, "heldout15": 1.46, "heldout16": 1.11, "heldout17": 1.46, "heldout18": 2.66}

// TestAnswerInContext (about 40 s on 2 busy cores) holds the answer-in-context floors.
func TestAnswerInContext(t *testing.T) {
	if testing.Short() {
		t.Skip("imports, writes and distils 1,360 turns")
	}
	// AIC_BUDGET measures another budget (AIC_BUDGET=2000); the floors
	// are at 1,000 tokens.
	const floorBudget = 1000
	budget := floorBudget
	if b := os.Getenv("AIC_BUDGET"); b != "" {
		if _, err := fmt.Sscan(b, &budget); err != nil {
			t.Fatalf("AIC_BUDGET=%q: %v", b, err)
		}
	}
	var table strings.Builder
	table.WriteString("| split | kind | questions | ours | BM25 packed | ratio |\n| --- | --- | --- | --- | --- | --- |\n")
	splits := []string{"dev", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18"}
	// AIC_SPLITS measures a chosen list: AIC_SPLITS=dev,heldout2.
	if s := os.Getenv("AIC_SPLITS"); s != "" {
		splits = strings.Split(s, ",")
	}
	for _, split := range splits {
		set := loadAIC(t, split)
		ours, bm25 := set.measure(t, budget)
		for _, kind := range []string{"friends", "assistant", "group", "coding", "all"} {
			ratio := 0.0
			if bm25.share(kind) > 0 {
				ratio = ours.share(kind) / bm25.share(kind)
			}
			fmt.Fprintf(&table, "| %s | %s | %d | %.3f | %.3f | %.2f× |\n", split, kind, ours[kind][1], ours.share(kind), bm25.share(kind), ratio)
		}
		if got := ours.share("all"); budget == floorBudget && aicFloor[split] > 0 && got < aicFloor[split]*bm25.share("all") {
			t.Errorf("%s: answer in context %.3f, less than %.2f× BM25's %.3f", split, got, aicFloor[split], bm25.share("all"))
		}
	}
	t.Logf("answer in context at %d tokens:\n%s", budget, table.String())
}
