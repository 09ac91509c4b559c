package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
	if strings.ContainsFunc(strings.TrimSpace(t.Content[:end]), unicode.IsSpace) {
		return false // more than a name: checked before rowWords allocates
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
	// The last sentence, cut by hand: this runs on every short turn, and
	// split allocates.
	text := strings.TrimRightFunc(t.Content, func(r rune) bool { return !unicode.IsLetter(r) })
	cut := strings.LastIndexAny(text, ".!…。！\n")
	if cut < 0 {
		return false // one sentence: shortThanks's
	}
	_, size := utf8.DecodeRuneInString(text[cut:])
	return thanksRe.MatchString(text[cut+size:]) && !newsOfItsOwn(t.Content)
}

// namelessWelcome reports whether turn i welcomes someone without naming
// them, in a dozen words at most and with no number, after someone
// else's turn: "welcome, the coffee machine is broken, it's a
// tradition". What a room says to a newcomer who has just spoken is a
// pleasantry; a welcome that names them ("welcome @anirudh.k! Anirudh
// joins from Zomato") introduces them, and one with a time or a count
// ("welcome! standup is at 9:30 every day") tells them something: both
// stay. Of newsOfItsOwn only the turn to news ("btw", "also") is asked:
// what a short welcome calls broken is the room's, not a life event.
func (d *distiller) namelessWelcome(i int) bool {
	if i == 0 {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if t.Role != RoleUser || prev.Speaker == t.Speaker || !wordsAtMost(t.Content, 12) || strings.ContainsFunc(t.Content, unicode.IsDigit) {
		return false
	}
	loc := welcomeRe.FindStringIndex(t.Content)
	if loc == nil {
		return false
	}
	// The rest of the welcome's word ("bienvenue", "willkommen"), then
	// what closes it: punctuation, not a name.
	rest := strings.TrimLeftFunc(t.Content[loc[1]:], unicode.IsLetter)
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	r, _ := utf8.DecodeRuneInString(rest)
	if rest != "" && !strings.ContainsRune(",!.…;:", r) {
		return false
	}
	lower := " " + strings.ToLower(t.Content) + " "
	return !(mayHold(lower, topicShiftHints) && topicShiftRe.MatchString(lower))
}

// laughingAside reports whether a fact was read in a short turn that
// laughs or shows a face ("mama the retired nanny 😄"): kept as a block,
// since laughing news is still news, but no chat's summary ends on it. A
// summary's second half says where the chat got to; an aside of eight
// words at most with a laugh is how someone took it.
func (d *distiller) laughingAside(refs []string) bool {
	for _, t := range d.s.Turns {
		if len(refs) > 0 && t.Ref == refs[0] {
			return wordsAtMost(t.Content, 8) && laughs(t.Content)
		}
	}
	return false
}
