package distill

import (
	"slices"
	"strings"
	"time"
)

// What a coding session's owner says when stopping it partway: "wait, stop
// here, standup in 2 min. don't commit yet", "I have to go, picking up my
// niece in 15 min. stop here". Read as a rule, such a turn is about this
// session only (project.go drops it); read as an event, it says the work
// was left unfinished that day and why, which is what is asked later.

// stopRe is the owner stopping the session: "stop here", "stop for now",
// "let's pause", "I have to stop here". "I have to go" alone is not: in a
// chat it closes most evenings, and the work may well go on.
var stopRe = lazyRegexp(`(?i)\b(?:stop (?:here|now|for now|for today|there)|let's (?:stop|pause)|pause (?:here|now|for now)|(?:have|need|got) to stop)\b`)

// stopTurnWords bound a stop turn: a longer one is a rule or a request that
// mentions stopping, not the stop itself.
const stopTurnWords = 30

// stopFact is the owner's stop, quoted, as a decision of the session dated
// the day it was said (the block's date; the text stays short, within the
// size the set allows); ok is false for any other turn.
func (d *distiller) stopFact(i int) (Fact, bool) {
	t := d.s.Turns[i]
	if !d.coding() || t.Role != RoleUser || !stopRe.MatchString(t.Content) {
		return Fact{}, false
	}
	text := cleanSentence(t.Content)
	if n := len(strings.Fields(text)); n < 3 || n > stopTurnWords {
		return Fact{}, false
	}
	if text = stopAndReason(split(text).sentences); text == "" {
		return Fact{}, false
	}
	day := t.Time.UTC().Format(time.DateOnly)
	return Fact{Subject: d.project, Kind: KindDecision, Theme: ThemeDecisions, Date: day,
		Text: quote(d.owner, text), Cites: []string{t.Ref}}, true
}

// reasonWords is the length from which a stop sentence carries its reason.
const reasonWords = 10

// stopAndReason keeps the sentence that stops the session and the one
// that says why, the one before it or, when the stop opens the turn, the
// one after ("actually stop here. the ONA meeting moved to now"), unless
// the stop sentence is long enough to say it itself; what
// else the turn says about the work is in the session's outcome.
func stopAndReason(sns []sentence) string {
	k := slices.IndexFunc(sns, func(sn sentence) bool { return stopRe.MatchString(sn.text) })
	if k < 0 || k > 1 {
		return "" // "commit with …. PR title starts with …. stop there": instructions closed by a stop, which the outcome reports
	}
	from, to := max(k-1, 0), k
	switch {
	case len(strings.Fields(sns[k].text)) >= reasonWords:
		from = k // "stop there, I deploy prod on Thursday night after the freeze": the reason is in it
	case k == 0 && len(sns) > 1:
		to = 1
	}
	var kept []string
	for _, sn := range sns[from : to+1] {
		kept = append(kept, discourse.ReplaceAllString(sn.text, "")) // "ok I have to stop": the "ok" adds nothing
	}
	return strings.Join(kept, " ")
}
