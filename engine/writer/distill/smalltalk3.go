package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Small talk in the distiller's blocks, round two (chat17): rules
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
// another speaker's turn that told something: "I'll practise 😅 we'll
// drive down on the 17th" after the christening's date, "🥹 my first
// sold print" after the sale. The news is in the turn before, where it was
// told; what the reply says around its face is how its writer takes it.
// The turn before told something when it gave facts (gave), or when it
// is a long message (ten words or more) and the reply a short one (a dozen
// at most) and the message asks nothing: the rules may keep nothing of a
// long message in another language, and a short laugh after it still
// reacts to it.
func (d *distiller) reactsToNews(i int, gave bool) bool {
	if i == 0 {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker && prev.Role == t.Role || !laughs(t.Content) {
		return false
	}
	if !gave && (len(strings.Fields(t.Content)) > 12 || len(strings.Fields(prev.Content)) < 10 || strings.ContainsAny(prev.Content, "?？")) {
		return false // a question's answer answers, whatever its face
	}
	return !newsOfItsOwn(t.Content)
}

// newsOfItsOwn reports whether a reply turns to news of its own ("haha.
// btw I'm changing job") or tells a life event ("we got engaged too 😂"):
// news, whatever it answers.
func newsOfItsOwn(content string) bool {
	lower := " " + strings.ToLower(content) + " "
	return mayHold(lower, topicShiftHints) && topicShiftRe.MatchString(lower) || strongLexicon.has(lower, lowerWords(lower))
}

// smallTalkTurn reports whether turn i says nothing to keep, whatever its
// sentences score: a laughing reply to the news before it (gave: the turn
// before gave facts), a newcomer's answer to a welcome, the reply to a
// chat's opening line, one calling out the name of who told the news, a
// short thank-you or a short turn closing with one, or a welcome that
// names nobody.
func (d *distiller) smallTalkTurn(i int, gave bool) bool {
	return d.reactsToNews(i, gave) || d.answersWelcome(i) ||
		d.answersOpener(i, gave) || d.callsOutTeller(i, gave) || d.shortThanks(i) || // the last three: smalltalk4.go
		d.namesTellerAlone(i, gave) || d.closingThanks(i) || d.namelessWelcome(i) // smalltalk5.go
}

// welcomeRe opens a welcome, in the languages of the chats it was read in
// and their neighbours: "welcome Salma!", "ahlan ya Salma", "bienvenida",
// "hoş geldin", "chào mừng", "ようこそ".
var welcomeRe = lazyRegexp(`(?i)^[\p{So}\p{Sk}\s!]*(?:welcome|ahlan|bienvenu|bienvenid|bem-vind|benvenut|willkommen|witaj|ho[sş] ?geldin|selamat datang|ch[aà]o m[uừ]ng|velkommen|v[aä]lkommen|добро пожаловать|ласкаво просимо|ようこそ|欢迎)`)

// answersWelcome reports whether turn i is the reply of someone welcomed
// by name in the turn before ("welcome Salma! Farida's friend right?" —
// "yes! I tried it in Sahel and got hooked"): thanks and pleasantries,
// what a newcomer says to a room. Who they are is in the welcome, told by
// whoever brought them in.
func (d *distiller) answersWelcome(i int) bool {
	if i == 0 {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker || !welcomeRe.MatchString(prev.Content) {
		return false
	}
	names := strings.FieldsFunc(t.Speaker, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(names) == 0 || utf8.RuneCountInString(names[0]) < 3 {
		return false
	}
	return strings.Contains(strings.ToLower(prev.Content), strings.ToLower(names[0])) && !newsOfItsOwn(t.Content)
}

// pickedRe is a pick among what someone else offered: "Dubai it is",
// "Fine, the Tuesday it is!". The options, and the fact, were theirs.
var pickedRe = lazyRegexp(`^ (?:(?:fine|ok|okay|right|then|so)[,!.]? )?(\p{L}[\p{L}\p{N}'-]*)(?: [\p{L}\p{N}'-]+){0,2} it is[ .!]*$`)

// picked reports whether a sentence is pickedRe's pick ("here it is"
// hands something over and is no pick).
func picked(f features) bool {
	if f.words > 6 || !strings.Contains(f.lower, " it is") {
		return false
	}
	m := pickedRe.FindStringSubmatch(f.lower)
	return m != nil && m[1] != "here" && m[1] != "there"
}
