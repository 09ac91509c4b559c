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
	d.names = sessionNames(s)
	return d.distil()
}

// DistilAll is Distil and Summary in one pass over the session: what the
// writer calls.
func DistilAll(s Session) (facts []Fact, summary Fact) {
	d := newDistiller(s)
	d.names = sessionNames(s)
	facts = d.distil()
	return facts, d.summary(facts)
}

func (d *distiller) distil() []Fact {
	s := d.s
	var facts []Fact
	gave := false // whether the turn before gave facts
	for i := range s.Turns {
		got := d.turn(i)
		chat := d.smallTalkTurn(i, gave)
		gave = len(got) > 0
		if chat {
			got = nil // a reaction to that news, an answer to a welcome (smalltalk3.go)
		}
		facts = append(facts, got...)
	}
	if out, ok := d.outcome(); ok {
		facts = append(append(facts, d.interimOutcomes()...), out)
	}
	facts = dedupe(d.dropPastedCopies(facts)) // smalltalk4.go
	for i := range facts {
		facts[i].Path, _ = TopicFor(facts[i], s)
		facts[i].Key = BlockSlot(facts[i].Text, facts[i].Path, facts[i].Theme)
	}
	return facts
}

// distiller is one session being distilled.
type distiller struct {
	s       Session
	owner   string          // what the owner is called
	project string          // the project a coding session is about, "" elsewhere
	names   map[string]bool // sessionNames, filled by the entry points that read sentences
	// stems and evidence cache porter stems and each turn's evidence index.
	stems    map[string]string
	evidence map[string]*evidenceIndex
	// questions caches asked: the question each turn answers.
	questions map[int]askedTurn
	// lang caches turnLanguage, unread unreadTurn, speakerSet speakerWords.
	lang   map[int]*language
	unread map[int]bool
	// unreadWeak are unread turns told by one function word alone:
	// their sentences need more than the shape's two to be kept.
	unreadWeak map[int]bool
	speakerSet map[string]bool
	bots       map[string]bool // botSpeaker's answers
	// nameStems are the first four letters of the session's names (inflectedName).
	nameStems map[string]bool
	// german caches germanSession: 0 not read yet, 1 German, -1 not.
	german int8
}

func newDistiller(s Session) *distiller {
	// Text is read as UTF-8: invalid bytes become U+FFFD once, here, so
	// every length below is the text's own. A message the app translated
	// is read in its translation (translated, relayed.go), one with
	// Chatwork's markup without its tags (chatwork.go).
	turns := make([]Turn, len(s.Turns))
	for i, t := range s.Turns {
		t.Content = withoutChatworkTags(translated(strings.ToValidUTF8(t.Content, "\uFFFD")))
		turns[i] = t
	}
	s.Turns = turns
	d := &distiller{s: s, owner: s.OwnerName, stems: map[string]string{}, evidence: map[string]*evidenceIndex{}}
	if d.owner == "" {
		d.owner = DefaultOwnerName
	}
	d.project = ProjectName(s.Project)
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
	return d.joinListLines(i, facts) // a pasted list is one block (pastedlists.go)
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
	t.Content = zhMediaText(t.Content) // a voice message's words, a photo's caption (chinese.go)
	if relayed(t) || d.botSpeaker(t.Speaker) || chainMessage(t.Content) {
		return nil // a forward, a media placeholder, a bot's line (relayed.go), a chain message (chinese.go)
	}
	seg := split(t.Content)
	if seg.codeRunes > 2*seg.textRunes && seg.codeRunes > 200 {
		return nil // a pasted log or file with a line of comment
	}
	var out []candidate
	prev := ""
	for k, sn := range seg.sentences {
		var f Fact
		var ok bool
		if d.coding() {
			f, ok = d.projectFact(i, sn, k)
		} else {
			f, ok = d.personFact(i, k, sn, prev)
		}
		prev = sn.text
		if !ok || f.Text == "" {
			continue
		}
		if len(f.Cites) == 0 {
			f.Cites = []string{t.Ref}
		}
		out = append(out, candidate{fact: f, unsupported: d.unsupported(f)})
	}
	if len(out) == 0 {
		if f, ok := d.stopFact(i); ok {
			out = append(out, candidate{fact: f, unsupported: d.unsupported(f)}) // stops.go
		}
	}
	if f, ok := d.correctionFact(i); ok && (t.Speaker != "" || len(out) == 0) {
		// A correction told to an assistant with a fact of its own is read
		// as one (correctedRe); among people it joins what it corrects.
		out = append(out, candidate{fact: f, unsupported: d.unsupported(f)}) // bursts.go
	} else if len(out) == 0 {
		if f, ok := d.burstNews(i); ok {
			out = append(out, candidate{fact: f, unsupported: d.unsupported(f)}) // bursts.go
		}
	}
	if len(out) == 0 && !d.coding() {
		if f, ok := d.listedFact(i); ok {
			out = append(out, candidate{fact: f, unsupported: d.unsupported(f)}) // lists.go
		}
	}
	return out
}

// forwardedRe opens a forwarded message, as chat apps mark it.
var forwardedRe = lazyRegexp(`(?i)^\s*(?:\[(?:forwarded|fwd|transféré|transfere|transféré·e)\]|(?:forwarded(?: message)?|fwd?|transféré|transfere)(?: from [^:\n]{1,40})?:|-+ ?forwarded message ?-+)`)

// unsupported checks a fact against the turns it cites: never invent.
func (d *distiller) unsupported(f Fact) []string {
	names := []string{f.Subject, d.owner, "the assistant"}
	var ix *evidenceIndex
	for _, ref := range f.Cites {
		for _, t := range d.s.Turns {
			if t.Ref != ref {
				continue
			}
			names = append(names, d.subjectOf(t))
			one := d.evidence[ref]
			if one == nil {
				one = indexEvidence([]Evidence{{Text: t.Content, Time: t.Time}}, d.stems)
				d.evidence[ref] = one
			}
			if ix == nil {
				ix = one
			} else {
				ix = ix.union(one)
			}
			break
		}
	}
	if ix == nil {
		ix = indexEvidence(nil, d.stems)
	}
	return ix.unsupported(f.Text, names, d.stems)
}

// dateMentions are the dates of a sentence said at t.
func dateMentions(text string, at time.Time) []reldate.Mention { return reldate.FindAll(text, at) }

// annotate resolves the sentence's dates against the turn's time: the
// text gets "(2025-04)" after "next month", and the fact its first date.
func annotate(text string, at time.Time) (string, string) {
	return annotateWith(text, reldate.FindAll(text, at))
}

// annotateWith is annotate given the sentence's mentions.
func annotateWith(text string, ms []reldate.Mention) (string, string) {
	if len(ms) == 0 {
		return text, ""
	}
	return reldate.AnnotateMentions(text, ms), ms[0].Date()
}
