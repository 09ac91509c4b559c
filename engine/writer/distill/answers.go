package distill

import (
	"strings"
	"unicode"
)

// An answer makes sense with its question: "Sound engineer at BBC
// Scotland!" after "Wait what job?!", "Nope, so The Lowtides need a
// stand-in" after "Can you still play bass with it?". The question makes
// a fact of a fragment and is kept with it.

// question is the question a turn answers.
type question struct {
	turn int    // its turn
	text string // its asking sentence
	wh   bool   // it asks what, where, when, who, how long… (not how it went)
	// name asks for a name, a place, a time or a number: a one-word
	// answer to it is a fact ("What's it called?" — "Tidebreaker.").
	name  bool
	yesNo bool // it asks yes or no ("Are you still…?", "Can you…?")
	// content is how much it says: theme words and names, at most 2.
	content int
	// other asks about someone named, not the one who answers ("How's
	// Tola feeling?"): an answer about the answerer is not its answer.
	other bool
}

// asked is the question turn i answers: the turn before it, said by
// someone else, whose last sentence asks something that is not small
// talk ("How are you?"). ok is false when there is none.
func (d *distiller) asked(i int) (question, bool) {
	if a, seen := d.questions[i]; seen {
		return a.q, a.ok
	}
	q, ok := d.askedUncached(i)
	if d.questions == nil {
		d.questions = map[int]askedTurn{}
	}
	d.questions[i] = askedTurn{q, ok}
	return q, ok
}

// askedTurn is a turn's question, cached: every sentence of a turn asks
// for it.
type askedTurn struct {
	q  question
	ok bool
}

func (d *distiller) askedUncached(i int) (q question, ok bool) {
	if i == 0 {
		return question{}, false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker && prev.Role == t.Role {
		return question{}, false
	}
	sents := split(prev.Content).sentences
	if len(sents) == 0 || !sents[len(sents)-1].question {
		return question{}, false
	}
	text := cleanSentence(sents[len(sents)-1].text)
	lower := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	if len(strings.Fields(text)) < 2 || smallTalkQuestionRe.MatchString(lower) {
		return question{}, false
	}
	f := analyse(text, d.names)
	if len(strings.Fields(text)) < 3 && !nameQRe.MatchString(lower) {
		return question{}, false // "Think so, why?", "Housewarming?"
	}
	q = question{turn: i - 1, text: clipWords(text, 12), wh: whRe.MatchString(lower), name: nameQRe.MatchString(lower),
		yesNo: yesNoRe.MatchString(lower), content: min(f.themeCount()+f.names, 2),
		other: !f.second && len(d.namedIn(text, prev.Speaker, t.Speaker)) > 0}
	return q, q.wh || q.content > 0
}

// whRe holds a question that asks for a fact, not for how something went
// ("How was Christmas?") or why.
var whRe = lazyRegexp(`\b(?:what|where|when|which|who|whose|how (?:long|many|much|old|far|often)|what's|where's|when's|who's)\b`)

// nameQRe asks for a name, a place, a time or a number.
var nameQRe = lazyRegexp(`\b(?:where|when|which|who|whose|how (?:long|many|much|old|far|often)|what(?:'s| is| was| are)? (?:it|he|she|they|the \w+|his|her|their|its|your \w+) (?:called|named)|what(?:'s| is| was)? (?:his|her|their|its|your \w+'s) name|what (?:time|day|date|year|month|job|kind|type|size|colou?r|breed|book|song|film|show|game|team|school|company|grade)|where's|when's|who's)\b`)

// yesNoRe opens a question that asks yes or no.
var yesNoRe = lazyRegexp(`^(?:and |so |wait,? )?(?:are|is|do|does|did|can|could|will|would|have|has|was|were|should)\b`)

// smallTalkQuestionRe asks after someone without asking for a fact.
var smallTalkQuestionRe = lazyRegexp(`^(?:and |so |hey,? |hi,? )?(?:how are (?:you|things|u)|how's it going|how are you doing|how have you been|how's (?:everything|life|things|your day|your week)|how was your (?:day|week|weekend)|what's up|what about you|and you|you|wbu|hbu|how about you|are you ok|you ok|are you around|are you free|are you there|r u there|u there|you there|u awake|are you awake)\b`)

// answerOpenRe opens an answer to a yes-or-no question.
var answerOpenRe = lazyRegexp(`(?i)^(?:yes|yeah|yep|yup|yea|ya|no|nope|nah|not yet|still|definitely|of course|sure)\b`)

// trailingFillerRe is a filler word that ends an answer ("no idea
// honestly", "not sure tbh").
var trailingFillerRe = lazyRegexp(`[ ,]+(?:honestly|tbh|lol|haha|really|sorry|though|tho|yet)$`)

// withQuestion writes an answer with its question: `Asked "Wait what
// job?!", Aiyana Reed said: "Sound engineer at BBC Scotland!"`.
func withQuestion(q, subject, answer string) string {
	said := quote(subject, answer)
	if !strings.HasPrefix(subject, capitalise(subject)) {
		said = strings.Replace(said, capitalise(subject), subject, 1)
	}
	q = strings.NewReplacer(`"`, "'", "“", "'", "”", "'").Replace(q)
	return "Asked \"" + q + "\", " + said
}

// shortAnswer reports whether a sentence is a short answer naming
// something: a capitalised word or a number in at most four words
// ("Tidebreaker.", "Saturday the 21st").
func shortAnswer(text string, f features) bool {
	ws := strings.Fields(text)
	if len(ws) == 0 || len(ws) > 4 || ackWords[trailingFillerRe.ReplaceAllString(strings.ToLower(strings.Trim(text, "!.? ")), "")] {
		return false // "No idea honestly" names nothing
	}
	for _, w := range ws {
		w = strings.Trim(w, ",.!?;:()\"'")
		if w == "" {
			continue
		}
		r := []rune(w)
		if unicode.IsDigit(r[0]) || unicode.IsUpper(r[0]) && strings.ToUpper(w) != w {
			return true
		}
	}
	return f.numbers > 0
}
