package distill

import "strings"

// Small talk in the distiller's blocks, round seventeen (chat17): rules
// read in every tuned-on part's chat blocks; the sentences of
// chat17_test.go were written for them.

// laughWordRe is laughter written out: "lol", "haha", "lmao".
var laughWordRe = lazyRegexp(`(?i)\b(?:lol|lmao|rofl|a?(?:ha){2,}h?|(?:he){2,})\b`)

// faceEmoji reports whether r is a face: the emoticons block (😂 😅 🙄
// 😬 😇), the supplemental faces (🤧 🤣 🥹 🥲) and the newest (🫠 🫣).
// A face says how its writer feels about what was said, in any language.
func faceEmoji(r rune) bool {
	return r >= 0x1F600 && r <= 0x1F64F || r >= 0x1F910 && r <= 0x1F92F ||
		r >= 0x1F970 && r <= 0x1F97A || r >= 0x1FAE0 && r <= 0x1FAE8
}

// laughs reports whether a turn shows a face or laughs.
func laughs(content string) bool {
	for _, r := range content {
		if r >= 0x1F600 && faceEmoji(r) {
			return true
		}
	}
	return mayHold(content, []string{"ha", "HA", "Ha", "he", "lol", "LOL", "lmao", "rofl"}) && laughWordRe.MatchString(content)
}

// topicShiftRe turns from a reaction to news of one's own: "btw" and "by
// the way" anywhere, "also", "anyway", "in other news", "guess what"
// opening a sentence ("better, I got a cold anyway" turns to nothing).
var topicShiftRe = lazyRegexp(`\b(?:btw|by the way)\b|(?:^\s*|[.!?…]\s+)(?:also|anyway|in other news|guess what|update|news)\b`)

// topicShiftHints are literals one of which every topicShiftRe match holds.
var topicShiftHints = []string{"btw", "by the way", "also", "anyway", "news", "guess what", "update:"}

// reactsToNews reports whether turn i answers, with a face or a laugh,
// another speaker's turn that gave facts: "I'll practise 😅 we'll drive
// down on the 17th" after the christening's date, "🥹 my first sold print"
// after the sale. The news is in the turn before, where it was told; what
// the reply says around its face is how its writer takes it. gave is
// whether the turn before gave facts. A life event ("we got engaged
// too 😂") is news whoever laughs.
func (d *distiller) reactsToNews(i int, gave bool) bool {
	if i == 0 || !gave {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker && prev.Role == t.Role {
		return false
	}
	if !laughs(t.Content) {
		return false
	}
	lower := " " + strings.ToLower(t.Content) + " "
	if mayHold(lower, topicShiftHints) && topicShiftRe.MatchString(lower) {
		return false // "haha. btw I'm changing job": the laugh ends, news follows
	}
	return !strongLexicon.has(lower, lowerWords(lower))
}
