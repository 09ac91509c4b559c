package distill

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The labelled set (testdata/distill, see its README): the floors hold on
// both halves; `go test -run TestLabelledSet -v` prints the figures.

const setDir = "../../../testdata/distill"

type goldSet struct {
	Conversations []goldConversation `json:"conversations"`
}

type goldConversation struct {
	File     string `json:"file"`
	Split    string `json:"split"`
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Session  string `json:"session"`
	Title    string `json:"title"`
	Project  string `json:"project"`
	Group    bool   `json:"group"`
	Turns    []struct {
		Ref   string `json:"ref"`
		Class string `json:"class"`
	} `json:"turns"`
	Facts []struct {
		ID       string   `json:"id"`
		Subject  string   `json:"subject"`
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	} `json:"facts"`
	Questions []struct {
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	} `json:"questions"`
}

type importLine struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group"`
	Project        string `json:"project"`
	Title          string `json:"title"`
}

// labelledCase is one conversation: the session to distil and its gold.
type labelledCase struct {
	gold    goldConversation
	session Session
	class   map[string]string // ref -> turn class
	content map[string]Turn   // ref -> turn
}

// loadAllSplits reads every part of the set, sealed ones included; tests
// use loadSet, which leaves the sealed parts out.
func loadAllSplits(t testing.TB) []labelledCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(setDir, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g goldSet
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("gold.json: %v", err)
	}
	f, err := os.Open(filepath.Join(setDir, "turns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sessions := map[string]*Session{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l importLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("turns.jsonl:%d: %v", n, err)
		}
		at, err := time.Parse(time.RFC3339, l.Time)
		if err != nil {
			t.Fatalf("turns.jsonl:%d: %v", n, err)
		}
		key := l.Provider + "/" + l.Session
		s := sessions[key]
		if s == nil {
			s = &Session{Provider: l.Provider, ID: l.Session, Title: l.Title, Project: l.Project, Group: l.Group}
			sessions[key] = s
		}
		s.Turns = append(s.Turns, Turn{Ref: key + "/" + l.ID, Time: at, Role: l.Role, Speaker: l.SpeakerDisplay,
			SpeakerID: l.SpeakerID, Owner: l.Tier == "owner" && l.Role == "user", Content: l.Content})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var out []labelledCase
	for _, gc := range g.Conversations {
		s := sessions[gc.Provider+"/"+gc.Session]
		if s == nil {
			t.Fatalf("%s: no turns in turns.jsonl", gc.File)
		}
		c := labelledCase{gold: gc, session: *s, class: map[string]string{}, content: map[string]Turn{}}
		for _, tt := range gc.Turns {
			c.class[tt.Ref] = tt.Class
		}
		for _, tt := range s.Turns {
			if c.class[tt.Ref] == "" {
				t.Fatalf("%s: turn %s has no class in gold.json", gc.File, tt.Ref)
			}
			c.content[tt.Ref] = tt
		}
		if len(c.class) != len(s.Turns) {
			t.Fatalf("%s: %d classes for %d turns", gc.File, len(c.class), len(s.Turns))
		}
		out = append(out, c)
	}
	return out
}

// figures are the set's measures over some conversations.
type figures struct {
	goldFacts, covered         int
	facts, precise, chatOnly   int
	invented, firstPerson      int
	factRunes, turnRunes       int
	summaries, summaryProblems int
	problems                   []string
}

func (f figures) coverage() float64  { return ratio(f.covered, f.goldFacts) }
func (f figures) precision() float64 { return ratio(f.precise, f.facts) }
func (f figures) size() float64      { return ratio(f.factRunes, f.turnRunes) }
func (f figures) chat() float64      { return ratio(f.chatOnly, f.facts) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// measure distils one conversation and scores it against its gold.
func measure(c labelledCase, facts []Fact, sum Fact, fig *figures) {
	evidence := map[string]bool{}
	for _, gf := range c.gold.Facts {
		for _, e := range gf.Evidence {
			evidence[e] = true
		}
	}
	cited := map[string]bool{}
	blocks := append(append([]Fact(nil), facts...), sum)
	for i, f := range blocks {
		isSummary := i == len(blocks)-1
		if isSummary {
			fig.summaries++
			if len(f.Cites) == 0 || strings.Count(f.Text, ". ")+1 > 2 || len(strings.Fields(f.Text)) > 60 {
				fig.summaryProblems++
				fig.problems = append(fig.problems, fmt.Sprintf("%s: summary too long or uncited: %q", c.gold.File, f.Text))
			}
		}
		fig.facts++
		fig.factRunes += utf8.RuneCountInString(f.Text)
		precise, onlyChat := false, len(f.Cites) > 0
		var ev []Evidence
		for _, r := range f.Cites {
			cited[r] = true
			if evidence[r] {
				precise = true
			}
			switch c.class[r] {
			case "chat", "narration", "tool":
			default:
				onlyChat = false
			}
			ev = append(ev, Evidence{Text: c.content[r].Content, Time: c.content[r].Time})
		}
		if precise {
			fig.precise++
		}
		if onlyChat {
			fig.chatOnly++
		}
		if miss := Unsupported(f.Text, ev, speakerNames(c.session, f)...); len(miss) > 0 {
			fig.invented++
			fig.problems = append(fig.problems, fmt.Sprintf("%s: invents %q in %q", c.gold.File, miss, f.Text))
		}
		if fp := FirstPersonWords(f.Text); len(fp) > 0 {
			fig.firstPerson++
			fig.problems = append(fig.problems, fmt.Sprintf("%s: first person %q in %q", c.gold.File, fp, f.Text))
		}
	}
	for _, gf := range c.gold.Facts {
		fig.goldFacts++
		for _, e := range gf.Evidence {
			if cited[e] {
				fig.covered++
				break
			}
		}
	}
	for _, t := range c.session.Turns {
		fig.turnRunes += utf8.RuneCountInString(t.Content)
	}
}

// speakerNames are the names a fact may use without the turns holding
// them: its subject, the session's speakers, the owner and the assistant.
func speakerNames(s Session, f Fact) []string {
	names := []string{f.Subject, DefaultOwnerName, "the assistant", ProjectName(s.Project)}
	if s.OwnerName != "" {
		names = append(names, s.OwnerName)
	}
	seen := map[string]bool{}
	for _, t := range s.Turns {
		if t.Speaker != "" && !seen[t.Speaker] {
			seen[t.Speaker] = true
			names = append(names, t.Speaker)
		}
	}
	return names
}

// floors are the least a part of the set must measure: the issue's
// targets on the dev part (coverage ≥ 0.85, precision ≥ 0.75, size ≤ 0.4,
// chat and narration blocks ≤ 2%); on heldout2 (tuned on since round
// three, BENCHMARKS.md) the targets it meets and a little over the chat
// rate it measures, which misses the target (8.8% > 2%); on heldout3
// (measured once in round three, tuned on since round four) the targets
// it meets and a little over the 4.4% chat it measures; on heldout4
// (written for round four, measured once at its end, tuned on in round
// five) precision and size at the targets, coverage and chat a little past
// the 0.851 and 8.8% it measures in round five (coverage misses the target
// by a little, chat by far): a floor against falling back; heldout2's chat
// floor is a little over the 7.2% it measures in round five; on heldout5
// (written for round five, measured once at its end: 0.530 / 0.802 / 0.222
// / 19.8%, BENCHMARKS.md "Round five's held-out part"; tuned on in round
// six) precision, size and coverage at the targets, chat just past the
// 0.860 and 3.8% it measures in round six; on heldout6 (written for round
// six, measured once at its end: 0.755 / 0.909 / 0.308 / 9.1%, BENCHMARKS.md
// "Round six's held-out part"; tuned on in round seven: 0.863 / 0.962 /
// 0.351 / 3.8%, BENCHMARKS.md "Round seven") precision, size and coverage
// at the targets, chat just past its figure.
// heldout7 (written for round seven, measured once at its end: 0.730 /
// 0.842 / 0.367 / 15.1%): precision and size at the targets, coverage and
// chat just past them (0.720 since "No no." is no rule: that block cited a
// gold turn whose rule is not kept); tuned on in round eight (0.860 /
// 0.925 / 0.358 / 6.8%, BENCHMARKS.md "Round eight"): coverage at the
// target, precision and size at the targets, chat just past its figure.
// Never inventing and the third person hold on every fact of every part.
// heldout8 (written for round eight, measured once at its end: 0.670 / 0.824 / 0.315 / 17.6%;
// tuned on in round nine: 0.854 / 0.924 / 0.388 / 7.6%, BENCHMARKS.md "Round nine"): coverage,
// precision and chat just under those figures, size at the target.
// heldout9 (written for round nine, measured once at its end: 0.396 / 0.907 / 0.209 / 9.3%;
// tuned on in round ten: 0.792 / 0.912 / 0.389 / 8.7%, BENCHMARKS.md "Round ten"): coverage,
// precision and chat just under those figures, size at the target.
// heldout10 (written for round ten, measured once at its end: 0.689 / 0.921 / 0.324 / 7.9%;
// tuned on in round eleven: 0.854 / 0.926 / 0.397 / 7.4%, BENCHMARKS.md "Round eleven"; 0.864 / 0.933 /
// 0.398 / 6.7% after round thirteen): coverage, precision and chat just under those figures, size at the target.
// heldout11 (written for round eleven, measured once at its end: 0.641 / 0.845 / 0.348 / 15.5%;
// tuned on in round twelve: 0.757 / 0.882 / 0.369 / 11.8%, BENCHMARKS.md "Round twelve"): coverage,
// precision and chat just under those figures, size at the target.
// heldout12 (written for round twelve, measured once at its end: 0.656 / 0.930 / 0.356 / 6.2%; 0.680 / 0.938 / 0.390 / 6.2% once a summary naming
// a file with "__" was no longer refused; tuned on in round thirteen: 0.736 / 0.977 / 0.400 / 2.3%,
// BENCHMARKS.md "Round thirteen"): coverage, precision and chat just past those figures, size at the target.
// heldout13 (written for round thirteen, measured once at its end: 0.650 / 0.838 / 0.382 / 16.2%,
// BENCHMARKS.md "Round thirteen's held-out part"; tuned on in round fourteen: 0.708 / 0.885 /
// 0.387 / 11.5%, BENCHMARKS.md "Round fourteen"): coverage, precision and chat just past those
// figures, size at the target.
// heldout14 (written for round fourteen, measured once at its end: 0.347 / 0.836 / 0.258 / 10.4%,
// BENCHMARKS.md "Round fourteen's held-out part"): Japanese is barely read (no spaces between
// words), and four of its conversations get no thread summary at all; tuned on in round fifteen
// (0.750 / 0.948 / 0.392 / 5.2%, no empty summary, BENCHMARKS.md "Round fifteen": words of
// spaceless scripts counted by segmentation, Japanese read by shape): coverage, precision and chat
// just past those figures, size at the target, no empty summary allowed.
// Round sixteen's small talk (chat16, BENCHMARKS.md "Small talk in the distiller's blocks"): the chat
// floors of heldout2–5, 8, 9 and 13 lowered to just above the figures they then measure.
// Round two of the small talk (chat17, BENCHMARKS.md "Small talk in the distiller's blocks, round
// two"): the chat floors of heldout7, 9 and 13 lowered to just above the figures they then measure.
// Round three of the small talk (chat18, BENCHMARKS.md "Small talk in the distiller's blocks, round
// three"): the chat floors of heldout3, 4, 9, 10 and 11 lowered to just above the figures they then measure.
// heldout15 (written for round fifteen, measured once at its end: 0.455 / 0.971 / 0.263 / 2.9%,
// BENCHMARKS.md "Round fifteen's held-out part"): the floors at those figures; tuned on in round
// sixteen (0.873 / 0.979 / 0.398 / 2.1%, BENCHMARKS.md "Round sixteen": Chinese read by its shapes
// and words, chinese.go): coverage and precision just under those figures, size and chat as before.
// heldout16 (English, written for round sixteen, measured once at its end: 0.775 / 0.867 / 0.352 /
// 12.7%, BENCHMARKS.md "Round sixteen's held-out part"), tuned on in round seventeen (0.833 / 0.903 /
// 0.358 / 9.1%, BENCHMARKS.md "Round seventeen": bursts, corrections, banter, rewriting fixes):
// coverage, precision and chat just past those figures, size at the target.
// heldout17 (German, written for round seventeen, measured once at its end: 0.650 / 0.821 / 0.445 /
// 15.9%, BENCHMARKS.md "Round seventeen's held-out part"), tuned on in round eighteen (0.850 / 0.904 /
// 0.449 / 8.1%, BENCHMARKS.md "Round eighteen": German ordinals and dates, nouns, news, rules,
// pasted lists): coverage, precision and chat just past those figures, size at 0.45 (over the
// target: German friends' and groups' facts are most of what they say, see BENCHMARKS.md); round
// eighteen, part two (0.850 / 0.969 / 0.420 / 1.6%, BENCHMARKS.md "Round eighteen, part two": German
// small talk in passing, a German summary's first sentences, particles): precision, size and chat
// just past those figures.
// heldout12's size bound is back at the 0.4 (round eighteen: 0.398, a pasted list one
// block); after round seventeen's merges it had been 0.405 for a while (0.401).
// heldout18 (Korean, written for round eighteen, measured once at its end: 0.474 / 0.929 / 0.224 /
// 5.9%, BENCHMARKS.md "Round eighteen's held-out part"); tuned on in round nineteen (korean.go:
// 0.737 / 0.925 / 0.398 / 4.5%): coverage and chat raised just under those figures, precision
// kept; the size bound moves from 0.23 to the 0.40 because coverage grew by half.
type floors struct{ coverage, precision, size, chat float64 }

var floorsBySplit = map[string]floors{
	"dev":       {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.02},
	"heldout2":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout3":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.03},
	"heldout4":  {coverage: 0.84, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout5":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.04},
	"heldout6":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.04},
	"heldout7":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout8":  {coverage: 0.85, precision: 0.90, size: 0.40, chat: 0.07},
	"heldout9":  {coverage: 0.78, precision: 0.90, size: 0.40, chat: 0.06},
	"heldout10": {coverage: 0.86, precision: 0.93, size: 0.40, chat: 0.06},
	"heldout11": {coverage: 0.75, precision: 0.87, size: 0.40, chat: 0.09},
	"heldout12": {coverage: 0.73, precision: 0.97, size: 0.40, chat: 0.03},
	"heldout13": {coverage: 0.70, precision: 0.88, size: 0.40, chat: 0.07},
	"heldout14": {coverage: 0.74, precision: 0.94, size: 0.40, chat: 0.06},
	"heldout15": {coverage: 0.87, precision: 0.97, size: 0.40, chat: 0.03},
	"heldout16": {coverage: 0.83, precision: 0.90, size: 0.40, chat: 0.07},
	"heldout17": {coverage: 0.84, precision: 0.96, size: 0.43, chat: 0.02},
	"heldout18": {coverage: 0.73, precision: 0.92, size: 0.40, chat: 0.05},
}

// measuredSplits are the parts TestLabelledSet measures and the
// invariant tests read. heldout2 joined them when the second round's
// tuning was over, heldout3 in round four, heldout4 at the end of round four, heldout5 at the end of round five, heldout6 at the end of round six (testdata/distill/README.md):
// until then nothing printed their facts.
var measuredSplits = []string{"dev", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18"}

// measuredCases are the conversations of the measured parts.
func measuredCases(t testing.TB) []labelledCase {
	var out []labelledCase
	for _, c := range loadSet(t) {
		if slices.Contains(measuredSplits, c.gold.Split) {
			out = append(out, c)
		}
	}
	return out
}

func TestLabelledSet(t *testing.T) {
	cases := loadSet(t)
	for _, split := range measuredSplits {
		t.Run(split, func(t *testing.T) {
			var all figures
			byKind := map[string]*figures{}
			for _, c := range cases {
				if c.gold.Split != split {
					continue
				}
				facts, sum := DistilAll(c.session)
				measure(c, facts, sum, &all)
				if byKind[c.gold.Kind] == nil {
					byKind[c.gold.Kind] = &figures{}
				}
				measure(c, facts, sum, byKind[c.gold.Kind])
			}
			kinds := make([]string, 0, len(byKind))
			for k := range byKind {
				kinds = append(kinds, k)
			}
			sort.Strings(kinds)
			t.Logf("%-10s %8s %9s %6s %6s %6s", "kind", "coverage", "precision", "size", "chat", "blocks")
			for _, k := range append(kinds, "all") {
				f := &all
				if k != "all" {
					f = byKind[k]
				}
				t.Logf("%-10s %8.3f %9.3f %6.3f %6.3f %6d", k, f.coverage(), f.precision(), f.size(), f.chat(), f.facts)
			}
			t.Logf("never invent: %d of %d blocks invent; third person: %d of %d use the first person",
				all.invented, all.facts, all.firstPerson, all.facts)
			fl := floorsBySplit[split]
			for _, p := range all.problems {
				t.Error(p)
			}
			if all.coverage() < fl.coverage {
				t.Errorf("coverage %.3f < %.2f", all.coverage(), fl.coverage)
			}
			if all.precision() < fl.precision {
				t.Errorf("precision %.3f < %.2f", all.precision(), fl.precision)
			}
			if all.size() > fl.size {
				t.Errorf("size %.3f > %.2f", all.size(), fl.size)
			}
			if all.chat() > fl.chat {
				t.Errorf("chat/narration blocks %.3f > %.2f", all.chat(), fl.chat)
			}
		})
	}
}

// TestLabelledSet_DumpDev prints what the distiller keeps from a tuned-on
// part, turn by turn, for tuning: DISTILL_DUMP=1 (or dev) prints dev,
// DISTILL_DUMP=heldout2 prints heldout2 (tuned on since the third round),
// DISTILL_DUMP=heldout3 heldout3 (since the fourth).
// It never prints a part outside measuredSplits: a held-out part is for
// measuring only.
func TestLabelledSet_DumpDev(t *testing.T) {
	want := os.Getenv("DISTILL_DUMP")
	if want == "" {
		t.Skip("set DISTILL_DUMP=1 (dev) or DISTILL_DUMP=heldout2 to print a part's facts")
	}
	if want == "1" {
		want = "dev"
	}
	if !slices.Contains(measuredSplits, want) {
		t.Fatalf("DISTILL_DUMP=%s: only a tuned-on part (%v) is printed", want, measuredSplits)
	}
	for _, c := range loadSet(t) {
		if c.gold.Split != want {
			continue
		}
		facts := Distil(c.session)
		byTurn := map[string][]Fact{}
		for _, f := range facts {
			byTurn[f.Cites[0]] = append(byTurn[f.Cites[0]], f)
		}
		d := newDistiller(c.session)
		d.names = sessionNames(c.session)
		rejected := map[string][]candidate{}
		for i, tt := range c.session.Turns {
			for _, cand := range d.candidates(i) {
				if len(cand.unsupported) > 0 {
					rejected[tt.Ref] = append(rejected[tt.Ref], cand)
				}
			}
		}
		goldOf := map[string][]string{}
		for _, gf := range c.gold.Facts {
			for _, e := range gf.Evidence {
				goldOf[e] = append(goldOf[e], gf.ID)
			}
		}
		fmt.Printf("\n=== %s (%s)\n", c.gold.File, c.gold.Kind)
		for _, tt := range c.session.Turns {
			got := byTurn[tt.Ref]
			mark := " "
			switch {
			case len(got) > 0 && len(goldOf[tt.Ref]) == 0:
				mark = "+" // kept, not gold
			case len(got) == 0 && len(goldOf[tt.Ref]) > 0:
				mark = "-" // gold, not kept
			}
			who := tt.Speaker
			if who == "" {
				who = tt.Role
			}
			fmt.Printf("%s %s %-9s %s: %.90q\n", mark, tt.Ref[strings.LastIndex(tt.Ref, "/")+1:], c.class[tt.Ref], who, tt.Content)
			for _, f := range got {
				chatOnly := true
				for _, r := range f.Cites {
					switch c.class[r] {
					case "chat", "narration", "tool":
					default:
						chatOnly = false
					}
				}
				arrow := "->"
				if chatOnly {
					arrow = "!!" // a chat block: it cites only chat, narration or tool turns
				}
				fmt.Printf("      %s [%s/%s key=%s date=%s core=%v] %s\n", arrow, f.Kind, f.Theme, f.Key, f.Date, f.Core, f.Text)
			}
			if mark == "-" && !d.coding() && tt.Role == RoleUser {
				prev := ""
				for k, sn := range split(tt.Content).sentences {
					w := d.weigh(indexOf(c.session, tt.Ref), k, sn, prev)
					prev = sn.text
					fmt.Printf("      .. score=%d chat=%v unread=%v %q\n", w.score, w.chat, d.unreadSentence(indexOf(c.session, tt.Ref), strings.TrimSpace(sn.text)), w.text)
				}
			}
			for _, r := range rejected[tt.Ref] {
				fmt.Printf("      xx invents %q: %s\n", r.unsupported, r.fact.Text)
			}
		}
		s := Summary(c.session)
		fmt.Printf("  SUMMARY %v: %s\n", s.Cites, s.Text)
		cited := map[string]bool{}
		for _, f := range append(facts, s) {
			for _, r := range f.Cites {
				cited[r] = true
			}
		}
		for _, gf := range c.gold.Facts {
			hit := false
			for _, e := range gf.Evidence {
				hit = hit || cited[e]
			}
			if !hit {
				fmt.Printf("  MISSED %s: %s\n", gf.ID, gf.Text)
			}
		}
	}
}

// indexOf is the position of the turn ref in the session.
func indexOf(s Session, ref string) int {
	for i, t := range s.Turns {
		if t.Ref == ref {
			return i
		}
	}
	return -1
}
