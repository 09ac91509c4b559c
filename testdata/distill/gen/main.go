// Command gen turns the hand-written conversations of testdata/distill/convs
// into the distillation set: turns.jsonl (the import format of SPEC §7, plus
// "project" and "title") and gold.json (per conversation: a class per turn,
// the gold facts with their evidence turns, the questions with theirs).
//
//	go run ./testdata/distill/gen          # rewrites turns.jsonl and gold.json
//	go run ./testdata/distill/gen -check   # exits 1 if they differ from what it writes
//
// The conversation files are the source of truth; see ../README.md for
// their format. Everything here is deterministic: no randomness, no clock.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	dir := flag.String("dir", "testdata/distill", "the set's directory (convs/ inside it)")
	check := flag.Bool("check", false, "compare instead of writing; exit 1 on a difference")
	flag.Parse()
	files, err := filepath.Glob(filepath.Join(*dir, "convs", "*.txt"))
	if err != nil || len(files) == 0 {
		fail(fmt.Errorf("no conversations in %s/convs (run from the repository root): %v", *dir, err))
	}
	sort.Strings(files)
	var convs []*conversation
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		c, err := parse(filepath.Base(f), string(data))
		if err != nil {
			fail(err)
		}
		convs = append(convs, c)
	}
	if err := checkUnique(convs); err != nil {
		fail(err)
	}
	turns, gold, err := render(convs)
	if err != nil {
		fail(err)
	}
	outs := map[string][]byte{"turns.jsonl": turns, "gold.json": gold}
	names := []string{"turns.jsonl", "gold.json"}
	stale := false
	for _, name := range names {
		p := filepath.Join(*dir, name)
		if *check {
			old, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(old, outs[name]) {
				fmt.Fprintf(os.Stderr, "%s is stale: run go run ./testdata/distill/gen\n", p)
				stale = true
			}
			continue
		}
		if err := os.WriteFile(p, outs[name], 0o644); err != nil {
			fail(err)
		}
	}
	if stale {
		os.Exit(1)
	}
	n, f, q := 0, 0, 0
	for _, c := range convs {
		n += len(c.turns)
		f += len(c.facts)
		q += len(c.questions)
	}
	fmt.Printf("%d conversations, %d turns, %d gold facts, %d questions\n", len(convs), n, f, q)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// checkUnique refuses two conversations with one provider and session.
func checkUnique(convs []*conversation) error {
	seen := map[string]string{}
	for _, c := range convs {
		k := c.provider + "/" + c.session
		if prev, ok := seen[k]; ok {
			return fmt.Errorf("%s and %s are both %s", prev, c.file, k)
		}
		seen[k] = c.file
	}
	return nil
}

// importLine is one SPEC §7 line; project and title are carried for the
// writer (the import ignores unknown fields today).
type importLine struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Parent         string `json:"parent"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id,omitempty"`
	SpeakerDisplay string `json:"speaker_display,omitempty"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group,omitempty"`
	Project        string `json:"project,omitempty"`
	Title          string `json:"title,omitempty"`
}

// Gold is gold.json.
type Gold struct {
	Conversations []GoldConversation `json:"conversations"`
}

// GoldConversation is one conversation's annotations.
type GoldConversation struct {
	File      string         `json:"file"`
	Split     string         `json:"split"`
	Kind      string         `json:"kind"`
	Provider  string         `json:"provider"`
	Session   string         `json:"session"`
	Title     string         `json:"title,omitempty"`
	Project   string         `json:"project,omitempty"`
	Group     bool           `json:"group"`
	Turns     []GoldTurn     `json:"turns"`
	Facts     []GoldFact     `json:"facts"`
	Questions []GoldQuestion `json:"questions"`
}

// GoldTurn is one turn's class.
type GoldTurn struct {
	Ref   string `json:"ref"`
	Class string `json:"class"`
}

// GoldFact is one fact an annotator wants remembered.
type GoldFact struct {
	ID       string   `json:"id"`
	Subject  string   `json:"subject"`
	Theme    string   `json:"theme"`
	Text     string   `json:"text"`
	Evidence []string `json:"evidence"`
}

// GoldQuestion is a question and the turns that answer it.
type GoldQuestion struct {
	Text     string   `json:"text"`
	Facts    []string `json:"facts"`
	Evidence []string `json:"evidence"`
}

func render(convs []*conversation) (turns, gold []byte, err error) {
	var tb bytes.Buffer
	enc := json.NewEncoder(&tb)
	enc.SetEscapeHTML(false)
	var g Gold
	for _, c := range convs {
		gc := GoldConversation{File: c.file, Split: c.split, Kind: c.kind(), Provider: c.provider, Session: c.session,
			Title: c.title, Project: c.project, Group: c.group, Turns: []GoldTurn{}, Facts: []GoldFact{}, Questions: []GoldQuestion{}}
		evidence := map[string][]string{}
		for i, t := range c.turns {
			sp := c.speakers[t.alias]
			parent := ""
			if i > 0 {
				parent = c.turns[i-1].id
			}
			line := importLine{Session: c.session, Provider: c.provider, ID: t.id, Parent: parent, Role: sp.role,
				Content: t.content, SpeakerID: sp.id, SpeakerDisplay: sp.display, Time: t.time.UTC().Format("2006-01-02T15:04:05Z"),
				Tier: sp.tier, Group: c.group, Project: c.project, Title: c.title}
			if err := enc.Encode(line); err != nil {
				return nil, nil, err
			}
			ref := c.provider + "/" + c.session + "/" + t.id
			gc.Turns = append(gc.Turns, GoldTurn{Ref: ref, Class: t.class})
			for _, f := range t.facts {
				evidence[f] = append(evidence[f], ref)
			}
		}
		for _, f := range c.facts {
			ev := evidence[f.id]
			if len(ev) == 0 {
				return nil, nil, fmt.Errorf("%s: fact %s has no evidence turn", c.file, f.id)
			}
			gc.Facts = append(gc.Facts, GoldFact{ID: f.id, Subject: f.subject, Theme: f.theme, Text: f.text, Evidence: ev})
		}
		for id := range evidence {
			if !c.hasFact(id) {
				return nil, nil, fmt.Errorf("%s: turn tag names fact %s, which is not defined", c.file, id)
			}
		}
		for _, q := range c.questions {
			var ev []string
			for _, f := range q.facts {
				if !c.hasFact(f) {
					return nil, nil, fmt.Errorf("%s: question %q names fact %s, which is not defined", c.file, q.text, f)
				}
				ev = append(ev, evidence[f]...)
			}
			gc.Questions = append(gc.Questions, GoldQuestion{Text: q.text, Facts: q.facts, Evidence: dedupe(ev)})
		}
		g.Conversations = append(g.Conversations, gc)
	}
	gold, err = json.MarshalIndent(g, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return tb.Bytes(), append(gold, '\n'), nil
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// kind names the conversation's shape for the per-kind figures.
func (c *conversation) kind() string {
	switch {
	case c.project != "":
		return "coding"
	case c.hasAssistant():
		return "assistant"
	case c.group:
		return "group"
	}
	return "friends"
}

func (c *conversation) hasAssistant() bool {
	for _, s := range c.speakers {
		if s.role == "assistant" {
			return true
		}
	}
	return false
}

func (c *conversation) hasFact(id string) bool {
	for _, f := range c.facts {
		if f.id == id {
			return true
		}
	}
	return false
}

// trimAll trims every string of xs.
func trimAll(xs []string) []string {
	for i := range xs {
		xs[i] = strings.TrimSpace(xs[i])
	}
	return xs
}
