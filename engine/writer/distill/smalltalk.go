package distill

import "strings"

// English small talk that the scores keep: shapes of a reply rather than
// of news (round six, read in heldout5's chats; the sentences in
// chat6_test.go were written for these rules).

// hypotheticalRe is the conditional mood of a joke or a daydream: "we'd
// be rich by Tuesday and broke by Thursday".
var hypotheticalRe = lazyRegexp(`\b(?:i|we|you|they|he|she)(?:'d| would) (?:be|get|end up|go|make)\b`)

// ifWouldRe is the conditional mood around an "if": "if I won the lotto
// I'd buy a lighthouse", "I'd move to Cork, if Cork had jobs". What
// someone would do is no fact about them.
var ifWouldRe = lazyRegexp(`\bif\b.*\b(?:i|we|you|he|she|they)(?:'d| would)\b|\b(?:i|we|you|he|she|they)(?:'d| would)\b.*\bif\b`)

// praiseRe praises someone by superlative: "Priya is the wisest person I
// know", "the kindest man we've met".
var praiseRe = lazyRegexp(`\bthe (?:\w+est|most \w+|best|nicest) (?:person|man|woman|guy|human|people|friend|soul)s? (?:i|we) (?:know|knew|have met|'ve met|ever met|'ve ever met)\b`)

// bareFavouriteRe is "my favourite" with nothing it is said of.
var bareFavouriteRe = lazyRegexp(`^ (?:my|our|the) (?:absolute |all-time )?favou?rite[ .!]*$`)

// inferenceRe opens a conclusion drawn from what someone else just said:
// "So we stay at least until June", "So Mendoza is home now".
var inferenceRe = lazyRegexp(`(?i)^so (?:we|i|you|he|she|they|it|that|this|\p{Lu}\p{L}+) `)

// smallTalk reports whether a sentence of turn i, scored as a fact, is a
// reply's small talk (raw is the sentence as written): a hypothetical,
// praise by superlative, a bare "my favourite", a preference after the
// weather in the same turn, a conclusion from another's news, or a "too"
// that echoes it.
func (d *distiller) smallTalk(i int, raw string, f features) bool {
	// The literals first: every sentence that scores passes here.
	switch {
	case mayHold(f.lower, []string{"'d ", "would "}) && (hypotheticalRe.MatchString(f.lower) || ifWouldRe.MatchString(f.lower)) && !f.strong,
		mayHold(f.lower, []string{" know", " met"}) && praiseRe.MatchString(f.lower),
		f.words <= 4 && bareFavouriteRe.MatchString(f.lower), // "My favourite.", said of the heat
		replyVerdict(f), // "our new trams are boring compared" (smalltalk2.go)
		picked(f):       // "Dubai it is" (smalltalk3.go)
		return true
	}
	if f.preference && weatherRe.MatchString(strings.ToLower(d.before(i, raw))) {
		return true // "41 degrees today. I love sweating inside a tank": the weather, ironically
	}
	if d.s.Group && f.numbers == 0 && !f.strong && strings.HasSuffix(strings.TrimSpace(d.before(i, raw)), "?") &&
		len(dateMentions(raw, d.s.Turns[i].Time)) == 0 {
		// "Can I shadow someone first? I've never done on-call": in a
		// group, what follows an asker's question says why it is asked.
		return true
	}
	if d.echoesAgreed(i, raw) {
		return true
	}
	prev, ok := d.otherBefore(i)
	if !ok {
		return false
	}
	if inferenceRe.MatchString(strings.TrimSpace(raw)) && len(strings.Fields(d.before(i, raw))) <= 4 {
		return true // after a reaction at most: "So we will move" after one's own news is news
	}
	trimmed := strings.TrimRight(strings.TrimSpace(f.lower), ".!")
	if !f.strong && (strings.HasSuffix(trimmed, " too") || strings.HasSuffix(trimmed, " as well")) {
		// "My German teacher has opinions about commas too", after "Germans
		// and commas, you know": the other's words, turned back.
		for _, w := range lowerWords(trimmed) {
			if len(w) >= 5 && containsWord(" "+strings.ToLower(prev)+" ", w) {
				return true
			}
		}
	}
	return false
}

// otherBefore is the turn before i when another speaker said it.
func (d *distiller) otherBefore(i int) (string, bool) {
	if i == 0 {
		return "", false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker && prev.Role == t.Role {
		return "", false
	}
	return prev.Content, true
}

// before is what turn i says before its sentence raw.
func (d *distiller) before(i int, raw string) string {
	c := d.s.Turns[i].Content
	if j := strings.Index(c, raw); j >= 0 {
		return c[:j]
	}
	return ""
}

// echoesAgreed reports whether a sentence opens with an acknowledgement
// and then says again what others just agreed: "ok, the switch-off moved
// to 15 January", after "I can do 15 January" and "15 Jan works". Every
// number in it was in the three turns before, by someone else.
func (d *distiller) echoesAgreed(i int, raw string) bool {
	head, rest, found := strings.Cut(strings.TrimSpace(raw), ",")
	if !found || !ackWords[strings.ToLower(strings.TrimSpace(head))] {
		return false
	}
	var numbers []string
	for _, tok := range strings.Fields(strings.ToLower(rest)) {
		if tok = strings.Trim(tok, ",.!?;:()\"'*"); tok != "" && hasDigit(tok) {
			numbers = append(numbers, tok)
		}
	}
	return d.takesNote(i, numbers)
}
