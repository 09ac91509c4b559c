package distill

import "scriptorium/workspace/topic"

// Quoted is turn ref of s as a fact in its speaker's words ("Zed said:
// \"Friday deploys are cancelled.\""), filed as TopicFor files a person's
// fact, under ThemeNotes. It is for a turn the owner vouched for (a
// promoted group message) in which Distil found nothing: what the owner
// chose to keep is kept, not rewritten. ok is false for an unknown ref or
// a turn with no text.
func Quoted(s Session, ref string) (Fact, bool) {
	d := newDistiller(s)
	for _, t := range d.s.Turns {
		if t.Ref != ref {
			continue
		}
		text := topic.BlockSafe(cleanSentence(t.Content))
		if text == "" {
			return Fact{}, false
		}
		subject := d.subjectOf(t)
		f := Fact{Subject: subject, Kind: KindFact, Theme: ThemeNotes, Text: quote(subject, text), Cites: []string{ref}}
		f.Path, _ = TopicFor(f, s)
		return f, true
	}
	return Fact{}, false
}
