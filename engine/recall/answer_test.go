package recall_test

// Answer in context (issue 22 §4): on the labelled distillation set
// (testdata/distill), does an evidence turn of each question reach the
// agent's context within 1,000 tokens? Ours is recall.Recall over the
// memory the offline distiller makes of the conversations (the turns are
// imported and archived by the writer as `write --force` does, then every
// session is distilled with engine/writer/distill, merged fact by fact
// with distill.Merge and installed as topic files, as the distilling
// writer files them); the baseline is textbook BM25 over the same turns,
// its best turns packed as "- [source-id] text" lines into the same
// budget. A question counts when one of its evidence turns is recalled
// itself or cited by a recalled block.
//
//	go test ./engine/recall -run TestAnswerInContext -v    # the table BENCHMARKS.md holds

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/browse"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/engine/writer/distill"
	"scriptorium/render"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

var distillDir = filepath.Join("..", "..", "testdata", "distill")

type aicConv struct {
	Split     string `json:"split"`
	Kind      string `json:"kind"`
	Provider  string `json:"provider"`
	Session   string `json:"session"`
	Title     string `json:"title"`
	Project   string `json:"project"`
	Group     bool   `json:"group"`
	Questions []struct {
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	} `json:"questions"`
}

type aicTurn struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
}

func (t aicTurn) ref() string { return t.Provider + "/" + t.Session + "/" + t.ID }

// aicSet is one split imported, archived and distilled.
type aicSet struct {
	e     *engine.Engine
	convs []aicConv
	turns []aicTurn
	cites map[string][]string // block id -> cited source-ids
}

func loadAIC(t *testing.T, split string) *aicSet {
	t.Helper()
	ctx := context.Background()
	var gold struct {
		Conversations []aicConv `json:"conversations"`
	}
	gb, err := os.ReadFile(filepath.Join(distillDir, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(gb, &gold); err != nil {
		t.Fatal(err)
	}
	set := &aicSet{cites: map[string][]string{}}
	inSplit := map[string]bool{}
	for _, c := range gold.Conversations {
		if c.Split == split {
			set.convs = append(set.convs, c)
			inSplit[c.Provider+"/"+c.Session] = true
		}
	}
	raw, err := os.ReadFile(filepath.Join(distillDir, "turns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr aicTurn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		if inSplit[tr.Provider+"/"+tr.Session] {
			set.turns = append(set.turns, tr)
			lines.Write(sc.Bytes())
			lines.WriteByte('\n')
		}
	}
	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(filepath.Join(state, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	store, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Import(&lines); err != nil {
		store.Close()
		t.Fatal(err)
	}
	store.Close()
	set.e = enginetest.Open(t, state)
	if _, err := writer.Write(ctx, set.e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	set.distil(t)
	return set
}

// distil replaces the writer's topics by the distiller's: every session's
// facts and summary, merged against what memory holds so far.
func (s *aicSet) distil(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	byConv := map[string][]aicTurn{}
	when := map[string]string{}
	for _, tr := range s.turns {
		byConv[tr.Provider+"/"+tr.Session] = append(byConv[tr.Provider+"/"+tr.Session], tr)
		when[tr.ref()] = tr.Time
	}
	var blocks []distill.Block
	for _, c := range s.convs {
		ds := distill.Session{Provider: c.Provider, ID: c.Session, Title: c.Title, Project: c.Project, Group: c.Group}
		for _, tr := range byConv[c.Provider+"/"+c.Session] {
			at, err := time.Parse(time.RFC3339, tr.Time)
			if err != nil {
				t.Fatal(err)
			}
			ds.Turns = append(ds.Turns, distill.Turn{Ref: tr.ref(), Time: at, Role: tr.Role, Speaker: tr.SpeakerDisplay,
				SpeakerID: tr.SpeakerID, Owner: tr.Tier == "owner", Content: tr.Content})
		}
		facts, sum := distill.DistilAll(ds)
		if sum.Text != "" {
			facts = append(facts, sum)
		}
		for i := range facts {
			if facts[i].Path == "" {
				facts[i].Path, facts[i].Theme = distill.TopicFor(facts[i], ds)
			}
		}
		for _, a := range distill.Merge(blocks, facts) {
			switch a.Op {
			case distill.OpAdd:
				id := topic.NewBlockID(fmt.Sprintf("fact:%d:%s", len(blocks), a.Text))
				blocks = append(blocks, distill.Block{ID: id, Path: a.Path, Heading: a.Heading, Text: a.Text, Cites: a.Cites})
			default:
				for i := range blocks {
					if blocks[i].ID == a.Block {
						blocks[i].Text, blocks[i].Cites = a.Text, a.Cites
					}
				}
			}
		}
	}
	files := map[string]*strings.Builder{}
	lastHeading := map[string]string{}
	var order []string
	for _, b := range blocks {
		f := files[b.Path]
		if f == nil {
			f = &strings.Builder{}
			files[b.Path] = f
			order = append(order, b.Path)
			name := strings.TrimSuffix(filepath.Base(b.Path), ".md")
			fmt.Fprintf(f, "# %s\n\n", name)
			lastHeading[b.Path] = ""
		}
		if b.Heading != lastHeading[b.Path] && b.Heading != "" {
			fmt.Fprintf(f, "## %s\n\n", b.Heading)
			lastHeading[b.Path] = b.Heading
		}
		label := topic.NewFootnoteLabel("fn:" + b.ID)
		def := topic.Definition{Label: label}
		for _, ref := range b.Cites {
			v, err := s.e.Get(ctx, ref)
			if err != nil {
				t.Fatalf("get %s: %v", ref, err)
			}
			sv := v.(result.SourceView)
			def.Sources = append(def.Sources, topic.Citation{SourceID: ref, Path: topic.RelPath(b.Path, sv.Path), Anchor: sv.Anchor})
			def.Date = max(def.Date, when[ref][:10])
		}
		s.cites[b.ID] = b.Cites
		fmt.Fprintf(f, "%s[^%s] ^%s\n\n%s\n\n", topic.BlockSafe(b.Text), label, b.ID, topic.FormatDefinition(def))
	}
	old, err := browse.Topics(ctx, s.e)
	if err != nil {
		t.Fatal(err)
	}
	var edits []engine.Edit
	for _, o := range old {
		if files[o.Path] == nil {
			edits = append(edits, enginetest.Delete(o.Path))
		}
	}
	sort.Strings(order)
	for _, p := range order {
		exists := false
		for _, o := range old {
			exists = exists || o.Path == p
		}
		if exists {
			edits = append(edits, enginetest.Replace(p, files[p].String()))
		} else {
			edits = append(edits, enginetest.Create(p, files[p].String()))
		}
	}
	if _, err := s.e.Update(ctx, enginetest.Tx(enginetest.Revision(t, s.e), edits...)); err != nil {
		t.Fatalf("install the distilled topics: %v", err)
	}
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
		ids[i], texts[i] = tr.ref(), tr.Content
		content[tr.ref()] = tr.Content
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

// aicFloor is the least ours ÷ BM25 each split keeps at 1,000 tokens:
// issue 22 §4's 1.25× on dev; on heldout2 (measured once, seen since) a
// little under what it measured.
var aicFloor = map[string]float64{"dev": 1.25, "heldout2": 1.15}

// TestAnswerInContext (about 40 s on 2 busy cores) holds the answer-in-context floors.
func TestAnswerInContext(t *testing.T) {
	if testing.Short() {
		t.Skip("imports, writes and distils 1,360 turns")
	}
	const budget = 1000
	var table strings.Builder
	table.WriteString("| split | kind | questions | ours | BM25 packed | ratio |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, split := range []string{"dev", "heldout2"} {
		set := loadAIC(t, split)
		ours, bm25 := set.measure(t, budget)
		for _, kind := range []string{"friends", "assistant", "group", "coding", "all"} {
			ratio := 0.0
			if bm25.share(kind) > 0 {
				ratio = ours.share(kind) / bm25.share(kind)
			}
			fmt.Fprintf(&table, "| %s | %s | %d | %.3f | %.3f | %.2f× |\n", split, kind, ours[kind][1], ours.share(kind), bm25.share(kind), ratio)
		}
		if got := ours.share("all"); got < aicFloor[split]*bm25.share("all") {
			t.Errorf("%s: answer in context %.3f, less than %.2f× BM25's %.3f", split, got, aicFloor[split], bm25.share("all"))
		}
	}
	t.Logf("answer in context at %d tokens:\n%s", budget, table.String())
}
