package distill

import (
	"strings"
	"unicode"
)

// Small talk in the distiller's blocks, round four (chat19): rules read
// in every tuned-on part's chat and narration blocks; the sentences of
// chat19_test.go were written for them.

// labelledReport reports whether an assistant turn opens with a report's
// label ("Summary: monitoring.tf adds the bucket …; fmt and tflint are
// clean"): the label says the work is reported, whatever its verbs, and
// an earlier "I've added an empty filter {}" is narration on the way.
func labelledReport(text string) bool {
	return summaryLabelRe.MatchString(text)
}

// namesTellerAlone reports whether turn i opens with a sentence that is
// only the name of whoever told news in the turn before, in capitals or
// not, closed by a full stop or an exclamation: "DARA. You absolute
// lunatic. I'll be in the safety boat", "Priya. Wow.". callsOutTeller
// reads "Name!" and what follows it up to the exclamation; a name alone
// before a full stop calls out the same way. A reply that turns to news
// of its own is news.
func (d *distiller) namesTellerAlone(i int, gave bool) bool {
	if i == 0 || !gave {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == "" || t.Speaker == "" || prev.Speaker == t.Speaker {
		return false
	}
	end := strings.IndexAny(t.Content, ".!")
	if end <= 0 || end == len(strings.TrimRight(t.Content, ".! ")) {
		return false // no sentence after the name: answersOpener's and reactsToNews' cases
	}
	words := rowWords(t.Content[:end])
	if len(words) != 1 {
		return false
	}
	return namesAny(words, nameWords(prev)) && !newsOfItsOwn(t.Content)
}

// closingThanks reports whether turn i is a short turn, ten words at most
// with no number and no question, whose last sentence thanks someone:
// "PROPOSED AND SECONDED. THANK YOU AOIFE", "Getting there! Walking fine.
// Thanks Sander". What comes before the thanks in so few words is a
// formula or how its writer is; shortThanks reads the thanks first.
func (d *distiller) closingThanks(i int) bool {
	t := d.s.Turns[i]
	if t.Role != RoleUser || t.Speaker == "" || len(t.Content) > 200 || !wordsAtMost(t.Content, 10) ||
		strings.ContainsFunc(t.Content, unicode.IsDigit) || strings.ContainsAny(t.Content, "?？") {
		return false
	}
	sents := split(t.Content).sentences
	if len(sents) < 2 {
		return false
	}
	return thanksRe.MatchString(strings.TrimSpace(sents[len(sents)-1].text)) && !newsOfItsOwn(t.Content)
}
