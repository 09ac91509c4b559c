package distill

import "strings"

// Languages other than English: chats between French or Norwegian
// speakers state their facts in their language. The English rules find
// nothing in them (or worse, read Norwegian "i", "in", as the pronoun), so
// a sentence in one of these languages gets its features from its own
// words below. What it keeps is quoted, never rewritten: the third-person
// rewrite is English.
type language struct {
	name string
	// words are function words (and common words) English does not use;
	// elisions open an elided word ("j'ai").
	words    map[string]bool
	elisions []string
	// themes file a sentence under a person's theme; compounds makes a
	// theme word count inside a longer word too, as Norwegian writes
	// "hofteoperasjonen" for "the hip operation".
	themes    map[string]lexicon
	anyTheme  lexicon
	compounds []compound
	// strong, decision, plan and life are the counterparts of strongWords,
	// decisionWords, planWords and lifeVerbs.
	strong, decision, plan, life lexicon
	compoundStrong               []string
	// first are the first-person words, subject those that make the
	// speaker the subject, second the listener, owned "my" before a
	// theme word ("mon genou", "min hofte").
	first, subject, second, owned map[string]bool
	// chatOpeners open a reaction, a greeting or thanks.
	chatOpeners []string
	// nearFuture is the near future of the moment: undated, a promise in
	// passing. date is a date written in the language, which reldate does
	// not read: it counts for the score, it is not resolved.
	nearFuture, date *lazyRE
}

// compound is a theme word that also counts inside a longer word.
type compound struct{ theme, stem string }

// languages are the languages read besides English.
var languages = []*language{french, norwegian}

// detectLanguage is the language of a sentence's words (lower case): two
// of its words or more, more of them than English ones, and more than of
// any other language; nil for English.
func detectLanguage(words []string) *language {
	var best *language
	most := 0
	for _, l := range languages {
		if n, en := l.count(words); n >= 2 && n > en && n > most {
			best, most = l, n
		}
	}
	return best
}

// leans reports whether a short sentence of a turn in l is in l too ("On
// a loué un camion" after "Oui, le 26."): one of its words, and no more
// English ones.
func (l *language) leans(words []string) bool {
	n, en := l.count(words)
	return n >= 1 && n >= en
}

// turnLanguage is the language turn i is mostly written in, nil for
// English.
func (d *distiller) turnLanguage(i int) *language {
	if l, ok := d.lang[i]; ok {
		return l
	}
	if d.lang == nil {
		d.lang = map[int]*language{}
	}
	l := detectLanguage(lowerWords(" " + strings.ToLower(strings.ReplaceAll(d.s.Turns[i].Content, "’", "'")) + " "))
	d.lang[i] = l
	return l
}

// count counts a sentence's words of l and its English ones.
func (l *language) count(words []string) (n, en int) {
	for _, w := range words {
		switch {
		case l.words[w]:
			n++
		case englishWords[w]:
			en++
		default:
			for _, e := range l.elisions {
				if strings.HasPrefix(w, e) && len(w) > len(e) {
					n++
					break
				}
			}
		}
	}
	return n, en
}

// englishWords are English function words: a sentence with as many of
// them as another language's is read as English.
var englishWords = map[string]bool{"the": true, "and": true, "is": true, "i": true, "my": true, "to": true,
	"of": true, "you": true, "it": true, "in": true, "for": true, "with": true, "that": true, "this": true,
	"was": true, "are": true, "be": true, "have": true, "we": true, "he": true, "she": true, "they": true,
	"from": true, "at": true, "by": true, "his": true, "her": true, "our": true, "will": true, "i'm": true,
	"it's": true, "not": true, "but": true, "just": true, "so": true, "all": true, "after": true}

// features adds what a sentence in l says to f (which the English words
// found next to nothing in).
func (l *language) features(f *features, text string, words []string) {
	f.foreign, f.lang = true, l
	lower := f.lower
	for i, w := range words {
		head := w
		if l == french && (strings.HasPrefix(w, "j'") || strings.HasPrefix(w, "m'")) {
			head = "je" // "j'ai", "m'occupe"
		}
		switch {
		case l.subject[head]:
			f.first, f.subject = true, true
		case l.first[head]:
			f.first = true
			if l.owned[head] && i+1 < len(words) && (l.anyTheme.words[words[i+1]] || l.compoundTheme(words[i+1]) != "") {
				f.subject = true // "mon genou", "min hofte": about the speaker
			}
		case l.second[head]:
			f.second = true
		}
	}
	for theme, lex := range l.themes {
		if n := lex.count(lower, words); n > 0 {
			f.themeHits[theme] += n
		}
	}
	for _, w := range words {
		if l.anyTheme.words[w] {
			continue // counted whole above
		}
		if theme := l.compoundTheme(w); theme != "" {
			f.themeHits[theme]++
		}
		for _, s := range l.compoundStrong {
			if strings.Contains(w, s) {
				f.strong = true
			}
		}
	}
	f.strong = f.strong || l.strong.has(lower, words)
	f.decision = f.decision || l.decision.has(lower, words)
	f.plan = f.plan || l.plan.has(lower, words)
	f.lifeVerb = f.lifeVerb || l.life.has(lower, words)
	f.foreignDate = l.date.MatchString(text)
}

// compoundTheme is the theme of a word that holds one of l's compound
// stems ("hofteoperasjonen" holds "operasjon"), "" for none.
func (l *language) compoundTheme(w string) string {
	for _, c := range l.compounds {
		if strings.Contains(w, c.stem) {
			return c.theme
		}
	}
	return ""
}

// chat reports whether a sentence in l is a reaction, a greeting or
// thanks.
func (l *language) chat(f features) bool {
	return hasPrefixAny(strings.TrimSpace(f.lower), l.chatOpeners)
}

// newLanguage compiles a language's word lists.
func newLanguage(l language, themes map[string][]string, compounds map[string][]string, strong, decision, plan, life []string) *language {
	l.themes = lexiconsByTheme(themes)
	var all []string
	for _, ws := range themes {
		all = append(all, ws...)
	}
	l.anyTheme = newLexicon(all)
	for _, theme := range themeOrder {
		for _, s := range compounds[theme] {
			l.compounds = append(l.compounds, compound{theme: theme, stem: s})
		}
	}
	l.strong, l.decision, l.plan, l.life = newLexicon(strong), newLexicon(decision), newLexicon(plan), newLexicon(life)
	return &l
}
