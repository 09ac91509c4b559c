package distill

import "strings"

// Small talk in the distiller's blocks, round sixteen (chat16): rules
// read in every tuned-on part's chat blocks; the sentences of
// chat16_test.go were written for them.

// openingFact is the fact a chat between people's summary opens with: its
// first fact before its last with a date or a slot (a job, a home, …), when that is no
// longer than the first fact or a dozen words, else its first fact. What
// the rules keep first is a reply's small talk more often than what they
// date: "Claire is learning", "the plow came at 6, my car is now a
// sculpture". The summary repeats a fact block, so which one it repeats
// changes no coverage; the length bound keeps the summary as short.
func openingFact(facts []Fact) Fact {
	limit := max(len(strings.Fields(facts[0].Text)), 12)
	// The last fact is where the chat got to, the summary's second half.
	for _, f := range facts[:max(len(facts)-1, 1)] {
		if (f.Key != "" || f.Date != "") && len(strings.Fields(f.Text)) <= limit && !pastTwoSentences(f.Text) {
			return f
		}
	}
	for _, f := range facts {
		if !pastTwoSentences(f.Text) {
			return f // "Omas 90. am Samstag, den 20. Juni" reads as three sentences to the summary's count
		}
	}
	return facts[0]
}

// replyVerdictRe is a verdict on something that names no fact: "the new trams
// are boring compared", "the money is crazy good", "his flat is so weird".
// chatRe holds the praising words; these are the rest of a reply's verdicts.
var replyVerdictRe = lazyRegexp(`\b(?:is|are|was|were|looks|sounds|seems|looked|sounded|seemed) (?:so |really |very |a bit |kind of |pretty |just |still |honestly )?(?:boring|awful|terrible|horrible|hilarious|adorable|beautiful|weird|crazy|insane|ridiculous|annoying|cool|wild|stunning|tragic|chaos|chaotic)\b`)

// replyVerdictHints are literals one of which every replyVerdictRe match holds.
var replyVerdictHints = []string{"boring", "awful", "terrible", "horrible", "hilarious", "adorable", "beautiful", "weird", "crazy",
	"insane", "ridiculous", "annoying", "cool", "wild", "stunning", "tragic", "chao"}

// replyVerdict reports whether a sentence is a reply's verdict alone: no
// number, no life event, nothing strong.
func replyVerdict(f features) bool {
	return f.numbers == 0 && !f.strong && mayHold(f.lower, replyVerdictHints) && replyVerdictRe.MatchString(f.lower)
}

// ackReportRe opens an assistant's acknowledgement: "Done —", "Fixed:",
// "Sure,", "OK, done.".
var ackReportRe = lazyRegexp(`(?i)^(?:done|fixed|sure|ok|okay|all set|got it)\b\s*(?:[—–:,!.-]|$)`)

// ackReport reports whether an assistant turn is a one-sentence
// acknowledgement of a small request after the work ("Done — the TODO is
// gone; tests still pass", "Done — 13 kiosks are now in the inventory"):
// the session's outcome is the report before it, and the errand says
// nothing the project keeps.
func ackReport(content string) bool {
	text := strings.TrimSpace(content)
	return ackReportRe.MatchString(text) && len(split(text).sentences) == 1 && len(strings.Fields(text)) <= 20
}

// pastTwoSentences reports whether a summary's text says more than two
// sentences, as a reader counts them (". " between them): a report whose
// first sentence holds a stop ("… at 04:30 Europe/Kyiv. Checked …")
// joined to the request is three.
func pastTwoSentences(text string) bool {
	return strings.Count(text, ". ")+1 > 2
}
