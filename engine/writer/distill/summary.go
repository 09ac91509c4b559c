package distill

import (
	"strings"
	"time"

	"scriptorium/workspace/topic"
)

// summaryWords bounds a Summary's text; chatSummaryWords a chat between
// people's, which repeats its facts.
const (
	summaryWords     = 60
	chatSummaryWords = 20
)

// Summary is the session's one thread block: what it was about and how it
// ended, in at most two sentences, citing the turns it rests on. A coding
// session's is the owner's request and the outcome; a chat with an
// assistant's is the owner's first request and the last decision or plan;
// a chat between people's is its first dated or slotted fact (openingFact)
// and its last one. A session
// in which no rule kept a fact is said in its most telling statement,
// quoted (gist); only small talk gives a Fact with no Text and no Cites.
func Summary(s Session) Fact {
	d := newDistiller(s)
	d.names = sessionNames(s)
	var facts []Fact
	if !d.coding() {
		facts = d.distil()
	}
	return d.summary(facts)
}

// summary is Summary given the session's facts (unused for a coding
// session).
func (d *distiller) summary(facts []Fact) Fact {
	s := d.s
	sum := Fact{Subject: d.threadSubject(), Kind: KindSummary, Theme: ThemeSessions}
	if len(s.Turns) == 0 {
		return sum
	}
	sum.Date = s.Turns[len(s.Turns)-1].Time.UTC().Format(time.DateOnly)
	var about, ended Fact
	switch {
	case d.coding():
		about = d.request(true)
		if i := d.outcomeTurn(); i >= 0 {
			t := s.Turns[i]
			if sents := d.informative(split(t.Content).sentences); len(sents) > 0 {
				annotated, _ := annotate(sents[0], t.Time)
				ended = Fact{Text: rewrite(annotated, "the assistant", rewriteOptions{we: d.project, you: d.owner, prose: true}),
					Cites: []string{t.Ref}}
			}
		}
	case d.hasAssistant():
		about = d.request(false)
		for i := len(facts) - 1; i >= 0; i-- {
			if k := facts[i].Kind; k == KindDecision || k == KindPlan {
				ended = facts[i]
				break
			}
		}
	default:
		// A chat between people has no one request: its first dated fact
		// says what it opened with, its last one where it got to, when both
		// are short.
		if len(facts) > 0 {
			about = openingFact(d.typedFacts(facts)) // smalltalk4.go
		}
		// Only when the same people said both: a block joining two
		// speakers' words would keep one's words, cited by the other's
		// turn, after the first is forgotten.
		if len(facts) > 1 {
			last := facts[len(facts)-1]
			if countWords(about.Text+" "+last.Text) <= chatSummaryWords && d.saidBy(last.Cites, d.speakers(about.Cites)) &&
				!d.laughingAside(last.Cites) { // smalltalk5.go
				ended = last
			}
		}
	}
	if about.Text == "" {
		about, ended = ended, Fact{}
	}
	if d.germanSession() {
		// Each half its first sentence, so both fit in two (germanchat.go).
		about.Text, ended.Text = germanSummaryOpening(about.Text), germanSummaryOpening(ended.Text)
	}
	if about.Text == "" {
		// Nothing kept: the session still says what it was about, in the
		// words of its most telling sentence.
		about = d.gist()
	}
	if about.Text == "" {
		return sum
	}
	// Never invent, here too: what fails the check is not written. The
	// request and the outcome are tried together, then each alone, so one
	// half the check refuses does not take the session's block with it.
	var tries []Fact
	if ended.Text != "" && ended.Text != about.Text {
		tries = append(tries, Fact{Text: about.Text + " " + ended.Text,
			Cites: inTurnOrder(s, appendNew(append([]string(nil), about.Cites...), ended.Cites...))})
	}
	tries = append(tries, about)
	if ended.Text != "" && ended.Text != about.Text {
		tries = append(tries, ended)
	}
	ok := false
	for k, t := range tries {
		sum.Text, sum.Cites = clipWords(t.Text, summaryWords), t.Cites
		if k < len(tries)-1 && pastTwoSentences(sum.Text) {
			continue // at most two sentences: the next try is shorter
		}
		if len(d.unsupported(sum)) == 0 {
			ok = true
			break
		}
	}
	if !ok {
		return Fact{Subject: sum.Subject, Kind: KindSummary, Theme: ThemeSessions}
	}
	sum.Key = summaryKeyOf(sum.Cites[0])
	sum.Path, _ = TopicFor(sum, s)
	return sum
}

// gist is the sentence that says most about a session in which the rules
// kept nothing, in its speaker's words: the best-scoring statement a
// person made (a coding session's owner's first statement). Quoted, not
// rewritten: it did not pass the rules that make a rewrite safe. Empty
// for a session of small talk and questions alone ("Hey you!", "How are
// you?"): a block of it would say nothing about what the session was.
func (d *distiller) gist() Fact {
	best, bestScore := -1, 0
	var bestText string
	for i, t := range d.s.Turns {
		prev := ""
		for k, sn := range split(t.Content).sentences {
			text := strings.TrimSpace(sn.text)
			f := analyse(text, d.names)
			if t.Role == RoleAssistant || sn.question || f.words < 4 || isChat(sentence{text: text}, f) {
				prev = sn.text
				continue
			}
			score := 0
			if !d.coding() {
				w := d.weigh(i, k, sn, prev)
				if w.chat {
					prev = sn.text
					continue
				}
				score = w.score
			}
			if best < 0 || score > bestScore {
				best, bestScore, bestText = i, score, text
			}
			prev = sn.text
		}
	}
	if best < 0 {
		return Fact{}
	}
	t := d.s.Turns[best]
	annotated, _ := annotate(cleanSentence(bestText), t.Time)
	return Fact{Text: quote(d.subjectOf(t), clipWords(annotated, chatSummaryWords)), Cites: []string{t.Ref}}
}

// clipWords cuts text to n words, ending with "…" when it cut.
func clipWords(text string, n int) string {
	if clipped, ok := clipSpaceless(text, n); ok {
		return clipped
	}
	ws := strings.Fields(text)
	if len(ws) <= n {
		return text
	}
	return strings.TrimRight(strings.Join(ws[:n], " "), ",;:") + "…"
}

// inTurnOrder sorts refs by where their turns are in the session.
func inTurnOrder(s Session, refs []string) []string {
	pos := map[string]int{}
	for i, t := range s.Turns {
		pos[t.Ref] = i
	}
	out := append([]string(nil), refs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && pos[out[j]] < pos[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (d *distiller) hasAssistant() bool {
	for _, t := range d.s.Turns {
		if t.Role == RoleAssistant {
			return true
		}
	}
	return false
}

// request is the owner's first informative sentence: in a coding session
// rewritten (an instruction reads as written), elsewhere quoted.
func (d *distiller) request(coding bool) Fact {
	for _, t := range d.s.Turns {
		if t.Role != RoleUser || !t.Owner {
			continue
		}
		for _, sn := range split(t.Content).sentences {
			f := analyse(sn.text, d.names)
			if f.words < 4 || isChat(sentence{text: sn.text}, f) && !sn.question || germanReminderRe.MatchString(sn.text) {
				continue
			}
			annotated, _ := annotate(strings.TrimSpace(sn.text), t.Time)
			text := quote(d.subjectOf(t), cleanSentence(annotated))
			if coding && !sn.question {
				text = rewrite(annotated, d.owner, rewriteOptions{we: d.project, keepYou: true, names: d.names})
			}
			return Fact{Text: text, Cites: []string{t.Ref}}
		}
	}
	return Fact{}
}

// threadSubject is what a session's thread is called: its title, its
// project, or who spoke in it.
func (d *distiller) threadSubject() string {
	if strings.TrimSpace(d.s.Title) != "" {
		return strings.TrimSpace(d.s.Title)
	}
	if d.coding() {
		return d.project
	}
	var names []string
	seen := map[string]bool{}
	for _, t := range d.s.Turns {
		if t.Speaker != "" && !seen[t.Speaker] {
			seen[t.Speaker] = true
			names = append(names, t.Speaker)
		}
	}
	if len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return capitalise(d.owner)
}

// TopicFor is the topic file and heading a fact belongs under:
// topics/people/<person>.md for a person (the owner's file for a
// speakerless owner), topics/projects/<project>.md for a coding session's
// facts, and topics/threads/<name>.md for a Summary, named by ThreadName.
func TopicFor(f Fact, s Session) (path, heading string) {
	d := newDistiller(s)
	switch {
	case f.Kind == KindSummary:
		return "topics/threads/" + ThreadName(s) + ".md", ThemeSessions
	case d.coding() && f.Subject == d.project:
		return "topics/projects/" + slugOr(d.project, "project") + ".md", f.Theme
	case f.Subject == d.owner && s.OwnerName == "":
		return "topics/people/owner.md", f.Theme
	}
	return "topics/people/" + slugOr(f.Subject, "someone") + ".md", f.Theme
}

func slugOr(s, fallback string) string {
	if slug := topic.Slug(s); slug != "" {
		return slug
	}
	return fallback
}

// ThreadName names a session's thread file by what it holds: its title
// ("Weeknight vegetarian meal plan" is weeknight-vegetarian-meal-plan);
// without one, the project or speakers and when it started
// ("ledgerline-2025-03-03-0914"). Never a bare session id, and never a
// turn's words: the owner may forget that turn, and a file name would
// keep them.
func ThreadName(s Session) string {
	if slug := topic.Slug(s.Title); slug != "" {
		return slug
	}
	d := newDistiller(s)
	when := ""
	for _, t := range s.Turns {
		if !t.Time.IsZero() {
			when = t.Time.UTC().Format("2006-01-02 1504")
			break
		}
	}
	name := d.threadSubject()
	if topic.Slug(name) == "" {
		name = s.Provider // "🎉" names nothing
	}
	slug := topic.Slug(name + " " + when)
	if slug == "" {
		slug = "thread"
	}
	return slug
}

// speakers are the speaker ids (or names) of the turns refs.
func (d *distiller) speakers(refs []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range d.s.Turns {
		for _, r := range refs {
			if t.Ref == r {
				out[t.SpeakerID+"\x00"+t.Speaker] = true
			}
		}
	}
	return out
}

// saidBy reports whether every turn of refs was said by one of who.
func (d *distiller) saidBy(refs []string, who map[string]bool) bool {
	for k := range d.speakers(refs) {
		if !who[k] {
			return false
		}
	}
	return true
}

// DistilAllAfter is DistilAll for a later part of a session whose earlier
// parts are in memory already: s holds the new turns, earlier the turns
// the session's summary cited so far. The facts are the new turns'; the
// summary is the whole session's, so it still says what the session
// opened with, and now how it ended. With no earlier turns it is DistilAll.
func DistilAllAfter(s Session, earlier []Turn) (facts []Fact, summary Fact) {
	if len(earlier) == 0 {
		return DistilAll(s)
	}
	d := newDistiller(s)
	d.names = sessionNames(s)
	facts = d.distil()
	whole := s
	whole.Turns = append(append([]Turn(nil), earlier...), s.Turns...)
	w := newDistiller(whole)
	w.names = sessionNames(whole)
	var before []Fact
	if !w.coding() {
		for i := range earlier {
			before = append(before, w.turn(i)...)
		}
	}
	return facts, w.summary(append(before, facts...))
}
