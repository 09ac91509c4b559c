package distill

import (
	"strings"
	"unicode"
)

// A list pasted under a label ("Poll results (closed):", "Tournament
// results (14.03):", "Standings after round 3:") says what it is about in
// its label and what came out on top in its first line; its lines alone
// are a name and a number each, nothing a sentence keeps. When no
// sentence of such a turn is a fact, the label and the first line are one.

// listMarkerRe is a list item's opening: a number with a dot or a
// bracket, a bullet, or emoji.
var listMarkerRe = lazyRegexp(`^(?:\d{1,2}[.)]\s+|[-*•→]\s*)`)

// listedFact is the fact a labelled list gives: the label and its first
// item with a number, when at least two of its items have one.
func (d *distiller) listedFact(i int) (Fact, bool) {
	t := d.s.Turns[i]
	if strings.Count(t.Content, "\n") < 2 || !strings.Contains(t.Content, ":") {
		return Fact{}, false // most turns are a line or two
	}
	var lines []string
	for _, l := range strings.Split(t.Content, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 {
		return Fact{}, false
	}
	head := lines[0]
	if n := len(strings.Fields(head)); !strings.HasSuffix(head, ":") || n < 2 || n > 8 {
		return Fact{}, false
	}
	first, items, numbered := "", 0, 0
	for _, l := range lines[1:] {
		l = strings.TrimLeftFunc(l, func(r rune) bool { return isEmoji(r) || unicode.IsSpace(r) })
		if digitAt([]rune(l), 0) && listMarkerRe.MatchString(l) {
			numbered++
		}
		l = strings.TrimSpace(listMarkerRe.ReplaceAllString(l, ""))
		if !hasDigit(l) {
			continue
		}
		items++
		if first == "" {
			first = l
		}
	}
	if items < 2 && numbered >= 3 {
		// "rules, for everyone:\n1. …\n2. …\n3. …": a numbered list
		// under a label is its rules or steps, in any script.
		first = strings.TrimSpace(listMarkerRe.ReplaceAllString(strings.TrimSpace(lines[1]), ""))
		items = 2
	}
	if items < 2 {
		return Fact{}, false
	}
	subject := d.subjectOf(t)
	f := Fact{Subject: subject, Kind: KindFact, Theme: ThemeNotes, Cites: []string{t.Ref},
		Text: quote(subject, cleanSentence(head+" "+first))}
	if len(FirstPersonWords(f.Text)) > 0 {
		return Fact{}, false
	}
	return f, true
}
