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
		if (f.Key != "" || f.Date != "") && len(strings.Fields(f.Text)) <= limit {
			return f
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
