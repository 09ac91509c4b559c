package distill

import (
	"path"
	"strings"
	"time"

	"scriptorium/engine/index/reldate"
)

// Distil returns the facts of a session worth remembering, in conversation
// order of their first citation. A turn yields zero, one or several facts;
// a fact stated twice is one fact citing both turns. Every fact passes
// Unsupported against the turns it cites.
func Distil(s Session) []Fact {
	d := newDistiller(s)
	var facts []Fact
	for i := range s.Turns {
		facts = append(facts, d.turn(i)...)
	}
	if out, ok := d.outcome(); ok {
		facts = append(facts, out)
	}
	return dedupe(facts)
}

// distiller is one session being distilled.
type distiller struct {
	s       Session
	owner   string // what the owner is called
	project string // the project a coding session is about, "" elsewhere
	names   map[string]bool
}

func newDistiller(s Session) *distiller {
	d := &distiller{s: s, owner: s.OwnerName}
	if d.owner == "" {
		d.owner = DefaultOwnerName
	}
	d.project = ProjectName(s.Project)
	d.names = sessionNames(s)
	return d
}

// ProjectName is the project a working directory names: its last path
// element ("/home/nadia/src/ledgerline" is "ledgerline"); "" for "".
func ProjectName(dir string) string {
	dir = strings.TrimRight(strings.ReplaceAll(dir, `\`, "/"), "/")
	if dir == "" {
		return ""
	}
	return path.Base(dir)
}

// coding reports whether the session is a coding session.
func (d *distiller) coding() bool { return d.project != "" }

// subjectOf is who a turn's first-person words are about.
func (d *distiller) subjectOf(t Turn) string {
	switch {
	case t.Role == RoleAssistant:
		return "the assistant"
	case t.Speaker != "":
		return t.Speaker
	}
	return d.owner
}

// turn distils one turn: its candidates that invent nothing.
func (d *distiller) turn(i int) []Fact {
	var facts []Fact
	for _, c := range d.candidates(i) {
		if len(c.unsupported) == 0 {
			facts = append(facts, c.fact)
		}
	}
	return facts
}

// candidate is a fact a sentence gave and the words of it that its turn
// does not hold (none, or it is dropped).
type candidate struct {
	fact        Fact
	unsupported []string
}

// candidates are the facts one turn's sentences give.
func (d *distiller) candidates(i int) []candidate {
	t := d.s.Turns[i]
	if t.Role == RoleAssistant {
		// An assistant's turns are answers, narration and tool output; in a
		// coding session its final summary is the outcome (see outcome).
		return nil
	}
	seg := split(t.Content)
	if seg.codeRunes > 2*seg.textRunes && seg.codeRunes > 200 {
		return nil // a pasted log or file with a line of comment
	}
	var out []candidate
	for _, sn := range seg.sentences {
		var f Fact
		var ok bool
		if d.coding() {
			f, ok = d.projectFact(t, sn, i > 0 && d.s.Turns[i-1].Role == RoleAssistant &&
				strings.HasSuffix(strings.TrimSpace(d.s.Turns[i-1].Content), "?"))
		} else {
			f, ok = d.personFact(i, sn)
		}
		if !ok || f.Text == "" {
			continue
		}
		f.Cites = []string{t.Ref}
		out = append(out, candidate{fact: f, unsupported: d.unsupported(f, t)})
	}
	return out
}

// unsupported checks a fact against its turn: never invent.
func (d *distiller) unsupported(f Fact, t Turn) []string {
	return Unsupported(f.Text, []Evidence{{Text: t.Content, Time: t.Time}}, f.Subject, d.subjectOf(t), d.owner)
}

// dateMentions are the dates of a sentence said at t.
func dateMentions(text string, at time.Time) []reldate.Mention { return reldate.FindAll(text, at) }

// annotate resolves the sentence's dates against the turn's time: the
// text gets "(2025-04)" after "next month", and the fact its first date.
func annotate(text string, at time.Time) (string, string) {
	ms := reldate.FindAll(text, at)
	if len(ms) == 0 {
		return text, ""
	}
	return reldate.AnnotateAll(text, at), ms[0].Date()
}
