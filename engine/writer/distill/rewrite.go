package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// rewriteOptions say who the pronouns other than "I" stand for.
type rewriteOptions struct {
	we  string // "we", "our", "us": a coding session's project; "" when unsafe to rewrite
	you string // "you", "your": the owner, in a coding assistant's summary; "" keeps "you"
	// keepYou keeps "you" as written (an instruction to the assistant); when
	// false and you is "", a "you" makes the rewrite unsafe.
	keepYou bool
	// prose is text already written about its subject (an assistant's
	// summary): its opening needs no subject.
	prose bool
	// names are the session's capitalised words: a sentence that opens with
	// one is about someone ("Karim is allergic to peanuts").
	names map[string]bool
}

// tokens cuts a text into runs of word and non-word characters, which
// join back into the text. A word is letters, digits, apostrophes and
// underscores, and the joiners - . / ~ @ between two of them ("go.mod",
// "tidepool-theme", "cmd/ledgerline"); "me." is the word "me" and ".".
func tokens(s string) []string {
	var out []string
	start, inWord := 0, false
	for i, r := range s {
		w := isWordRune(r)
		if !w && strings.ContainsRune("-./~@", r) && inWord {
			// A joiner stays in the word when a word rune follows it.
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			w = isWordRune(next)
		}
		if i > start && w != inWord {
			out = append(out, s[start:i])
			start = i
		}
		inWord = w
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '_'
}

// adverbs may stand between "I" and its verb.
var adverbs = map[string]bool{"just": true, "also": true, "really": true, "never": true, "always": true,
	"still": true, "only": true, "actually": true, "finally": true, "usually": true, "basically": true,
	"already": true, "even": true, "recently": true, "now": true, "often": true, "sometimes": true,
	"mostly": true, "totally": true, "literally": true, "definitely": true, "probably": true, "officially": true,
	"ever": true, "once": true, "barely": true, "hardly": true, "rarely": true, "seriously": true}

// unchangedVerbs do not take a third-person -s: modals and past forms.
var unchangedVerbs = map[string]bool{"can": true, "could": true, "will": true, "would": true, "shall": true,
	"should": true, "may": true, "might": true, "must": true, "can't": true, "cannot": true, "couldn't": true,
	"won't": true, "wouldn't": true, "shouldn't": true, "didn't": true, "mustn't": true, "was": true, "had": true,
	"got": true, "went": true, "did": true, "made": true, "took": true, "bought": true, "sold": true, "found": true,
	"broke": true, "gave": true, "left": true, "felt": true, "thought": true, "told": true, "said": true, "ran": true,
	"came": true, "saw": true, "met": true, "began": true, "wrote": true, "drove": true, "flew": true, "fell": true,
	"won": true, "lost": true, "paid": true, "put": true, "set": true, "sent": true, "spent": true, "built": true,
	"kept": true, "slept": true, "held": true, "brought": true, "caught": true, "taught": true, "heard": true,
	"led": true, "knew": true, "chose": true, "swam": true, "sang": true, "rode": true, "ate": true, "drank": true,
	"became": true, "quit": true, "hurt": true, "read": true, "let": true}

// irregularThird are verbs whose third person is not base+s.
var irregularThird = map[string]string{"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes",
	"were": "was", "be": "is", "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't", "ain't": "isn't"}

// presentEed are present-tense verbs that end in "ed" like a past form.
var presentEed = map[string]bool{"need": true, "feed": true, "bleed": true, "breed": true, "speed": true,
	"succeed": true, "proceed": true, "exceed": true, "heed": true, "weed": true, "seed": true, "embed": true,
	"shed": true, "wed": true}

// third conjugates a verb for a third-person singular subject.
func third(v string) string {
	lv := strings.ToLower(strings.ReplaceAll(v, "’", "'"))
	if t, ok := irregularThird[lv]; ok {
		return t
	}
	if presentEed[lv] {
		return v + "s" // "need" is no past form
	}
	if unchangedVerbs[lv] || strings.HasSuffix(lv, "ed") || strings.HasSuffix(lv, "n't") || !isLetters(lv) {
		return v
	}
	switch {
	case strings.HasSuffix(lv, "s"), strings.HasSuffix(lv, "sh"), strings.HasSuffix(lv, "ch"),
		strings.HasSuffix(lv, "x"), strings.HasSuffix(lv, "z"), strings.HasSuffix(lv, "o"):
		return v + "es"
	case len(lv) > 1 && strings.HasSuffix(lv, "y") && !strings.ContainsRune("aeiou", rune(lv[len(lv)-2])):
		return v[:len(v)-1] + "ies"
	}
	return v + "s"
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// pastVerbs may open a sentence whose "I" chat dropped ("Finished in 58
// minutes!"): the rewrite puts the subject back.
func pastVerbOpening(w string) bool {
	lw := strings.ToLower(w)
	return unchangedVerbs[lw] && lw != "can" && lw != "will" && lw != "let" || strings.HasSuffix(lw, "ed") && len(lw) > 4
}

// sideOpeningRe opens with a side of the body: "Left hip, …", "left
// knee's been bad": "left" is no past verb there.
var sideOpeningRe = lazyRegexp(`^(?i:left|right) (?i:hip|knee|ankle|foot|leg|arm|hand|wrist|elbow|shoulder|eye|ear|side|lung|kidney|calf|hamstring|thumb|finger|toe|heel|breast)s?\b`)

// pronounOpeners open a sentence whose subject is in another sentence
// ("She had her knee replacement…"): a quote keeps it honest.
var pronounOpeners = map[string]bool{"he": true, "she": true, "they": true, "it": true, "it's": true,
	"this": true, "that": true, "that's": true, "these": true, "those": true, "there": true, "there's": true,
	"here": true, "his": true, "her": true, "their": true, "its": true, "she's": true, "he's": true,
	"they're": true, "they've": true, "then": true, "both": true, "mine": true, "ours": true, "yours": true, "theirs": true, "hers": true}

// unsafeOpeners open a sentence with no subject of its own, unless the
// sentence says "I" later ("The hospital gave me every late shift").
var unsafeOpeners = map[string]bool{"the": true, "a": true, "an": true, "not": true, "nope": true, "one": true,
	"some": true, "all": true}

// rewrite turns a sentence said by subject into a standalone third-person
// sentence, or into the speaker's words in quotes when that is not safe.
func rewrite(text, subject string, o rewriteOptions) string {
	text = cleanSentence(text)
	if text == "" {
		return ""
	}
	out, ok := thirdPerson(text, subject, o)
	if !ok {
		return quote(subject, text)
	}
	return finish(out)
}

// quote is the speaker's words, as a sentence about them.
func quote(subject, text string) string {
	text = strings.NewReplacer(`"`, "'", "“", "'", "”", "'").Replace(strings.TrimSpace(text))
	return capitalise(subject) + " said: \"" + text + "\""
}

// cleanSentence drops markdown emphasis, chat tails and repeated marks.
func cleanSentence(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.NewReplacer("\t", " ", " by the way", "", " btw,", ",").Replace(dropEmphasis(s))
	s = strings.Join(strings.Fields(s), " ")
	s = repeatedMarks.ReplaceAllStringFunc(s, func(m string) string { return m[:1] })
	for {
		trimmed := strings.TrimRight(s, ".!?… ")
		cut := false
		for _, tail := range []string{" lol", " haha", " tbh", " btw", " thank god", " honestly", " though", " xx", " x"} {
			if len(trimmed) >= len(tail) && strings.EqualFold(trimmed[len(trimmed)-len(tail):], tail) {
				s = strings.TrimSpace(trimmed[:len(trimmed)-len(tail)])
				cut = true
				break
			}
		}
		if !cut {
			break
		}
	}
	return strings.TrimSpace(s)
}

// repeatedMarks are "!!!" and "??", which a memory writes once.
var repeatedMarks = lazyRegexp(`[!?]{2,}`)

// finish ends a rewritten sentence with one full stop.
func finish(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "。") || strings.HasSuffix(s, "！") {
		return capitalise(strings.TrimSuffix(strings.TrimSuffix(s, "！"), "。") + "。")
	}
	s = strings.TrimRight(s, ".!?…,;: ")
	if s == "" {
		return ""
	}
	return capitalise(s) + "."
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func possessive(name string) string { return name + "'s" }

// thirdPerson rewrites the first-person words of text; ok is false when a
// word it cannot rewrite safely remains.
func thirdPerson(text, subject string, o rewriteOptions) (string, bool) {
	if hasHan(text) {
		return thirdPersonCJK(text, subject)
	}
	// "My husband and I are…" is "Sam and their husband are…".
	if m := myAndIRe.FindStringSubmatch(text); m != nil {
		text = subject + " and their " + m[1] + " " + map[string]string{"i": "", "i've": "have ", "i'm": "are ",
			"i'll": "will ", "i'd": "would "}[strings.ToLower(m[2])] + text[len(m[0]):]
		text = strings.Replace(text, "  ", " ", 1)
	}
	text = hedgeFirst(text)
	toks := tokens(text)
	var b strings.Builder
	named := false // the subject is already in the sentence: "my" becomes "their", "I" becomes "they"
	firstWord := true
	hadFirst := hasEnglishFirstPerson(text) || o.we != "" && hasWe(text)
	// A person's "we" is the speaker and people around them: reported, it
	// is "they" ("Mel said they are moving to York"), once the speaker is
	// named in front.
	weSaid := o.we == "" && weFirst(toks)
	if weSaid && !o.prose && fragmentBeforeWe(toks, o.names) {
		return "", false // "Ceiling of the house we don't have yet": quoted
	}
	if weSaid {
		b.WriteString(subject + " said ")
		named = true
		if len(toks) > 0 && analyzer().stop[strings.ToLower(toks[0])] {
			toks[0] = lowerFirst(toks[0]) // "The kids…" is "… said the kids…"; "Saturday" stays
		}
	}
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			b.WriteString(tok)
			continue
		}
		lw := strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
		opening := firstWord
		firstWord = false
		switch lw {
		case "i", "i'm", "i've", "i'd", "i'll":
			if named {
				// A second "I" in the sentence: "they", so the name is not repeated.
				b.WriteString(matchCase(tok, "they"))
				switch lw {
				case "i'm":
					b.WriteString(" are")
				case "i've":
					b.WriteString(" have")
				case "i'd":
					b.WriteString(" " + dAux(toks, i))
				case "i'll":
					b.WriteString(" will")
				default:
					i = pluralNext(toks, i, &b)
				}
				continue
			}
			b.WriteString(subject)
			named = true
			if before := strings.TrimSpace(b.String()[:b.Len()-len(subject)]); strings.HasSuffix(before, " and") && pairedWithI(before, o.names) {
				// "Kate and I are expecting": a plural subject keeps its verb.
				switch lw {
				case "i'm":
					b.WriteString(" are")
				case "i've":
					b.WriteString(" have")
				case "i'd":
					b.WriteString(" " + dAux(toks, i))
				case "i'll":
					b.WriteString(" will")
				}
				continue
			}
			switch lw {
			case "i'm":
				b.WriteString(" is")
			case "i've":
				b.WriteString(" has")
			case "i'd":
				b.WriteString(" " + dAux(toks, i))
			case "i'll":
				b.WriteString(" will")
			default:
				i = conjugateNext(toks, i, &b)
			}
			continue
		case "me", "myself":
			if lw == "myself" && named {
				b.WriteString("themselves")
				continue
			}
			if named && !strings.HasSuffix(strings.TrimSpace(b.String()), ",") {
				b.WriteString("them") // "…get Quillstack to send them"
				continue
			}
			b.WriteString(subject)
			named = true
			continue
		case "my":
			hadFirst = true
			if named {
				b.WriteString("their")
			} else {
				b.WriteString(possessive(subject))
				named = true
			}
			continue
		case "mine":
			return "", false
		case "we", "we're", "we've", "we'll", "we'd", "us", "our", "ours", "ourselves", "let's":
			if (weSaid || named && o.we == "") && lw != "let's" {
				they := theyForms[lw]
				if lw == "we'd" {
					they = "they " + dAux(toks, i)
				}
				b.WriteString(matchCase(tok, they))
				continue
			}
			if o.we == "" || lw == "let's" || lw == "ourselves" {
				return "", false
			}
			hadFirst = true
			switch lw {
			case "we":
				b.WriteString(o.we)
				i = conjugateNext(toks, i, &b)
			case "we're":
				b.WriteString(o.we + " is")
			case "we've":
				b.WriteString(o.we + " has")
			case "we'll":
				b.WriteString(o.we + " will")
			case "we'd":
				b.WriteString(o.we + " " + dAux(toks, i))
			case "us":
				b.WriteString(o.we)
			default:
				b.WriteString(possessive(o.we))
			}
			continue
		case "you", "your", "yours", "you're", "you've", "you'll", "you'd", "yourself":
			switch {
			case o.you != "":
				b.WriteString(map[string]string{"you": o.you, "your": possessive(o.you), "yours": possessive(o.you),
					"you're": o.you + " is", "you've": o.you + " has", "you'll": o.you + " will", "you'd": o.you + " would",
					"yourself": "themselves"}[lw])
				continue
			case !o.keepYou:
				return "", false
			}
		}
		if opening && !o.prose && pronounOpeners[lw] {
			return "", false
		}
		if opening && !hadFirst && !o.keepYou && !o.prose {
			switch {
			case o.names[nameKey(tok)] && !calendarWords[nameKey(tok)]:
				// "Karim is allergic to peanuts": about someone named.
			case kinship[lw]:
				// "Baba had a stent fitted": the speaker's father.
				b.WriteString(possessive(subject) + " " + lw)
				named = true
				continue
			case unsafeOpeners[lw]:
				return "", false
			case pastVerbOpening(tok) && !sideOpeningRe.MatchString(text):
				// "Finished in 58 minutes!": chat dropped the "I" ("Left
				// hip, bursitis" is a side, not a verb).
				b.WriteString(subject + " " + strings.ToLower(tok))
				named = true
				continue
			case lw == "been":
				// "Been super busy with the new baby": "I've" dropped.
				b.WriteString(subject + " has been")
				named = true
				continue
			default:
				// No subject of its own ("Staff engineer at Quillstack from
				// April", "still registered…"): quoted.
				return "", false
			}
		}
		b.WriteString(tok)
	}
	return b.String(), true
}

// conjugateNext writes the words after a third-person subject at toks[i]
// up to and including its verb, conjugated; it returns the index of the
// last token written.
func conjugateNext(toks []string, i int, b *strings.Builder) int {
	for j := i + 1; j < len(toks); j++ {
		tok := toks[j]
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsLetter(r) {
			if strings.TrimSpace(tok) != "" {
				return j - 1 // punctuation: no verb follows
			}
			b.WriteString(tok)
			continue
		}
		if adverbs[strings.ToLower(tok)] {
			b.WriteString(tok)
			continue
		}
		if firstPerson[strings.ToLower(strings.ReplaceAll(tok, "’", "'"))] {
			return j - 1 // "I I'm": the next word is another pronoun, for the caller
		}
		if v := third(tok); !firstPerson[strings.ToLower(v)] {
			tok = v // not "u" + "s" = "us"
		}
		b.WriteString(tok)
		return j
	}
	return len(toks) - 1
}

// pluralNext is conjugateNext for "they": the verb stays as written but
// for "am" and "was".
func pluralNext(toks []string, i int, b *strings.Builder) int {
	for j := i + 1; j < len(toks); j++ {
		tok := toks[j]
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsLetter(r) {
			if strings.TrimSpace(tok) != "" {
				return j - 1
			}
			b.WriteString(tok)
			continue
		}
		if adverbs[strings.ToLower(tok)] {
			b.WriteString(tok)
			continue
		}
		if firstPerson[strings.ToLower(strings.ReplaceAll(tok, "’", "'"))] {
			return j - 1
		}
		switch strings.ToLower(tok) {
		case "am":
			tok = "are"
		case "was":
			tok = "were"
		}
		b.WriteString(tok)
		return j
	}
	return len(toks) - 1
}

// matchCase writes w with the case of tok's first letter.
func matchCase(tok, w string) string {
	r, _ := utf8.DecodeRuneInString(tok)
	if unicode.IsUpper(r) && tok != "I" && !strings.HasPrefix(tok, "I'") {
		return capitalise(w)
	}
	return w
}
