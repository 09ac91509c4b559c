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

// stopFiller opens a stop without adding to it.
var stopFiller = lazyRegexp(`(?i)^(?:ugh|argh|wait|hold on|sorry|oops|oh no)[,!.]*\s+`)

// shortStop is the length under which a stop opening the turn says no
// reason ("actually stop here."), and the next sentence gives it.
const shortStop = 5

// stopAndReason keeps the sentence that stops the session and the one
// that says why: a short stop opening the turn and the sentence after it
// ("actually stop here. the ONA meeting moved to now"), or the sentence
// before it and the stop itself, cut after its stop ("I have to go,
// picking up my niece in 15 min. stop here"). A stop after two sentences
// or more closes instructions, which the session's outcome reports.
func stopAndReason(sns []sentence) string {
	k := slices.IndexFunc(sns, func(sn sentence) bool { return stopRe.MatchString(sn.text) })
	var kept []string
	switch {
	case k == 0:
		kept = append(kept, sns[0].text)
		if len(strings.Fields(sns[0].text)) < shortStop && len(sns) > 1 {
			kept = append(kept, sns[1].text)
		}
	case k == 1:
		stop := sns[1].text
		loc := stopRe.FindStringIndex(stop)
		kept = append(kept, sns[0].text, strings.TrimRight(stop[:loc[1]], ",;")+".")
	default:
		return "" // "commit with …. PR title starts with …. stop there"
	}
	for j := range kept {
		// "ok I have to stop", "wait, stop here": the "ok" and "wait" add nothing
		kept[j] = stopFiller.ReplaceAllString(discourse.ReplaceAllString(kept[j], ""), "")
	}
	return strings.Join(kept, " ")
}
