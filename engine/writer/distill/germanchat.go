package distill

import "strings"

// Round eighteen, part two: German small talk that carries a number, or
// reads like news, said in passing (by shape, in a German session only).

// germanScoreRe is a game's score ("24:21 gewonnen!", "3:1 verloren"):
// the evening's result, not a fact to keep about anyone.
var germanScoreRe = lazyRegexp(`(?i)\b\d{1,3}:\d{1,3}\b.*\b(?:gewonnen|verloren|unentschieden|gespielt)\b|\b(?:gewonnen|verloren)\b.*\b\d{1,3}:\d{1,3}\b`)

// germanCaptionRe points at what was just sent ("Das hier ist von Omas
// Hochzeit 1957", "hier war das vom Urlaub"): a photo's caption.
var germanCaptionRe = lazyRegexp(`(?i)^(?:das hier|hier|das da|dies)\s+(?:ist|war|sind|waren)\s+(?:von|vom|aus|beim|bei)\b`)

// germanOfferRe offers something to fetch ("kannst du dir an der 47
// abholen", "könnt ihr euch mitnehmen"): a favour of the moment.
var germanOfferRe = lazyRegexp(`(?i)\b(?:kannst du dir|könnt ihr euch|kannst du|könnt ihr)\b.*\b(?:abholen|mitnehmen|holen)\b`)

// germanSayingRe ends a generic saying ("Anfang Mai pflanzen ist immer
// Lotterie", "Regen im Juni ist halt so"): "ist immer/halt/eben" and one
// word, no one's fact.
var germanSayingRe = lazyRegexp(`(?i)\bist (?:immer|halt|eben|nun mal|doch immer)\s+\p{L}+[.!…]*$`)

// germanJudgeRe opens a judgment of an amount already said ("immer noch
// fair für 58 qm", "ok für plagwitz", "teuer für zwei Zimmer").
var germanJudgeRe = lazyRegexp(`(?i)^(?:(?:immer noch|noch|echt|voll|total|ganz|ziemlich|eigentlich|schon)\s+)?(?:fair|ok|okay|günstig|teuer|billig|happig|human|gut|viel|wenig|nicht schlecht)\s+für\b`)

var (
	germanNumberRe  = lazyRegexp(`\d+(?:[.,]\d+)?`)
	germanMinutesRe = lazyRegexp(`(?i)\d+(?:[.,]\d+)?\s*(?:min|minuten)\b`)
)

// germanMinutesOnly reports whether every number of a sentence counts
// minutes ("15 min mit dem rad statt 50 min auto"): a way's length or a
// wait, said in passing.
func germanMinutesOnly(raw string) bool {
	n := len(germanMinutesRe.FindAllStringIndex(raw, -1))
	return n > 0 && n == len(germanNumberRe.FindAllStringIndex(raw, -1))
}

// germanPersonWords are the words that make a sentence someone's: a
// saying names no one.
var germanPersonWords = map[string]bool{"ich": true, "wir": true, "du": true, "ihr": true, "er": true, "sie": true,
	"mein": true, "meine": true, "unser": true, "unsere": true, "dein": true, "deine": true, "mir": true, "uns": true}

// germanSaying reports whether a sentence is a saying: its shape, no
// digit, no one in it.
func germanSaying(raw string) bool {
	if !germanSayingRe.MatchString(strings.TrimSpace(raw)) || hasDigit(raw) {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(raw)) {
		if germanPersonWords[strings.Trim(w, ",.!?;:()\"'")] {
			return false
		}
	}
	return true
}

// germanInPassing reports whether a German sentence is one of these
// shapes of small talk.
func germanInPassing(raw string) bool {
	s := strings.TrimSpace(raw)
	return germanScoreRe.MatchString(s) || germanCaptionRe.MatchString(s) || germanOfferRe.MatchString(s) ||
		germanJudgeRe.MatchString(s) || germanMinutesOnly(s) || germanSaying(s) || germanAnecdote(s)
}

// germanPastimeRe is an evening's doing told after it ("noch bis 23 Uhr
// getanzt", "2 liter wasser getrunken"): eating, drinking, dancing,
// sleeping, laughing, crying.
var germanPastimeRe = lazyRegexp(`(?i)\b(?:getrunken|gegessen|getanzt|geschlafen|gelacht|geweint|gequatscht|geschaut|geguckt)\b`)

// germanAnecdote reports whether a sentence tells such a doing, with no
// date, no month and no life event in it: its numbers are the evening's.
func germanAnecdote(s string) bool {
	if !germanPastimeRe.MatchString(s) || unreadDateIn(s) {
		return false
	}
	lower := strings.ToLower(s)
	for _, w := range strings.Fields(lower) {
		if germanMonthNames[strings.Trim(w, ",.!?;:()")] {
			return false
		}
	}
	for _, e := range germanLifeEvents {
		if strings.Contains(lower, e) {
			return false
		}
	}
	return true
}

// germanSummaryOpening shortens a German session's summary to the first
// sentence of what it opened with: the block it repeats keeps the rest,
// so the summary need only say what the session was about. A request that
// explains itself after a colon ("Ia-check soll die Exporte prüfen: jede
// Zeile ist …") keeps what comes before it. A first sentence of fewer than
// three words ("ja!") is kept with the rest.
func germanSummaryOpening(text string) string {
	prefix, inner, closing := "", text, ""
	if i := strings.Index(text, ` said: "`); i >= 0 && strings.HasSuffix(text, `"`) {
		prefix, inner, closing = text[:i+len(` said: "`)], text[i+len(` said: "`):len(text)-1], `"`
	}
	if sns := split(inner).sentences; len(sns) > 1 {
		first := strings.TrimSpace(sns[0].text)
		if countWords(first) >= 3 && strings.HasPrefix(inner, first) {
			inner = first
		}
	} else if m := germanSentenceEndRe.FindStringIndex(inner); m != nil {
		if end := m[0] + strings.Index(inner[m[0]:], ". ") + 1; countWords(inner[:end]) >= 3 {
			inner = inner[:end]
		} // "… nach `out/ia_<KW>.csv`. Fünf Tests …": the splitter keeps code whole
	}
	if i := strings.Index(inner, ": "); i > 0 && closing == "" && countWords(inner[:i]) >= 5 {
		inner = inner[:i] + "."
	}
	return prefix + inner + closing
}

// germanSentenceEndRe is a full stop after a word (not a day's number)
// before a capital: where a sentence the splitter kept whole ends.
var germanSentenceEndRe = lazyRegexp(`[^\d\s]\. \p{Lu}`)

// germanOtherwiseRe is a trailing clause saying what would happen
// otherwise (", sonst hab ich den abend nix davon"): the fact is the
// clause before it.
var germanOtherwiseRe = lazyRegexp(`(?i),\s+sonst\s+[^,.!?;]*[.!…]*$`)

// germanDropOtherwise drops that clause from a sentence that keeps at
// least three words without it.
func germanDropOtherwise(s string) string {
	loc := germanOtherwiseRe.FindStringIndex(s)
	if loc == nil || countWords(s[:loc[0]]) < 3 || hasDigit(s[loc[0]:]) {
		return s
	}
	return s[:loc[0]]
}

// germanParticleRe is a modal particle inside a sentence ("donnerstag eh
// erst um 19:30", "lass ich's halt ausfallen", "ich bleib übrigens ein
// jahr"): it colours the sentence, it says nothing. Lower case only:
// "Halt!" is a word.
var germanParticleRe = lazyRegexp(`\s(?:eh|halt|übrigens)(\s)`)

// germanConditionRe opens a condition, in which "eh" means "since
// anyway" ("Wenn die Küche eh Miete kostet, …"): its particles stay.
var germanConditionRe = lazyRegexp(`(?i)^(?:wenn|falls|da|weil)\s`)

// germanVocativeRe is a call or an interjection before the news ("mama,
// 820 kalt", "So, ab morgen …"): whom it is said to, not what.
var germanVocativeRe = lazyRegexp(`(?i)^(?:so|also|tja|na|mama|mami|papa|papi|oma|opa|schatz|leute|ihr lieben)[,!]\s+`)

// germanTrim drops those from a kept German sentence, unless too little
// would be left.
func germanTrim(s string) string {
	t := germanVocativeRe.ReplaceAllString(s, "")
	if !germanConditionRe.MatchString(t) {
		t = germanParticleRe.ReplaceAllString(t, "$1")
	}
	if countWords(t) < 3 {
		return s
	}
	return t
}

// germanReminderRe opens a reminder of what the listener knows ("Du weißt
// ja: kurz, du-Form, keine Emojis."): said again, not what a session is
// about, so no summary opens with it.
var germanReminderRe = lazyRegexp(`(?i)^\s*(?:du weißt ja|wie du weißt|ihr wisst ja|wie ihr wisst)\b`)

// germanAfterthoughtRe is a trailing main clause opened by a demonstrative
// and its verb (", die ist krank", ", den setzt der nginx", ", das läuft
// auf dem Apotheken-Rechner"): a word said about what the sentence already
// named. A relative clause puts its verb last ("…, die noch offen sind")
// and is never matched: it often is the fact.
var germanAfterthoughtRe = lazyRegexp(`,\s+(?:die|der|das|den|dem)\s+(?:ist|sind|war|waren|hat|hatte|haben|kann|können|macht|setzt|läuft|geht|wird)\s[^,;]*$`)

// germanDropAfterthought drops that clause when six words or more stay
// before it and it holds no number.
func germanDropAfterthought(s string) string {
	loc := germanAfterthoughtRe.FindStringIndex(strings.TrimRight(s, ".!… "))
	if loc == nil || countWords(s[:loc[0]]) < 6 || hasDigit(s[loc[0]:]) {
		return s
	}
	return s[:loc[0]] + strings.TrimLeft(s[len(strings.TrimRight(s, ".!… ")):], " ")
}
