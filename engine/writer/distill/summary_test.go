package distill

import (
	"strings"
	"testing"
	"time"
)

// TestSummary_OneSpeakersWords: a chat's summary joins its first and last
// facts only when the same people said both. Forgetting a speaker drops
// the citations of their turns and keeps a block that cites another's:
// a summary of Ann's and Bob's words would keep Bob's, cited by Ann.
func TestSummary_OneSpeakersWords(t *testing.T) {
	at := time.Date(2026, 8, 10, 10, 0, 0, 0, time.UTC)
	s := Session{Provider: "telegram", ID: "grp", Group: true, Turns: []Turn{
		{Ref: "telegram/grp/1", Role: RoleUser, Speaker: "Ann", SpeakerID: "u1", Time: at, Content: "I love the harbour walk in spring."},
		{Ref: "telegram/grp/2", Role: RoleUser, Speaker: "Bob", SpeakerID: "u456", Time: at.Add(time.Minute), Content: "I'm moving to Lisbon in May."},
	}}
	sum := Summary(s)
	if !strings.Contains(sum.Text, "harbour") || strings.Contains(sum.Text, "Lisbon") || len(sum.Cites) != 1 {
		t.Errorf("summary %q citing %v, want Ann's fact alone", sum.Text, sum.Cites)
	}
	s.Turns[1].Speaker, s.Turns[1].SpeakerID = "Ann", "u1"
	s.Turns[1].Content = "I'm moving to Lisbon in May."
	if sum := Summary(s); !strings.Contains(sum.Text, "Lisbon") || len(sum.Cites) != 2 {
		t.Errorf("one speaker's summary %q citing %v, want both facts", sum.Text, sum.Cites)
	}
}

// TestSummary_NothingKept: a session in which no rule keeps a fact (here
// in French, which the rules do not read) still gets its one thread block,
// saying what it was about in its most telling statement, quoted and
// cited; only small talk has none (TestDistil_DropsSmallTalk).
func TestSummary_NothingKept(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := Session{Provider: "messenger", ID: "pa", Turns: []Turn{
		{Ref: "messenger/pa/1", Role: RoleUser, Speaker: "Denis", SpeakerID: "u1", Time: at, Content: "Allo ma grande. Papa"},
		{Ref: "messenger/pa/2", Role: RoleUser, Speaker: "Ines", SpeakerID: "u2", Time: at.Add(time.Minute), Content: "Allo papa! 😄"},
		{Ref: "messenger/pa/3", Role: RoleUser, Speaker: "Denis", SpeakerID: "u1", Time: at.Add(2 * time.Minute), Content: "Physio deux fois par semaine pendant huit semaines, a Trois-Rivieres. Papa"},
	}}
	if facts := Distil(s); len(facts) != 0 {
		t.Fatalf("the rules kept %+v: the test needs a session they keep nothing of", facts)
	}
	sum := Summary(s)
	want := `Denis said: "Physio deux fois par semaine pendant huit semaines, a Trois-Rivieres."`
	if sum.Text != want || len(sum.Cites) != 1 || sum.Cites[0] != "messenger/pa/3" || sum.Path == "" {
		t.Errorf("summary %q citing %v in %q, want %q citing messenger/pa/3", sum.Text, sum.Cites, sum.Path, want)
	}
	if miss := newDistiller(s).unsupported(sum); len(miss) > 0 {
		t.Errorf("summary invents %q", miss)
	}
}
