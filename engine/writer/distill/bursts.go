package distill

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// News told in a burst, and a correction of one's own turn (distill18).
// Friends write their biggest news with no verb or unit: "We're sale
// agreed!!! €380k", "SALE AGREED. 385", "3:52!!!!", "Game-a-thon raised
// €2,360 for COPE!!!". No sentence of such a turn scores as a fact, but
// the shape does: an exclaimed or shouted opening and a number, said by
// someone not echoing the number of the turn they answer. And a turn
// that opens with "*" or "sorry," and a value corrects the speaker's own
// turn just before: the corrected value is kept with what it corrects.

// burstWords bounds the opening a burst is read from: a longer turn says
// its news in sentences.
const burstWords = 12

// burstNews is the quoted opening of turn i when it is news told in a
// burst; ok is false for any other turn.
func (d *distiller) burstNews(i int) (Fact, bool) {
	t := d.s.Turns[i]
	if t.Role == RoleAssistant || d.coding() || d.botSpeaker(t.Speaker) || strings.ContainsAny(t.Content, "?？؟") {
		return Fact{}, false
	}
	sns := split(cleanTurn(t.Content)).sentences
	if len(sns) == 0 {
		return Fact{}, false
	}
	// The opening: the first sentence, and the second when the first has
	// no number ("SALE AGREED. 385").
	open := strings.TrimSpace(sns[0].text)
	if !hasDigit(open) && len(sns) > 1 {
		open += " " + strings.TrimSpace(sns[1].text)
	}
	// A shouted "WE HAVE KEYS" needs no number: its first person is the news.
	shoutedNews := shouted(sns[0].text) && hasEnglishFirstPerson(sns[0].text)
	if shoutedNews {
		open = strings.TrimSpace(sns[0].text)
	}
	if n := len(strings.Fields(open)); n == 0 || n > burstWords || !hasDigit(open) && !shoutedNews ||
		!exclaimed(t.Content, open) && !shouted(sns[0].text) {
		return Fact{}, false
	}
	if laughs(open) || d.clubResult(strings.ToLower(open)) || germanScoreRe.MatchString(open) || d.echoesNumber(i, open) || d.answersNews(i) {
		// "400!!! You're a legend", "finally!! 8 months of waiting": a
		// cheer for the other's news, which is kept where it was told;
		// "24:21 gewonnen!" is the evening's score (germanchat.go).
		return Fact{}, false
	}
	text := cleanSentence(open)
	return Fact{Subject: d.subjectOf(t), Kind: KindEvent, Theme: ThemeNotes, Text: quote(d.subjectOf(t), text),
		Cites: []string{t.Ref}}, true
}

// cleanTurn drops emoji and other symbols, which a burst is full of;
// lines stay lines.
func cleanTurn(s string) string {
	lines := strings.Split(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == '\u200d' || r == '\ufe0f' {
			return ' '
		}
		return r
	}, s), "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// exclaimed reports whether a turn opens in a burst: "!!" in its opening,
// or the opening's words shouted in capitals.
func exclaimed(turn, open string) bool {
	head := turn
	if k := strings.Index(turn, open[:min(len(open), 4)]); k >= 0 && k+len(open)+8 <= len(turn) {
		head = turn[:k+len(open)+8]
	}
	return strings.Contains(head, "!!") || strings.Contains(head, "！！") || shouted(open)
}

// shouted reports whether a sentence's words are all in capitals, four
// letters or more ("SOLD.", "SALE AGREED."); a script without case
// shouts nothing.
func shouted(open string) bool {
	upper, letters, capitals := 0, 0, 0
	for _, w := range strings.Fields(open) {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if strings.IndexFunc(w, unicode.IsUpper) >= 0 && strings.IndexFunc(w, unicode.IsLower) < 0 &&
			utf8.RuneCountInString(strings.Trim(w, ".,!")) > 1 {
			upper++
			capitals += utf8.RuneCountInString(strings.Trim(w, ".,!"))
		}
	}
	return letters >= 1 && upper == letters && capitals >= 4
}

// echoesNumber reports whether the opening's numbers were said by someone
// else in the two turns before: the burst cheers their news.
func (d *distiller) echoesNumber(i int, open string) bool {
	nums := digitRuns(open)
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		p := d.s.Turns[j]
		if p.Speaker == d.s.Turns[i].Speaker && p.Role == d.s.Turns[i].Role {
			continue
		}
		for _, n := range nums {
			if strings.Contains(p.Content, n) {
				return true
			}
		}
	}
	return false
}

// digitRuns are the runs of digits in s.
func digitRuns(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
}

// correctionJoin joins a corrected quote to its correction; dedupe keeps
// such a text over the one it corrects.
const correctionJoin = `, then: "`

// correctionRe opens a correction of one's own words: "* €640, they add
// VAT", "sorry, €385k", "correction: the 21st".
var correctionRe = lazyRegexp(`(?i)^\s*(?:\*\s*|(?:sorry|correction|i mean|edit)\s*[,:]\s*)(\S.*)$`)

// correctionFact is a turn correcting the same speaker's turn just before
// with a value: the corrected sentence and the correction, quoted, citing
// both turns. ok is false for any other turn.
func (d *distiller) correctionFact(i int) (Fact, bool) {
	t := d.s.Turns[i]
	if i == 0 || t.Role == RoleAssistant || d.coding() {
		return Fact{}, false
	}
	m := correctionRe.FindStringSubmatch(cleanTurn(t.Content))
	if m == nil {
		return Fact{}, false
	}
	sns := split(m[1]).sentences
	if len(sns) == 0 || !hasDigit(sns[0].text) || len(strings.Fields(sns[0].text)) > burstWords ||
		correctedRe.MatchString(sns[0].text) || strings.Contains(strings.ToLower(sns[0].text), " not ") {
		return Fact{}, false // "Correction: Saturday 25 April, not the 18th" says both values itself
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		p := d.s.Turns[j]
		if p.Speaker != t.Speaker || p.Role != t.Role {
			continue
		}
		before := split(cleanTurn(p.Content)).sentences
		if len(before) == 0 {
			return Fact{}, false
		}
		// The corrected sentence is the one with a value: "Signed! We get
		// the keys on the 25th" — "*24th".
		first, best := before[0], -1
		said := contentStems(sns[0].text, d.stems)
		for _, sn := range before {
			if !hasDigit(sn.text) {
				continue
			}
			shared := 0
			for w := range contentStems(sn.text, d.stems) {
				if said[w] {
					shared++
				}
			}
			if shared > best {
				first, best = sn, shared
			}
		}
		text := quote(d.subjectOf(t), cleanSentence(first.text)) + correctionJoin +
			strings.NewReplacer(`"`, "'").Replace(cleanSentence(sns[0].text)) + "\""
		return Fact{Subject: d.subjectOf(t), Kind: KindEvent, Theme: ThemeNotes, Text: text,
			Cites: []string{p.Ref, t.Ref}}, true
	}
	return Fact{}, false
}

// answersNews reports whether one of the two turns before i, said within
// the hour, gives facts, is someone else's burst or the photo this one
// captions: a burst after it cheers that news ("Arjun
// proposed!!!" — "finally!! 4 years it took him"), even the speaker's own
// ("I got the job…" — "congrats!" — "normal hours!!! no more 4am"). A
// burst days later is news of its own.
func (d *distiller) answersNews(i int) bool {
	t := d.s.Turns[i]
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		p := d.s.Turns[j]
		if t.Time.Sub(p.Time) >= time.Hour {
			continue
		}
		other := p.Speaker != t.Speaker || p.Role != t.Role
		switch {
		case j == i-1 && !other && bracketOpenerRe.MatchString(p.Content):
			return true // "[photo]" — "blew out all the candles, 85!!": a caption
		case other && exclaimedTurn(p.Content):
			return true // "WE WON THE TOURNAMENT" — "Grande viejo!! 68 and champion": their burst
		case len(d.turn(j)) > 0:
			return true
		}
	}
	return false
}

// exclaimedTurn reports whether a turn opens in a burst, number or not.
func exclaimedTurn(content string) bool {
	sns := split(cleanTurn(content)).sentences
	return len(sns) > 0 && exclaimed(content, strings.TrimSpace(sns[0].text))
}
