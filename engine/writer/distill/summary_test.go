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

// TestSummary_NothingToSay: a chat without a fact has an empty summary.
func TestSummary_NothingToSay(t *testing.T) {
	s := Session{Provider: "telegram", ID: "grp", Turns: []Turn{
		{Ref: "telegram/grp/1", Role: RoleUser, Speaker: "Ann", SpeakerID: "u1", Content: "Haha 😂"},
	}}
	if sum := Summary(s); sum.Text != "" || len(sum.Cites) != 0 {
		t.Errorf("summary %+v", sum)
	}
}
