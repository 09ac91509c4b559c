package distill

import (
	"strings"
	"unicode"
)

// Small talk in the distiller's blocks, round three (chat18): rules
// read in every tuned-on part's chat blocks; the sentences of
// chat18_test.go were written for them.

// pastedLines is how many lines make a turn a pasted card, form or list:
// people write one line at a time, apps and copies paste several.
const pastedLines = 3

// dropPastedCopies drops the facts of a pasted card whose rows repeat
// what was said first-hand in another turn: a leave form's "Kavya S —
// 19–24 Nov" when Kavya wrote "I'm off 19–24 Nov" herself. A row is a
// copy when it has two numbers or more, names someone, and a turn of
// fewer lines by that someone kept facts holding all of them: the
// person says it with its reason, the row is the form's copy (numbers
// alone match by chance: "3x4" photos, "1/7"). When most of a card's facts are
// copies the card is a copy, its header and the rest too; else only the
// copies go.
func (d *distiller) dropPastedCopies(facts []Fact) []Fact {
	pasted := d.pastedTurns()
	if len(pasted) == 0 || len(facts) < 2 {
		return facts
	}
	// The rows that could be copies first: most sessions have none, and
	// the other turns' numbers are read only when one does.
	type row struct {
		i     int
		nums  []string
		words map[string]bool
	}
	var rows []row
	total := map[string]int{}
	for i, f := range facts {
		if ref := f.Cites[0]; pasted[ref] {
			total[ref]++
			if nums := numberRuns(f.Text); len(nums) >= 2 {
				rows = append(rows, row{i, nums, rowWords(f.Text)})
			}
		}
	}
	if len(rows) == 0 {
		return facts
	}
	// numbers of every other turn's kept facts, by turn.
	kept := map[string]map[string]bool{}
	for _, f := range facts {
		if ref := f.Cites[0]; !pasted[ref] {
			if kept[ref] == nil {
				kept[ref] = map[string]bool{}
			}
			for _, n := range numberRuns(f.Text) {
				kept[ref][n] = true
			}
		}
	}
	speaker := map[string][]string{} // turn ref → its speaker's first names (nameWords)
	for _, t := range d.s.Turns {
		if kept[t.Ref] != nil {
			speaker[t.Ref] = nameWords(t)
		}
	}
	copies := map[int]bool{}
	copied := map[string]int{}
	for _, r := range rows {
		for other, has := range kept {
			if !namesAny(r.words, speaker[other]) {
				continue
			}
			all := true
			for _, n := range r.nums {
				all = all && has[n]
			}
			if all {
				copies[r.i] = true
				copied[facts[r.i].Cites[0]]++
				break
			}
		}
	}
	if len(copies) == 0 {
		return facts
	}
	out := facts[:0:0]
	for i, f := range facts {
		ref := f.Cites[0]
		if copies[i] || pasted[ref] && 2*copied[ref] > total[ref] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// pastedTurns are the refs of the turns of pastedLines lines or more.
func (d *distiller) pastedTurns() map[string]bool {
	pasted := map[string]bool{}
	for _, t := range d.s.Turns {
		if strings.Count(strings.TrimSpace(t.Content), "\n") >= pastedLines-1 && nonEmptyLines(t.Content) >= pastedLines {
			pasted[t.Ref] = true
		}
	}
	return pasted
}

// typedFacts are the facts not read in a pasted card, or all of them when
// every one was: a chat's summary opens with what someone wrote, not with
// an app's card pasted in ("Clear Outside — Sariska · Sat 14 Feb", a
// forecast the next turn answers by moving the date).
func (d *distiller) typedFacts(facts []Fact) []Fact {
	pasted := d.pastedTurns()
	if len(pasted) == 0 {
		return facts
	}
	var out []Fact
	for _, f := range facts {
		if !pasted[f.Cites[0]] {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return facts
	}
	return out
}

// nonEmptyLines counts the lines of s with something on them.
func nonEmptyLines(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// numberRuns are the distinct numbers written in s, in ASCII digits and
// without leading zeros ("09" and "9" are one day).
func numberRuns(s string) []string {
	s = asciiDigits(s)
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) {
		w = strings.TrimLeft(w, "0")
		if w == "" {
			w = "0"
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// firstNameWord is the first word of a speaker's name, in lower case,
// "" when it is shorter than three letters: "kavya" for "kavya.s" and
// "Kavya S".
func firstNameWord(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 || len([]rune(words[0])) < 3 {
		return ""
	}
	return words[0]
}

// nameWords are the first words of a turn's speaker's name and of its
// id (firstNameWord): a writer files the owner under one name ("西村はるか")
// while the app's lines use the id ("haruka.n has joined").
func nameWords(t Turn) []string {
	var out []string
	for _, n := range []string{t.Speaker, t.SpeakerID} {
		if w := firstNameWord(n); w != "" && (len(out) == 0 || out[0] != w) {
			out = append(out, w)
		}
	}
	return out
}

// namesAny reports whether words hold one of names.
func namesAny(words map[string]bool, names []string) bool {
	for _, n := range names {
		if words[n] {
			return true
		}
	}
	return false
}

// rowWords are the lower-case words of what a fact quotes (all of its
// text when it quotes nothing): the row, not who pasted it.
func rowWords(text string) map[string]bool {
	if _, q, ok := strings.Cut(text, `said: "`); ok {
		text = q
	}
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		out[w] = true
	}
	return out
}

// handleRe is a user's handle: "@salma.a", "haruka.n", "nikhil_orbit".
var handleRe = lazyRegexp(`(?:^|\s)@?[\p{Ll}\p{N}]+[._][\p{Ll}\p{N}]+(?:\s|$)|(?:^|\s)@\w`)

// answersOpener reports whether turn i is the reply to a chat's opening
// line: "are you alive after the holidays?" — "barely. mum sent 3 kg of
// dumplings", "are you at sea this week" — "human this week, off until
// the 26th". Someone else's opener asks how the owner or the room is,
// the short reply says how, and what the chat is about comes after; the
// owner's own opener ("wait, what job?!") asks for the news the memory
// is kept for. The opener gave nothing (gave),
// is short (fifteen words at most), is a person's who speaks again, and
// names neither its speaker nor a handle ("Lise joined the group",
// "haruka.n has joined the channel" are the app's lines about their
// speaker, whom a writer may file under another name, and what follows
// them an announcement); the reply is twenty words at most
// and tells no news of its own (newsOfItsOwn).
func (d *distiller) answersOpener(i int, gave bool) bool {
	if i != 1 || gave {
		return false
	}
	prev, t := d.s.Turns[0], d.s.Turns[1]
	if prev.Role != RoleUser || t.Role != RoleUser || prev.Owner || prev.Speaker == "" || t.Speaker == "" || prev.Speaker == t.Speaker ||
		len(strings.Fields(prev.Content)) > 15 || len(strings.Fields(t.Content)) > 20 {
		return false
	}
	if handleRe.MatchString(prev.Content) || namesAny(rowWords(prev.Content), nameWords(prev)) {
		return false // the app's line about its speaker
	}
	again := false
	for _, u := range d.s.Turns[2:] {
		if u.Speaker == prev.Speaker {
			again = true
			break
		}
	}
	return again && !newsOfItsOwn(t.Content)
}

// callsOutTeller reports whether turn i opens by calling out, with an
// exclamation, the name of whoever told news in the turn before:
// "PRIYA!!! 4 hours of running, I can't imagine", "Kenji!! That's
// wonderful", "Noooo Rasmus! Who'll make the jokes?". It answers the
// news, which is kept where it was told (gave: the turn before gave
// facts); a reply that turns to news of its own is still news.
func (d *distiller) callsOutTeller(i int, gave bool) bool {
	if i == 0 || !gave {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == "" || t.Speaker == "" || prev.Speaker == t.Speaker {
		return false
	}
	first, _, _ := strings.Cut(t.Content, "!")
	if len(first) == len(t.Content) || strings.ContainsAny(first, ".?\n") {
		return false // no exclamation first
	}
	return namesAny(rowWords(first), nameWords(prev)) && !newsOfItsOwn(t.Content)
}

// thanksRe opens a thank-you, in the languages of the chats it was read
// in and their neighbours: "thank you Halyna", "дякую", "obrigada",
// "teşekkürler", "cảm ơn", "ありがとう".
var thanksRe = lazyRegexp(`(?i)^[\p{So}\p{Sk}\p{P}\s]*(?:thank|thx|merci|gracias|obrigad|grazie|danke|takk|tack|dzięk|dziek|teşekk|tesekk|sağ ?ol|cảm ơn|cam on|terima kasih|makasih|shukran|spasibo|спасиб|дякую|dziękuj|ありがと|谢谢|多谢|shukriya|dhanyavad)`)

// shortThanks reports whether turn i is a short thank-you: it opens with
// thanks and says eight words at most (160 bytes, for scripts written
// without spaces), with no number and no question
// ("Thank you Halyna ❤️ I'm learning! Дякую!"). What follows the thanks
// in so few words is how its writer feels, not news; a longer turn, or
// one with a date or a count, goes on to tell something.
func (d *distiller) shortThanks(i int) bool {
	t := d.s.Turns[i]
	if t.Role != RoleUser || t.Speaker == "" || len(t.Content) > 160 || !wordsAtMost(t.Content, 8) ||
		strings.ContainsFunc(t.Content, unicode.IsDigit) || strings.ContainsAny(t.Content, "?？") {
		return false
	}
	return thanksRe.MatchString(t.Content) && !newsOfItsOwn(t.Content)
}

// wordsAtMost reports whether s has at most n space-separated words,
// without splitting it: it runs on every turn.
func wordsAtMost(s string, n int) bool {
	words, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			if words++; words > n {
				return false
			}
		}
	}
	return true
}
