package distill

import (
	"fmt"
	"reflect"
	"testing"
)

const melPath = "topics/people/melanie-park.md"

func fact(text, key string, cites ...string) Fact {
	return Fact{Subject: "Melanie Park", Kind: KindFact, Theme: ThemeWork, Key: key, Text: text, Cites: cites, Path: melPath}
}

func TestMerge(t *testing.T) {
	job := Block{ID: "aaaa0001", Path: melPath, Heading: ThemeWork, Text: "Melanie Park works as a pharmacist at Riverside hospital.",
		Cites: []string{"wa/mel/t005"}}
	swamped := Block{ID: "aaaa0002", Path: melPath, Heading: ThemeWork, Text: "Melanie Park is swamped with work and the kids.",
		Cites: []string{"wa/mel/t003"}}
	elsewhere := Block{ID: "aaaa0003", Path: "topics/people/nadia-haddad.md", Text: "Nadia Haddad is swamped with work and the kids.",
		Cites: []string{"wa/mel/t009"}}
	existing := []Block{job, swamped, elsewhere}
	for _, tc := range []struct {
		name  string
		facts []Fact
		want  []Action
	}{
		{"a new fact is added", []Fact{fact("Melanie Park is allergic to shellfish.", "", "wa/mel/t057")},
			[]Action{{Op: OpAdd, Path: melPath, Heading: ThemeWork, Text: "Melanie Park is allergic to shellfish.",
				Cites: []string{"wa/mel/t057"}}}},
		{"a reworded restatement cites the block", []Fact{fact("Melanie Park is still swamped with the kids and work.", "", "wa/mel/t091")},
			[]Action{{Op: OpCite, Block: "aaaa0002", Path: melPath, Heading: ThemeWork, Text: swamped.Text,
				Cites: []string{"wa/mel/t003", "wa/mel/t091"}}}},
		{"a restatement already cited changes nothing", []Fact{fact("Melanie Park is swamped with work and the kids.", "", "wa/mel/t003")}, nil},
		{"a changed value replaces the block and cites both", []Fact{fact("Melanie Park got a job at the Hollybank clinic.", "work", "wa/mel/t085")},
			[]Action{{Op: OpReplace, Block: "aaaa0001", Path: melPath, Heading: ThemeWork, Text: "Melanie Park got a job at the Hollybank clinic.",
				Cites: []string{"wa/mel/t005", "wa/mel/t085"}}}},
		{"another subject's file is not looked at", []Fact{{Subject: "Owen Blake", Text: "Owen Blake is swamped with work and the kids.",
			Cites: []string{"tg/x/t1"}, Path: "topics/people/owen-blake.md", Theme: ThemeWork}},
			[]Action{{Op: OpAdd, Path: "topics/people/owen-blake.md", Heading: ThemeWork, Text: "Owen Blake is swamped with work and the kids.",
				Cites: []string{"tg/x/t1"}}}},
		{"a restatement within the batch folds into its add", []Fact{
			fact("Melanie Park signed up for the Sheffield 10k on the 18th of May.", "", "wa/mel/t023"),
			fact("Melanie Park is still signed up for the Sheffield 10k on the 18th.", "", "wa/mel/t077")},
			[]Action{{Op: OpAdd, Path: melPath, Heading: ThemeWork, Text: "Melanie Park signed up for the Sheffield 10k on the 18th of May.",
				Cites: []string{"wa/mel/t023", "wa/mel/t077"}}}},
		{"a changed value within the batch takes over its add", []Fact{
			fact("Melanie Park lives in Sheffield.", "home", "wa/mel/t010"),
			fact("Melanie Park is moving to York in July.", "home", "wa/mel/t093")},
			[]Action{{Op: OpAdd, Path: melPath, Heading: ThemeWork, Text: "Melanie Park is moving to York in July.",
				Cites: []string{"wa/mel/t010", "wa/mel/t093"}}}},
		{"a replace then a restatement of the new value is one action", []Fact{
			fact("Melanie Park got a job at the Hollybank clinic.", "work", "wa/mel/t085"),
			fact("Melanie Park got the lead job at the Hollybank clinic.", "work", "wa/mel/t089")},
			[]Action{{Op: OpReplace, Block: "aaaa0001", Path: melPath, Heading: ThemeWork, Text: "Melanie Park got a job at the Hollybank clinic.",
				Cites: []string{"wa/mel/t005", "wa/mel/t085", "wa/mel/t089"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Merge(existing, tc.facts)
			for i := range got {
				got[i].Facts = nil // compared below by count only
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Merge:\n got  %+v\n want %+v", got, tc.want)
			}
		})
	}
}

// A project's test command changes between sessions: the new one
// replaces the old block; a block under Outcomes is never a slot.
func TestMerge_ProjectSlots(t *testing.T) {
	p := "topics/projects/ledgerline.md"
	old := Block{ID: "bbbb0001", Path: p, Heading: ThemeCommands, Text: "Run the tests with go test -race ./... in this repo.",
		Cites: []string{"cc/s1/t001"}}
	outcome := Block{ID: "bbbb0002", Path: p, Heading: ThemeOutcomes, Text: "Tests run with go test and make lint passes; committed.",
		Cites: []string{"cc/s1/t024"}}
	f := Fact{Subject: "ledgerline", Kind: KindProject, Theme: ThemeCommands, Path: p,
		Text: "From now on run tests with make test, not go test directly.", Cites: []string{"cc/s2/t014"}}
	f.Key = BlockSlot(f.Text, f.Path, f.Theme)
	got := Merge([]Block{outcome, old}, []Fact{f})
	if len(got) != 1 || got[0].Op != OpReplace || got[0].Block != "bbbb0001" ||
		!reflect.DeepEqual(got[0].Cites, []string{"cc/s1/t001", "cc/s2/t014"}) {
		t.Errorf("Merge = %+v", got)
	}
}

// A session's summary replaces its own earlier summary, never another
// session's in the same thread file.
func TestMerge_Summaries(t *testing.T) {
	p := "topics/threads/meal-plan.md"
	mine := Block{ID: "cccc0001", Path: p, Heading: ThemeSessions, Text: "The owner said: \"Plan my dinners.\"", Cites: []string{"chatgpt/s1/t001"}}
	other := Block{ID: "cccc0002", Path: p, Heading: ThemeSessions, Text: "The owner said: \"Plan lunches.\"", Cites: []string{"chatgpt/s2/t001"}}
	sum := Fact{Kind: KindSummary, Theme: ThemeSessions, Path: p, Key: summaryKeyOf("chatgpt/s1/t009"),
		Text: "The owner said: \"I'm vegetarian.\" The owner chose the orzo.", Cites: []string{"chatgpt/s1/t001", "chatgpt/s1/t009"}}
	got := Merge([]Block{other, mine}, []Fact{sum})
	if len(got) != 1 || got[0].Op != OpReplace || got[0].Block != "cccc0001" {
		t.Errorf("Merge = %+v", got)
	}
}

// Merging a session's facts into the blocks they made asks for nothing:
// writing the same turns twice is idempotent.
func TestMerge_Idempotent(t *testing.T) {
	for _, c := range loadSet(t) {
		facts, sum := DistilAll(c.session)
		all := append(facts, sum)
		actions := Merge(nil, all)
		var blocks []Block
		for i, a := range actions {
			if a.Op != OpAdd {
				t.Fatalf("%s: merging into nothing gave %s", c.gold.File, a.Op)
			}
			blocks = append(blocks, Block{ID: string(rune('a' + i%26)), Path: a.Path, Heading: a.Heading, Text: a.Text, Cites: a.Cites})
		}
		if again := Merge(blocks, all); len(again) != 0 {
			t.Errorf("%s: merging again asks for %d actions, first %+v", c.gold.File, len(again), again[0])
		}
	}
}

// A fact with no content stems ("No no.") is still the block it made:
// merging it again asks for nothing.
func TestMerge_IdempotentWithoutStems(t *testing.T) {
	f := Fact{Subject: "desk", Kind: KindProject, Theme: "Conventions", Text: "No no.",
		Cites: []string{"claude-code/s/t011"}, Path: "topics/projects/desk.md"}
	first := Merge(nil, []Fact{f})
	if len(first) != 1 || first[0].Op != OpAdd {
		t.Fatalf("into nothing: %+v", first)
	}
	b := Block{ID: "a", Path: f.Path, Heading: f.Theme, Text: f.Text, Cites: f.Cites}
	if again := Merge([]Block{b}, []Fact{f}); len(again) != 0 {
		t.Errorf("merging again asks for %+v", again)
	}
}

// A value a later fact of the same session replaced stays replaced when
// the session is merged again: the block that holds the slot cites both
// turns, and the old value is not put back or added beside it.
func TestMerge_IdempotentAfterAChangedValue(t *testing.T) {
	old := Fact{Subject: "Marta", Kind: KindFact, Theme: "Places", Key: "home", Text: "Marta lives in Oliwa.",
		Cites: []string{"whatsapp/s/t001"}, Path: "topics/people/marta.md"}
	moved := Fact{Subject: "Marta", Kind: KindFact, Theme: "Places", Key: "home", Text: "Marta moved to Wrzeszcz.",
		Cites: []string{"whatsapp/s/t040"}, Path: "topics/people/marta.md"}
	first := Merge(nil, []Fact{old, moved})
	if len(first) != 1 || first[0].Text != moved.Text || len(first[0].Cites) != 2 {
		t.Fatalf("into nothing: %+v", first)
	}
	b := Block{ID: "a", Path: first[0].Path, Heading: first[0].Heading, Text: first[0].Text, Cites: first[0].Cites, Key: "home"}
	if again := Merge([]Block{b}, []Fact{old, moved}); len(again) != 0 {
		t.Errorf("merging again asks for %+v", again)
	}
}

// Rough edge: a Merger kept the stems of every text and word it read, so a
// huge write grew it without bound. It keeps at most twice mergerMemoMax
// texts and about mergerWordsMax words, and merges as before.
func TestMerger_Bounded(t *testing.T) {
	m := NewMerger()
	const n = 3 * mergerMemoMax
	p := "topics/people/owner.md"
	existing := make([]Block, 0, n)
	for i := range n {
		existing = append(existing, Block{ID: fmt.Sprintf("b%05d", i), Path: p, Heading: ThemeNotes,
			Text: fmt.Sprintf("Alpha%d beta%d gamma%d.", i, i, i)})
	}
	fact := Fact{Subject: DefaultOwnerName, Kind: KindFact, Theme: ThemeNotes, Path: p,
		Text: fmt.Sprintf("Alpha%d beta%d gamma%d.", n-1, n-1, n-1), Cites: []string{"c/s/t1"}}
	acts := m.Merge(existing, []Fact{fact})
	if len(acts) != 1 || acts[0].Op != OpCite || acts[0].Block != fmt.Sprintf("b%05d", n-1) {
		t.Fatalf("the restatement of the last block: %+v", acts)
	}
	if got := len(m.memo) + len(m.old); got > 2*mergerMemoMax {
		t.Errorf("the Merger keeps the stems of %d texts; want at most %d", got, 2*mergerMemoMax)
	}
	if len(m.cache) > mergerWordsMax+64 {
		t.Errorf("the Merger keeps the stems of %d words; want about %d at most", len(m.cache), mergerWordsMax)
	}
	// A second merge of the same blocks gives the same answer.
	if again := m.Merge(existing, []Fact{fact}); len(again) != 1 || again[0].Block != acts[0].Block {
		t.Errorf("a second merge: %+v", again)
	}
}
