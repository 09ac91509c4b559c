package distill

import (
	"slices"
	"strings"
)

// relations are the people (and pets) "your …" asks about.
var relationRe = lazyRegexp(`(?i)\byour (mum|mom|mother|dad|father|sister|brother|husband|wife|partner|son|daughter|boyfriend|girlfriend|grandma|gran|grandad|grandpa|grandmother|grandfather|aunt|uncle|boss|dog|cat|baby)\b`)

// myRelationRe is "my" and a relative (or pet) in a sentence.
var myRelationRe = lazyRegexp(`(?i)\bmy (mum|mom|mother|dad|father|sister|brother|husband|wife|partner|son|daughter|boyfriend|girlfriend|fianc[ée]e?|grandma|gran|grandad|grandpa|grandmother|grandfather|aunt|uncle|boss|dog|cat|baby|cousin|niece|nephew)\b`)

// calendarWords are capitalised words that name no one: days, months and
// holidays.
var calendarWords = map[string]bool{"Monday": true, "Tuesday": true, "Wednesday": true, "Thursday": true, "Friday": true,
	"Saturday": true, "Sunday": true, "January": true, "February": true, "March": true, "April": true, "May": true,
	"June": true, "July": true, "August": true, "September": true, "October": true, "November": true, "December": true,
	"Christmas": true, "Easter": true, "Diwali": true, "Eid": true, "Ramadan": true, "Hanukkah": true,
	"Thanksgiving": true, "Halloween": true, "New": true, "Year": true, "Boxing": true, "Day": true, "Lent": true}

// resolvePronoun gives a sentence that opens with "he" or "she" its
// subject back: the one person the sentence before it (same turn) names
// ("…as long as Bruno can come. He's a border collie"), or the relation
// the other speaker just asked about ("How's your mum doing?" — "She had
// her knee replacement"), whose turn the fact then cites too (context).
func (d *distiller) resolvePronoun(i int, text, prev string) (resolved, context string) {
	first := firstWord(text)
	lw := strings.ToLower(strings.ReplaceAll(first, "’", "'"))
	var verb string
	switch lw {
	case "he", "she":
	case "he's", "she's":
		verb = " is"
		if next := strings.ToLower(firstWord(strings.TrimPrefix(text, first))); next == "got" || next == "been" {
			verb = " has"
		}
	default:
		return text, ""
	}
	rest := text[len(first):]
	t := d.s.Turns[i]
	named := d.namedIn(prev, t.Speaker)
	// "My dad retired at Christmas… He's already bored": the one relative
	// the sentence before names, when it names no one else.
	if m := myRelationRe.FindAllStringSubmatch(prev, 2); len(m) == 1 && len(named) == 0 {
		return possessive(d.subjectOf(t)) + " " + strings.ToLower(m[0][1]) + verb + rest, ""
	}
	if len(named) == 1 {
		return named[0] + verb + rest, ""
	}
	// "How's Eirik?" — "Sharks now. He turned 8…": a sentence of a few
	// words that names no one leaves the question's name to the pronoun.
	if (prev == "" || len(strings.Fields(prev)) <= 3 && len(named) == 0) && i > 0 {
		q := d.s.Turns[i-1]
		if q.Speaker != t.Speaker && strings.HasSuffix(strings.TrimSpace(q.Content), "?") {
			if m := relationRe.FindStringSubmatch(q.Content); m != nil {
				return possessive(d.subjectOf(t)) + " " + strings.ToLower(m[1]) + verb + rest, q.Ref
			}
			// "Does Owain still work for the council?" — "He's a town planner there".
			if asked := d.namedIn(q.Content, q.Speaker, t.Speaker); len(asked) == 1 {
				return asked[0] + verb + rest, q.Ref
			}
		}
	}
	return text, ""
}

// namedIn are the people a text names (session names, not calendar
// words, not the given speakers), each once, in order.
func (d *distiller) namedIn(text string, speakers ...string) []string {
	own := map[string]bool{}
	for _, sp := range speakers {
		for _, w := range strings.Fields(sp) {
			own[w] = true
		}
	}
	var named []string
	for _, w := range strings.Fields(text) {
		w = nameKey(strings.Trim(w, ",.!?;:()\"'"))
		if d.names[w] && !own[w] && !calendarWords[w] && !slices.Contains(named, w) {
			named = append(named, w)
		}
	}
	return named
}
