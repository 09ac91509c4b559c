package distill

import "testing"

// TestQuoted: a turn in its speaker's words, filed under the speaker's
// Notes; an unknown ref or an empty turn gives nothing.
func TestQuoted(t *testing.T) {
	s := Session{Provider: "telegram", ID: "g", Turns: []Turn{
		{Ref: "telegram/g/1", Role: RoleUser, Speaker: "Zed", SpeakerID: "u7", Content: "Friday deploys are \"cancelled\"."},
		{Ref: "telegram/g/2", Role: RoleUser, Speaker: "Zed", SpeakerID: "u7", Content: "  "},
	}}
	f, ok := Quoted(s, "telegram/g/1")
	if !ok || f.Text != `Zed said: "Friday deploys are 'cancelled'."` || f.Path != "topics/people/zed.md" || f.Theme != ThemeNotes || len(f.Cites) != 1 {
		t.Errorf("Quoted = %+v, %v", f, ok)
	}
	if _, ok := Quoted(s, "telegram/g/2"); ok {
		t.Error("an empty turn was quoted")
	}
	if _, ok := Quoted(s, "telegram/g/9"); ok {
		t.Error("an unknown ref was quoted")
	}
}
