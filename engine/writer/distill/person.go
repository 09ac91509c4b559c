package distill

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/engine/index/reldate"
)

// keepScore is the score a sentence needs to be a fact.
const keepScore = 3

// features are what a sentence's words say about it.
type features struct {
	lower       string // lower case, straight apostrophes, wrapped in spaces
	words       int
	first       bool // a first-person pronoun (我 included)
	subject     bool // the first person is a subject: "I…", "we…", "My sister…" (not "…with me")
	strong      bool // a word that is nearly always a life fact: "allergic", "engaged", "promoted"
	second      bool // "you", "your"
	themeHits   map[string]int
	preference  bool
	instruction bool // a standing instruction, as an imperative or with "always"/"never"
	decision    bool
	plan        bool
	lifeVerb    bool // "started", "adopted", "signed up"…: something changed
	possession  bool // "I have a…", "I've got a…"
	names       int  // words the session writes capitalised mid-sentence (names of people and places)
	numbers     int
	cjk         bool
}

// analyse computes a sentence's features; names are the session's
// capitalised words (see sessionNames).
func analyse(text string, names map[string]bool) features {
	lower := " " + strings.ToLower(strings.ReplaceAll(text, "’", "'")) + " "
	f := features{lower: lower, themeHits: map[string]int{}}
	f.words = len(strings.Fields(text))
	for w := range strings.FieldsFuncSeq(lower, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		w = strings.Trim(w, "'")
		switch {
		case firstPerson[w]:
			f.first = true
			if subjectPronouns[w] {
				f.subject = true
			}
		case w == "you" || w == "your" || w == "you're" || w == "you've" || w == "you'll" || w == "yours":
			f.second = true
		}
	}
	words := lowerWords(lower)
	for theme, lex := range themeLexicons {
		if n := lex.count(lower, words); n > 0 {
			f.themeHits[theme] = n
		}
	}
	if jobRe.MatchString(lower) {
		f.themeHits[ThemeWork]++
	}
	if hasHan(text) {
		f.cjk = true
		f.first = f.first || strings.Contains(text, "我")
		f.subject = f.subject || strings.Contains(text, "我")
		for theme, ws := range cjkThemeWords {
			for _, w := range ws {
				if strings.Contains(text, w) {
					f.themeHits[theme]++
				}
			}
		}
	}
	if fw := strings.ToLower(firstWord(text)); fw == "my" || fw == "our" {
		f.subject = true
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "my" && ownedLexicon.words[strings.TrimSuffix(words[i+1], "'s")] {
			f.subject = true // "someone drove into my car": about the speaker's car
		}
	}
	f.strong = strongLexicon.has(lower, words)
	f.preference = mayHold(lower, preferenceHints) && preferenceRe.MatchString(text) && !vaguePreferenceRe.MatchString(lower)
	trimmed := strings.TrimSpace(lower)
	f.instruction = hasPrefixAny(trimmed, instructionStarts) || instructionLexicon.has(lower, words)
	f.decision = decisionLexicon.has(lower, words)
	f.plan = planLexicon.has(lower, words)
	f.lifeVerb = lifeLexicon.has(lower, words)
	f.possession = mayHold(lower, possessionHints) && possessionRe.MatchString(lower) && !abstractRe.MatchString(lower)
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, ",.!?;:()\"'")
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case unicode.IsDigit(r):
			f.numbers++
		case names[nameKey(w)]:
			f.names++
		}
	}
	return f
}

// possessionRe is "I have a…", "we've got two…", "I own…".
var possessionRe = regexp.MustCompile(`\b(?:i|we) (?:also |now |just |still )?(?:have|own|'ve got|have got|got) (?:a|an|two|three|\d+|my|our) \w`)

// abstractRe is what one "has" in small talk, not in a house: "I have a
// question", "I have an announcement".
var abstractRe = regexp.MustCompile(`\b(?:have|got) (?:a|an|some) (?:\w+ )?(?:questions?|announcement|idea|feeling|favour|favor|confession|suggestion|problem|request|update|thought|news)\b`)

// nameKey is how a capitalised word is looked up: without a possessive.
func nameKey(w string) string {
	w = strings.TrimSuffix(strings.TrimSuffix(strings.ReplaceAll(w, "’", "'"), "'s"), "'")
	return w
}

// sessionNames are the words a session writes capitalised inside a
// sentence: names of people, places and things ("Karim", "Keswick"),
// which make a sentence about someone or somewhere.
func sessionNames(s Session) map[string]bool {
	names := map[string]bool{}
	for _, t := range s.Turns {
		for _, sn := range split(t.Content).sentences {
			for i, w := range strings.Fields(sn.text) {
				w = nameKey(strings.Trim(w, ",.!?;:()\"'*`"))
				r, n := utf8.DecodeRuneInString(w)
				if i == 0 || n == len(w) || !unicode.IsUpper(r) || w == "I" || strings.HasPrefix(w, "I'") {
					continue
				}
				if rest := w[n:]; strings.ToUpper(rest) == rest {
					continue // SHOUTING and acronyms are not names
				}
				names[w] = true
			}
		}
		if t.Speaker != "" {
			for _, w := range strings.Fields(t.Speaker) {
				names[w] = true
			}
		}
	}
	return names
}

// theme is the person theme with the most hits ("" for none).
func (f features) theme() string {
	best, n := "", 0
	for _, t := range themeOrder {
		if f.themeHits[t] > n {
			best, n = t, f.themeHits[t]
		}
	}
	return best
}

func (f features) themeCount() int {
	n := 0
	for _, c := range f.themeHits {
		n += c
	}
	return n
}

// isChat reports whether a sentence is politeness, a reaction, a question
// or too short to hold a fact.
func isChat(sn sentence, f features) bool {
	if sn.question || questionRe.MatchString(strings.TrimSpace(sn.text)) {
		return true
	}
	bare := strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '\'' {
			return unicode.ToLower(r)
		}
		return ' '
	}, sn.text))
	bare = strings.Join(strings.Fields(bare), " ")
	if ackWords[bare] || bare == "" {
		return true
	}
	if f.words < 3 && !f.cjk && f.themeCount() == 0 && !f.preference && !f.strong {
		return true
	}
	return hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) || chatRe.MatchString(sn.text)
}

// clauses cuts a sentence at commas and semicolons (not inside brackets
// or quotes) and drops the clauses that are small talk ("Sorry,", "you've
// shamed me into it,", "it was grim"), keeping the rest in order. A
// sentence with one clause, or whose clauses are all small talk, comes
// back whole.
func clauses(text string, names map[string]bool, toAssistant bool) string {
	parts := splitClauses(text)
	if len(parts) < 2 {
		return text
	}
	var kept []string
	dropped := false
	for _, p := range parts {
		p = strings.TrimSpace(p)
		f := analyse(p, names)
		weak := f.themeCount() == 0 && f.names == 0 && f.numbers == 0 && !f.first && !f.instruction && !f.preference
		opener := strings.ToLower(strings.Trim(firstWord(p), ",.!?"))
		connective := opener == "so" || opener == "but" || opener == "because"
		if f.second && !toAssistant || ackWords[strings.ToLower(strings.Trim(p, "!.? "))] ||
			weak && connective ||
			weak && (pronounOpeners[opener] || hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) || chatRe.MatchString(p)) ||
			hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) && f.themeCount() == 0 {
			dropped = true
			continue
		}
		kept = append(kept, p)
	}
	if !dropped || len(kept) == 0 {
		return text
	}
	return joinClauses(kept)
}

// joinClauses joins kept clauses: with ", " unless the next one opens
// with its own connective.
func joinClauses(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if o := strings.ToLower(firstWord(p)); o == "so" || o == "but" || o == "because" {
				b.WriteString(" ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(p)
	}
	return b.String()
}

// splitClauses cuts text at the commas and semicolons outside brackets
// and quotes, and before " so " and " but " (the clause keeps its
// connective, so a dropped "so the timing actually works" leaves no
// dangling word).
func splitClauses(text string) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i, r := range text {
		if r == ' ' && depth == 0 && !quoted && i > start {
			rest := text[i:]
			if len(rest) > 4 && (strings.EqualFold(rest[:4], " so ") || len(rest) > 5 && strings.EqualFold(rest[:5], " but ") ||
				len(rest) > 9 && strings.EqualFold(rest[:9], " because ")) {
				parts = append(parts, text[start:i])
				start = i
				continue
			}
		}
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(0, depth-1)
		case '"', '`':
			quoted = !quoted
		case ',', ';':
			if depth == 0 && !quoted {
				parts = append(parts, text[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, text[start:])
}

// answering reports whether turn i answers a question another speaker
// asked in the turn before.
func (d *distiller) answering(i int) bool {
	if i == 0 {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	return prev.Speaker != t.Speaker && strings.HasSuffix(strings.TrimSpace(prev.Content), "?")
}

// personFact makes a fact from one sentence a person (or the speakerless
// owner) said in a chat.
func (d *distiller) personFact(i int, sn sentence, prev string) (Fact, bool) {
	t := d.s.Turns[i]
	text := discourse.ReplaceAllString(strings.TrimSpace(sn.text), "")
	text = clauses(text, d.names, t.Speaker == "" && t.Owner)
	text = discourse.ReplaceAllString(text, "")
	if text == "" {
		return Fact{}, false
	}
	text, context := d.resolvePronoun(i, text, prev)
	f := analyse(text, d.names)
	ms := dateMentions(text, t.Time)
	// A question is small talk unless it floats a dated plan ("Let's say I
	// come next month, the Easter weekend?").
	tentative := sn.question && f.first && (f.plan || f.decision) && len(ms) > 0
	if isChat(sentence{text: text, question: sn.question && !tentative}, f) {
		return Fact{}, false
	}
	score := 0
	if f.subject {
		score++
	}
	themes := f.themeCount()
	score += min(themes, 2)
	if f.strong {
		score++
	}
	if f.subject && themes > 0 {
		score++
	}
	if f.preference {
		score += 2
	}
	ownerToAssistant := t.Speaker == "" && t.Owner
	if f.instruction && ownerToAssistant {
		score += 3
	}
	if f.decision {
		score += 2
	}
	if f.lifeVerb && f.subject {
		score++
	}
	if f.possession {
		score += 2
	}
	day := t.Time.UTC().Truncate(24 * time.Hour)
	todayOnly := len(ms) > 0
	for _, m := range ms {
		if m.Unit != reldate.Day || !m.Days[0].Equal(day) {
			todayOnly = false
		}
	}
	for _, m := range ms {
		if m.Unit != reldate.Day || !m.Days[0].Equal(day) {
			score++ // a date other than today's: "tonight" is small talk, "last Tuesday" is an event
			if f.plan && m.Days[0].After(day.AddDate(0, 0, 1)) {
				score++
			}
			break
		}
	}
	if todayOnly {
		score-- // "I'm knackered today": how the day is, not a life
	}
	if f.names > 0 && (f.subject || themes > 0) {
		score++
	}
	if pronounOpeners[strings.ToLower(strings.Trim(firstWord(text), ",.!?"))] {
		score-- // "They're already there…": about someone another sentence names
	}
	if f.numbers > 0 {
		score++
	}
	if f.second && !ownerToAssistant {
		score -= 2
	}
	if f.words < 4 && !f.strong && !f.preference {
		score--
	}
	if d.answering(i) && startsWithDroppedI(text) {
		score++ // "Finished in 58 minutes!" after "How did it go?"
	}
	if score < keepScore {
		return Fact{}, false
	}
	subject := d.subjectOf(t)
	kind, theme := classify(f, ownerToAssistant, len(ms) > 0)
	fact := Fact{Subject: subject, Kind: kind, Theme: theme}
	annotated := text
	if kind != KindPreference && kind != KindInstruction {
		// A preference's "on Saturday morning" is every Saturday, not the last one.
		annotated, fact.Date = annotateWith(text, ms)
	}
	fact.Text = rewrite(annotated, subject, rewriteOptions{keepYou: ownerToAssistant, names: d.names})
	if context != "" {
		fact.Cites = []string{context, t.Ref}
	}
	fact.Core = t.Owner && (kind == KindPreference || kind == KindInstruction)
	return fact, true
}

// startsWithDroppedI reports whether a sentence opens with a past verb and
// no subject, as chat writes "Finished in 58 minutes!".
func startsWithDroppedI(text string) bool {
	return pastVerbOpening(strings.Trim(firstWord(text), ",.!?"))
}

// classify picks a fact's kind and theme from its features.
func classify(f features, ownerToAssistant, dated bool) (Kind, string) {
	switch {
	case f.instruction && ownerToAssistant:
		return KindInstruction, ThemeInstructions
	case f.decision:
		return KindDecision, ThemeDecisions
	case f.preference && f.themeHits[ThemeHealth] == 0:
		return KindPreference, ThemePreferences
	case f.plan && dated:
		return KindPlan, ThemePlans
	}
	theme := f.theme()
	if theme == "" {
		theme = ThemeNotes
	}
	if dated {
		return KindEvent, theme
	}
	return KindFact, theme
}

// relations are the people (and pets) "your …" asks about.
var relationRe = regexp.MustCompile(`(?i)\byour (mum|mom|mother|dad|father|sister|brother|husband|wife|partner|son|daughter|boyfriend|girlfriend|grandma|gran|grandad|grandpa|grandmother|grandfather|aunt|uncle|boss|dog|cat|baby)\b`)

// calendarWords are capitalised words that name no one.
var calendarWords = map[string]bool{"Monday": true, "Tuesday": true, "Wednesday": true, "Thursday": true, "Friday": true,
	"Saturday": true, "Sunday": true, "January": true, "February": true, "March": true, "April": true, "May": true,
	"June": true, "July": true, "August": true, "September": true, "October": true, "November": true, "December": true}

// resolvePronoun gives a sentence that opens with "he" or "she" its
// subject back: the one person the sentence before it (same turn) names
// ("…as long as Bruno can come. He's a border collie"), or the relation
// the other speaker just asked about ("How's your mum doing?" — "She had
// her knee replacement"), whose turn the fact then cites too (context).
func (d *distiller) resolvePronoun(i int, text, prev string) (resolved, context string) {
	first := firstWord(text)
	lw := strings.ToLower(strings.ReplaceAll(first, "’", "'"))
	var verb string
	switch lw {
	case "he", "she":
	case "he's", "she's":
		verb = " is"
		if next := strings.ToLower(firstWord(strings.TrimPrefix(text, first))); next == "got" || next == "been" {
			verb = " has"
		}
	default:
		return text, ""
	}
	rest := text[len(first):]
	t := d.s.Turns[i]
	if named := d.namedIn(prev, t.Speaker); len(named) == 1 {
		return named[0] + verb + rest, ""
	}
	if prev == "" && i > 0 {
		q := d.s.Turns[i-1]
		if q.Speaker != t.Speaker && strings.HasSuffix(strings.TrimSpace(q.Content), "?") {
			if m := relationRe.FindStringSubmatch(q.Content); m != nil {
				return possessive(d.subjectOf(t)) + " " + strings.ToLower(m[1]) + verb + rest, q.Ref
			}
			// "Does Owain still work for the council?" — "He's a town planner there".
			if asked := d.namedIn(q.Content, q.Speaker, t.Speaker); len(asked) == 1 {
				return asked[0] + verb + rest, q.Ref
			}
		}
	}
	return text, ""
}

// namedIn are the people a text names (session names, not calendar
// words, not the given speakers), each once, in order.
func (d *distiller) namedIn(text string, speakers ...string) []string {
	own := map[string]bool{}
	for _, sp := range speakers {
		for _, w := range strings.Fields(sp) {
			own[w] = true
		}
	}
	var named []string
	for _, w := range strings.Fields(text) {
		w = nameKey(strings.Trim(w, ",.!?;:()\"'"))
		if d.names[w] && !own[w] && !calendarWords[w] && !slices.Contains(named, w) {
			named = append(named, w)
		}
	}
	return named
}
