package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// English rewriting details (distill18): what a "'d" stands for, a
// trailing "I think", and a "we" inside a fragment that has no verb of
// its own.

// dAux is what the "'d" of the contraction at toks[i] stands for: "had"
// before a past participle ("I'd booked the 15th off"), "would" otherwise
// ("I'd love to", "I'd need a lift").
func dAux(toks []string, i int) string {
	for j := i + 1; j < len(toks); j++ {
		w := strings.ToLower(toks[j])
		if strings.TrimSpace(w) == "" {
			continue
		}
		if adverbs[w] {
			continue
		}
		if pastParticiple(w) {
			return "had"
		}
		return "would"
	}
	return "would"
}

// pastParticiple reports whether w reads as a past participle: a regular
// "-ed" (not the base forms that happen to end so, "need", "feed") or a
// common irregular one.
func pastParticiple(w string) bool {
	if irregularParticiples[w] {
		return true
	}
	if len(w) < 4 || !strings.HasSuffix(w, "ed") {
		return false
	}
	return !strings.HasSuffix(w, "eed") || w == "agreed" || w == "freed" || w == "guaranteed"
}

var irregularParticiples = map[string]bool{"been": true, "gone": true, "done": true, "seen": true, "had": true,
	"taken": true, "given": true, "forgotten": true, "written": true, "known": true, "told": true, "heard": true,
	"made": true, "left": true, "bought": true, "brought": true, "thought": true, "paid": true, "sent": true,
	"spent": true, "lost": true, "found": true, "met": true, "got": true, "gotten": true, "eaten": true,
	"driven": true, "flown": true, "sold": true, "won": true, "begun": true, "booked": true}

// trailingHedgeRe is a sentence that ends by hedging it: "the Bake Bar
// does scones on Saturdays I think".
var trailingHedgeRe = lazyRegexp(`^(.+?),? (I (?:think|reckon|believe|guess|suppose))[.!?…]*$`)

// hedgeFirst moves a trailing "I think" to the front, where a rewrite
// reads it as the speaker's: "Dara thinks the Bake Bar does scones".
func hedgeFirst(text string) string {
	m := trailingHedgeRe.FindStringSubmatch(text)
	if m == nil || strings.HasSuffix(strings.TrimSpace(m[1]), "?") {
		return text
	}
	rest := m[1]
	if fs := strings.Fields(rest); len(fs) > 0 && analyzer().stop[strings.ToLower(fs[0])] {
		rest = lowerFirst(rest)
	}
	return m[2] + " " + rest
}

// fragmentBeforeWe reports whether a sentence whose first first-person
// word is a "we" opens with a fragment that has no verb of its own: a
// capitalised word that cannot start a reported clause (no stop word,
// name, day or adverb) and, with no punctuation between, a noun the "we"
// clause qualifies ("Ceiling of the house we don't have yet"), so "said
// ceiling of…" would not read. "Two weeks in Asturias, we hiked" and "Sad
// news from us" are clauses of their own.
func fragmentBeforeWe(toks []string, names map[string]bool) bool {
	prev := ""
	for _, tok := range toks {
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsLetter(r) {
			if strings.TrimSpace(tok) != "" {
				return false
			}
			continue
		}
		lw := strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
		if _, we := theyForms[lw]; we || firstPerson[lw] {
			return prev != "" && !analyzer().stop[prev] && !adverbs[prev] && !timeOpeners[prev]
		}
		if prev == "" && !(unicode.IsUpper(r) && !analyzer().stop[lw] && !names[nameKey(tok)] &&
			!calendarWords[nameKey(tok)] && !adverbs[lw] && !strings.HasSuffix(lw, "ly") && !timeOpeners[lw]) {
			return false
		}
		prev = lw
	}
	return false
}

// timeOpeners start a clause with when it happens: "Tomorrow we fly".
var timeOpeners = map[string]bool{"today": true, "tomorrow": true, "yesterday": true, "tonight": true,
	"later": true, "soon": true, "next": true, "last": true, "this": true, "then": true, "now": true}

// bravadoRe is a vow staked on an outcome: "Sub 4 hours or I'm giving up
// running forever", "under two hours or I'll never swim again".
var bravadoRe = lazyRegexp(`\bor (?:i'm|i am|i'll|i will|i) [^.!?]*\b(?:forever|ever again|never again|for good|for life)\b`)

func bravado(lower string) bool { return bravadoRe.MatchString(lower) }

// clubResultRe is a match's result: "lost by 2 points to Oughterard",
// "2-09 to 1-07, we won", "we won 3-1".
var clubResultRe = lazyRegexp(`\b(?:won|lost|beat \w+|drew) by \d+ (?:points?|goals?|runs?|wickets?)\b|\b\d{1,2}-\d{1,2} to \d{1,2}-\d{1,2}\b|\bwe (?:won|lost|drew) \d{1,2}-\d{1,2}\b`)

// clubResult reports a match result told in a group chat: the team's
// week, not a member's life (a player's own "we lost by 60, and my ankle…"
// told to a friend keeps its news).
func (d *distiller) clubResult(lower string) bool {
	return d.s.Group && clubResultRe.MatchString(lower)
}
