package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	foreign     bool      // a sentence in another language (language.go): its features came from its words
	lang        *language // that language
	foreignDate bool      // a date written in it, which reldate does not read
	kin         bool      // it opens with a relative named by kinship ("Mum had…", "Baba had a stent fitted")
	transient   bool      // where the speaker is right now ("I'm at my mum's"), not where they live
	promise     bool      // a conversational promise with no date ("I'll tell the restaurant")
	relay       bool      // a promise to pass words on ("I'll tell Sander"): chat whatever its words
	opinion     bool      // a verdict on something, not said of oneself ("Cradle Mountain is worth the drive")
	// named opens with someone named, then is/has/was: a fact about them
	// ("Bruno is a border collie", "Luc is allergic to cats").
	named bool
	// bareObject is a short sentence whose object is a pronoun another
	// turn names ("I adopted her in January").
	bareObject bool
}

// analyse computes a sentence's features; names are the session's
// capitalised words (see sessionNames).
func analyse(text string, names map[string]bool) features {
	lower := " " + strings.ToLower(strings.ReplaceAll(text, "’", "'")) + " "
	f := features{lower: lower, themeHits: map[string]int{}}
	f.words = countWords(text)
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
	if mayHold(lower, []string{" a ", " an "}) && jobRe.MatchString(lower) {
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
	if l := detectLanguage(words); l != nil {
		l.features(&f, text, words)
	}
	f.foreignDate = f.foreignDate || unreadDateIn(text)
	if fw := strings.ToLower(firstWord(text)); fw == "my" || fw == "our" {
		f.subject = true
	}
	if mayHold(lower, []string{" me ", " us "}) && assignedRe.MatchString(lower) {
		f.subject = true // "they're sending me to Trondheim": the speaker's work, told as its object
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
	f.decision = decisionLexicon.has(lower, words) && !crowdDecidedRe.MatchString(lower)
	f.plan = planLexicon.has(lower, words)
	f.lifeVerb = lifeLexicon.has(lower, words)
	f.possession = mayHold(lower, possessionHints) && possessionRe.MatchString(lower) && !abstractRe.MatchString(lower)
	if mayHold(lower, recurHints) && recurRe.MatchString(lower) {
		f.themeHits[ThemeHabits]++ // "once a month", "on Tuesday evenings", "every Sunday"
	}
	if mayHold(lower, []string{" in ", " to "}) && residenceRe.MatchString(text) {
		f.themeHits[ThemePlaces]++ // "I'm still in Sheffield", "back in Montreal"
	}
	if strings.Contains(lower, " new ") && newThingRe.MatchString(lower) {
		f.lifeVerb, f.subject = true, true // "our new Kia Niro": something changed
	}
	f.kin = kinship[strings.ToLower(strings.Trim(firstWord(text), ",.!?:;'\""))]
	f.transient = mayHold(lower, []string{" at ", " alone", " in ", " on ", "stuck"}) && transientRe.MatchString(lower)
	f.promise = promiseRe.MatchString(lower)
	f.relay = f.promise && relayRe.MatchString(lower) || mayHold(lower, []string{"said \"", "says \""}) && reportedQuestionRe.MatchString(lower)
	f.opinion = !f.first && mayHold(lower, opinionHints) && opinionRe.MatchString(lower)
	f.transient = f.transient || strings.Contains(lower, "all ") && spanRe.MatchString(lower)
	if choiceRe.MatchString(text) {
		f.decision = true // "Piranesi it is then": a choice made
		f.names++
	}
	if fw := nameKey(strings.Trim(firstWord(text), ",.!?:;")); names[fw] && !calendarWords[fw] {
		f.named = namedCopulaRe.MatchString(lower)
	}
	named := 0
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, ",.!?;:()\"'")
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case unicode.IsDigit(r):
			f.numbers++
		case names[nameKey(w)]:
			f.names++
			if !calendarWords[nameKey(w)] {
				named++
			}
		}
	}
	// Read after the names are counted: "We're calling her Inês" names her
	// ("I adopted her in January" does not).
	f.bareObject = f.words <= 6 && named == 0 && (bareObjectRe.MatchString(lower) ||
		startsWithDroppedI(text) && droppedIObjectRe.MatchString(lower) || f.numbers == 0 && endsOnPronounRe.MatchString(lower))
	return f
}

// assignedRe is the speaker sent, moved or taken on by an employer or a
// school: "they're sending me to Trondheim", "they offered me the job".
var assignedRe = lazyRegexp(`\b(?:sending|sent|send|posting|posted|transferring|transferred|seconding|seconded|promoting|promoted|hiring|hired|offering|offered|relocating|relocated) (?:me|us)\b`)

// crowdDecidedRe is a crowd that "decided" something ("every dog in
// Lisbon decided to eat chocolate"): a way of speaking, no one's decision.
var crowdDecidedRe = lazyRegexp(`\b(?:every|all the|half the|half of the|no) [a-z]+(?: [a-z]+)?(?: in [a-z]+)? decided\b`)

// possessionRe is "I have a…", "we've got two…" (with or without a space
// before the "'ve"), "I own…".
var possessionRe = lazyRegexp(`\b(?:i|we)(?: (?:also |now |just |still )?(?:have|own|'ve got|have got|got)|'ve (?:also |now |just |still )?got) (?:a|an|two|three|\d+|my|our) \w`)

// abstractRe is what one "has" in small talk, not in a house: "I have a
// question", "I have an announcement", "I've got a copy already".
var abstractRe = lazyRegexp(`\b(?:have|got) (?:a|an|some) (?:\w+ )?(?:questions?|announcement|idea|feeling|favour|favor|confession|suggestion|problem|request|update|thought|news|copy|minute|moment|spare|sec|second)\b`)

// recurRe is something done again and again: a habit.
var recurRe = lazyRegexp(`\b(?:every|each) (?:day|week|month|year|morning|evening|night|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\b(?:once|twice|three times|four times|\d+ times) a (?:day|week|fortnight|month|year)\b|\bon (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) (?:mornings|afternoons|evenings|nights)\b|\b(?:first|last|second) \w+ of (?:the|every|each) month\b|\b(?:daily|weekly|fortnightly|monthly)\b`)

// recurHints are literals one of which every recurRe match holds.
var recurHints = []string{"every ", "each ", "once a", "twice a", "times a", "mornings", "afternoons", "evenings",
	"nights", "weekends", " month", "daily", "weekly", "monthly", "fortnightly", "mondays", "tuesdays", "wednesdays",
	"thursdays", "fridays", "saturdays", "sundays"}

// residenceRe says where someone lives: a first person or a home word,
// then "in" and a capitalised place.
var residenceRe = lazyRegexp(`\b(?i:i'm|i am|we're|we are|live|lives|living|based|settled|back|still|now|moved|home)(?: (?i:still|now|back|up|down|over|out))? (?i:in|to) \p{Lu}\p{Ll}+`)

// newThingRe is "my new car", "our new flat": something acquired.
var newThingRe = lazyRegexp(`\b(?:my|our) (?:brand )?new [a-z]+`)

// kinship are the words that name a relative on their own, as a subject:
// "Mum had her knee done", "Baba had a stent fitted".
var kinship = map[string]bool{"mum": true, "mom": true, "mummy": true, "mommy": true, "mama": true, "mam": true,
	"ma": true, "dad": true, "daddy": true, "papa": true, "baba": true, "pops": true, "nan": true, "nana": true,
	"nanna": true, "granny": true, "gran": true, "grandma": true, "grandpa": true, "grandad": true, "granddad": true,
	"maman": true, "mamie": true, "papi": true, "abuela": true, "abuelo": true, "oma": true, "opa": true}

// transientRe is where someone is at the moment: "I'm at my mum's", "we're
// at the beach".
var transientRe = lazyRegexp(`\b(?:i'm|i am|we're|we are) (?:\w+ )?(?:at (?:my|our|the|a|his|her|their) |home alone\b|outside (?:my|our|the|a|his|her|their) |in (?:the|a) (?:queue|line|car|taxi|cab|waiting room)\b|on (?:the|a|my|our) (?:way|train|bus|tram|ferry|plane|flight)\b|stuck in\b)`)

// choiceRe is a choice named and settled: "Piranesi it is then", "Keswick
// it is".
var choiceRe = lazyRegexp(`^\p{Lu}[\p{L}'-]*(?: [\p{L}'-]+){0,4} it is(?: then)?\b`)

// namedCopulaRe is a name, then a verb that says what someone is or has.
var namedCopulaRe = lazyRegexp(`^ \S+(?: \S+)?(?:'s| is| was| has| had| got| gets| works| lives| plays) `)

// spanRe is a stretch of the last few days: "all weekend", "all day".
var spanRe = lazyRegexp(`\ball (?:day|night|week|weekend|morning|afternoon|evening)\b`)

// bareObjectRe is a verb whose object is a pronoun: "adopted her", "love
// it".
var bareObjectRe = lazyRegexp(`^ (?:i|we|i've|we've|i'd|we'd|i'm|we're) (?:\w+ )?\w+ (?:her|him|it|them|this|that)\b`)

// droppedIObjectRe is the same with chat's dropped "I": "Saw one from the
// car", "Booked it".
var droppedIObjectRe = lazyRegexp(`^ [a-z]+ (?:her|him|it|them|one)\b`)

// endsOnPronounRe is a short sentence whose last word is a pronoun object
// ("my boss will cancel it"): what "it" is, another sentence says.
var endsOnPronounRe = lazyRegexp(`\b(?:will|would|'ll|can|could|did|does|do) \w+ (?:it|them)[ .!]*$`)

// opinionRe is a verdict on something ("… is the best thing …", "… is
// worth the drive", "… is very serious", "… goes better than people
// think"): said of no one, it is taste or advice, not a fact to keep.
var opinionRe = lazyRegexp(`\b(?:is|are|was|were|'s) (?:the (?:best|worst|nicest|greatest)\b|(?:well |totally |so )?worth\b|(?:very|so|really|super|too|pretty|quite) [a-z]+(?:$|[ ,.!;]+(?:$|[a-z]+ (?:[a-z]+ )?(?:think|say|expect)|nobody|no one|everyone|anyway))|a lot of (?:luck|work|fun)\b|overrated|underrated|(?:a|an|such a|an absolute|a total|a real) (?:saint|legend|star|hero|genius|angel|gem|lifesaver|treasure)\b)|\b(?:goes|went|is|are) (?:much |a lot |way )?(?:better|worse|easier|harder) than (?:people|you|anyone|most) (?:think|expect)`)

// reportedQuestionRe is someone's question reported word for word ("my
// mum said \"who will buy dumplings from a van\""): what they asked, not
// a fact.
var reportedQuestionRe = lazyRegexp(`\b(?:said|says|asked|asks) "(?:who|what|why|how|where|when|which|is|are|do|does|did|can|could|will|would|should)\b[^"]*"`)

// opinionHints are literals one of which every opinionRe match holds.
var opinionHints = []string{"best", "worst", "nicest", "greatest", "worth", "very", "so ", "really", "super", "too ",
	"pretty", "quite", "a lot of", "rated", " than ", "saint", "legend", "star", "hero", "genius", "angel", "gem",
	"lifesaver", "treasure"}

// promiseRe is a conversational promise: "I'll tell the restaurant", "I'll
// send you the plan", "I'll ask Zoe".
var promiseRe = lazyRegexp(`^ (?:(?:ok|okay|sure|noted|yes|good|great|fine|right|cool|alright),? )?(?:i'll|i will|will|we'll) (?:\w+ )?(?:tell|send|ask|check|bring|call|ring|text|message|dig|look|let|do|get|try|sort|show|forward|share|find|book you|pass|give|take)\b`)

// relayRe is a promise to pass words on ("I'll tell Sander…", "I will
// text you the address"): about the conversation, never a life.
var relayRe = lazyRegexp(`^ (?:(?:ok|okay|sure|noted|yes|good|great|fine|right|cool|alright),? )?(?:i'll|i will|will|we'll) (?:\w+ )?(?:tell|send|ask|call|ring|text|message|let|show|forward|share|pass)\b`)

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
	nouns := newGermanNouns(s)    // German capitalises its nouns too (german.go)
	nounSeen := map[string]bool{} // a word once a noun ("ein Auto") is one everywhere ("mit Auto")
	for _, t := range s.Turns {
		for _, sn := range split(t.Content).sentences {
			prev, prev2 := "", ""
			for i, w := range strings.Fields(sn.text) {
				w = nameKey(strings.Trim(w, ",.!?;:()\"'*`"))
				r, n := utf8.DecodeRuneInString(w)
				p, p2 := prev, prev2
				prev, prev2 = w, prev
				if i == 0 || n == len(w) || !unicode.IsUpper(r) || w == "I" || strings.HasPrefix(w, "I'") {
					continue
				}
				if rest := w[n:]; strings.ToUpper(rest) == rest {
					continue // SHOUTING and acronyms are not names
				}
				if nouns.noun(p2, p, w) {
					nounSeen[w] = true
					continue
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
	for w := range nounSeen {
		if !speakerWord(s, w) {
			delete(names, w)
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
