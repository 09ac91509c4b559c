package distill

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/engine/index/reldate"
)

// keepScore is the score a sentence needs to be a fact.
const keepScore = 3

// answering reports whether turn i answers a question another speaker
// asked in the turn before.
func (d *distiller) answering(i int) bool {
	if i == 0 {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	return prev.Speaker != t.Speaker && strings.HasSuffix(strings.TrimSpace(prev.Content), "?")
}

// weighed is what personFact made of one sentence: its text after small
// talk is cut and a pronoun resolved, the turn the pronoun's referent
// came from, its features and dates, and its score.
type weighed struct {
	text, context string
	f             features
	ms            []reldate.Mention
	score         int
	chat          bool // small talk, whatever the score
	// q is the question the sentence answers, when the answer needs it:
	// a fragment ("Sound engineer at BBC Scotland!") or a yes or no.
	q     *question
	yesNo bool // it answers yes or no to q, which holds the fact
	short bool // a short answer naming something: it means nothing without q
}

// weigh scores one sentence a person (or the speakerless owner) said in a
// chat: keepScore or more makes it a fact.
func (d *distiller) weigh(i, k int, sn sentence, prev string) (w weighed) {
	t := d.s.Turns[i]
	raw := strings.TrimSpace(sn.text)
	if d.unreadSentence(i, raw) {
		return d.weighUnread(i, sn, raw) // a language no list covers: its shape (unread.go)
	}
	if stated, ok := rhetorical(raw); ok {
		// "Did you know I quit sugar in January?" states that I did.
		raw, sn.question = stated, false
	} else if rhetoricalRe.MatchString(raw) {
		sn.question = true // "Guess who came with me?": a riddle about someone else
	}
	text := frenchDiscourse.ReplaceAllString(discourse.ReplaceAllString(apostrophes(raw), ""), "")
	text = clauses(text, d.names, t.Speaker == "" && t.Owner)
	text = trimChinese(text) // "对，…，好紧张": the reply's opener and a feeling (chinese.go)
	text = discourse.ReplaceAllString(text, "")
	if text == "" {
		w.chat = true
		return w
	}
	text, w.context = d.resolvePronoun(i, text, prev)
	w.text = text
	f := analyse(text, d.names)
	if l, words := d.turnLanguage(i), lowerWords(f.lower); !f.foreign && l != nil && l.leans(words) {
		l.features(&f, text, words) // a short French sentence in a French turn, Norwegian in a Norwegian one
	}
	if fw := strings.ToLower(strings.Trim(firstWord(text), ",.!?")); !f.first && !f.second && !strings.HasSuffix(fw, "n't") &&
		(startsWithDroppedI(text) || fw == "been") && !d.echoes(i, fw) {
		f.subject = true // "Went hiking with the kids", "Been busy with the new baby": chat drops the "I"
	}
	q, answers := d.asked(i)
	answers = answers && k < 2 && !sn.question
	if answers && q.name && k == 0 && shortAnswer(text, f) {
		// "Tidebreaker." after "What's it called again?": the answer is the fact.
		w.score, w.q, w.f, w.short = keepScore, &q, f, true
		return w
	}
	if !sn.question && isChat(sentence{text: text}, f) {
		w.chat = true // small talk, whatever its dates (read only past this point)
		return w
	}
	ms := dateMentions(text, t.Time)
	w.ms = ms
	if settledRe.MatchString(prev) || ruleLabelRe.MatchString(prev) {
		// "Booked. Saturday 29 March, the Railway Hotel", "New rule from
		// tonight, we agreed? No phones at dinner": what was settled.
		f.decision = true
	}
	if ruleLabelRe.MatchString(text) && strings.Contains(text, ":") || decisionLabelRe.MatchString(raw) {
		f.decision = true // "One rule for this harvest: nobody adds SO2…", "Decision on X: …": in the same sentence
	}
	if len(ms) > 0 && newDateRe.MatchString(f.lower) {
		f.decision = true // "New undocking date 22 March then": a plan changed
	}
	if f.subject && future(ms, t.Time) || announces(text, f) && future(ms, t.Time) {
		// "Saturday we hike Catbells": a dated future is a plan; so is a
		// group's news said of someone named or of a "the …" event ("Lena
		// leaves on the 14th", "the freeze starts on Monday").
		f.plan = true
	}
	// A question is small talk unless it floats a dated plan ("Let's say I
	// come next month, the Easter weekend?").
	tentative := sn.question && f.first && (f.plan || f.decision) && len(ms) > 0
	if isChat(sentence{text: text, question: sn.question && !tentative}, f) {
		w.chat = true
		return w
	}
	if d.smallTalk(i, raw, f) {
		w.chat = true // a reply's small talk (smalltalk.go)
		return w
	}
	w.f = f
	score := 0
	ownerToAssistant := t.Speaker == "" && t.Owner
	if answers && !(q.other && f.subject) {
		if f.themeCount()+f.names+f.numbers+len(ms) > 0 {
			score++ // what was asked for
			w.q = &q
		}
		if q.yesNo && q.content > 0 && answerOpenRe.MatchString(raw) {
			score += q.content // "Can you still play bass?" — "Nope, …": the question holds the fact
			w.q, w.yesNo = &q, true
		}
	}
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
	if f.instruction && ownerToAssistant {
		score += 3
	} else if standingRe.MatchString(f.lower) {
		score += 3 // "from now on, every bulletin gets a second reviewer": a standing rule, whoever sets it
	}
	if f.decision {
		score += 2
	}
	if ownerToAssistant && correctedRe.MatchString(text) {
		// "round trip is 74 minutes, not 68": the value to keep, told to
		// the assistant (among friends "at 8, not 7" is as often banter)
		score += 3
	}
	if f.numbers > 0 && labelOpenerRe.MatchString(raw) {
		score += 2 // "Update for the plan: final count is 141", "Reminder for everyone: … by Thursday 17:00": news labelled as news
	}
	if f.lifeVerb && f.subject {
		score++
	}
	if ownerToAssistant && measured(raw) && (f.kin || aboutOther(raw)) || flaggedValue(raw) {
		score += 2 // "she takes metformin 500 mg twice a day", "Vitamin D: 11.2 ng/mL … LOW" (requests.go)
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
			break
		}
	}
	for _, m := range ms {
		// A plan dated after tomorrow, by any of its dates ("on Saturday
		// 28 June" is read as last Saturday and the 28th).
		if f.plan && len(m.Days) > 0 && m.Days[0].After(day.AddDate(0, 0, 1)) {
			score++
			break
		}
	}
	if todayOnly && !standingRe.MatchString(f.lower) {
		score-- // "I'm knackered today": how the day is, not a life ("from today, …" starts one)
	}
	if f.names > 0 && (f.subject || themes > 0 || f.decision) {
		score++
	}
	if f.named {
		score++ // "Bruno is a border collie": about someone named
	}
	if f.kin && themes > 0 {
		score += 2 // "Baba had a stent fitted": a relative's news, as "my dad…" would be
	}
	if f.transient && len(ms) == 0 && momentRe.MatchString(f.lower) {
		w.chat = true // "I'm home alone with the cat…": where someone is right now
		return w
	}
	if f.transient && themes < 2 {
		score-- // "I'm at my mum's": where the day is, not where the life is
	}
	if f.bareObject {
		w.chat = true // "I adopted her in January": about someone another turn names
		return w
	}
	if len(ms) == 0 && !f.foreignDate && (conditionalRe.MatchString(text) && !strings.Contains(text, ",") ||
		thereRe.MatchString(f.lower) || superlativeRe.MatchString(f.lower) || daydreamRe.MatchString(f.lower) ||
		comparedFeelingRe.MatchString(f.lower) && !strings.Contains(text, ",") || toldYouRe.MatchString(f.lower) ||
		groceriesRe.MatchString(f.lower) || anecdoteRe.MatchString(f.lower) || bravado(f.lower) || d.clubResult(f.lower)) {
		// "As long as he doesn't break my wrist", "we'll be there with the
		// car", "the best tofu I ever ate", "some days I want to quit and
		// open a waffle stand", "he's happier than me", "I said you're
		// married to a ferry", "bought the medium cheese", "I have a
		// patient who…": a condition alone, a promise to turn up, praise, a
		// daydream, a feeling compared, a joke told about the listener, the
		// shopping, an anecdote's someone. Undated: a dated one is a plan.
		w.chat = true
		return w
	}
	if len(ms) == 0 && f.words <= 10 && thatDayRe.MatchString(f.lower) {
		w.chat = true // "I have an exam that morning": the day, and the fact, are another turn's
		return w
	}
	if f.relay || f.opinion && len(ms) == 0 && f.numbers == 0 || f.themeCount() == 0 && !f.strong && weatherRe.MatchString(f.lower) {
		// "I'll tell Sander the physio approves", "Cradle Mountain is worth
		// the drive", "We had 41 here on Saturday": passing words on, a
		// verdict said of no one, the weather.
		w.chat = true
		return w
	}
	if f.promise && len(ms) == 0 && !f.strong || f.foreign && f.lang.nearFuture.MatchString(f.lower) && !f.foreignDate && f.numbers == 0 && !f.strong {
		score-- // "I'll tell the restaurant", "je vais pêcher sur le quai": a promise in passing
	}
	if pronounOpeners[strings.ToLower(strings.Trim(firstWord(text), ",.!?"))] {
		score-- // "They're already there…": about someone another sentence names
	}
	if f.numbers > 0 || f.cjk && cjkDateRe.MatchString(text) {
		score++ // a number, or a Chinese date ("四月", "七月底") that reldate does not read
	}
	if f.foreignDate && len(ms) == 0 {
		score++ // a French or Norwegian date ("le 9 juin", "16. mars"), which reldate does not read either
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
	if f.cjk && chinese(text) {
		if chineseSmallTalk(text, f.first && (len(ms) > 0 || hasDigit(text))) {
			w.chat = true // a question without its mark, thanks (chinese.go)
			return w
		}
		score += chineseScore(text, f.themeHits, !d.zhEchoes(i, text)) // its dates, amounts, events and rules (chinese.go)
	}
	if score == keepScore && !f.strong && !decisionLabelRe.MatchString(text) && len(ms) == 0 && !f.foreignDate && w.q == nil && !(f.foreign && f.subject) {
		// "The kids keep asking…": no subject of its own, so quoted, and
		// undated, is not enough on its own (checked only where it decides).
		// French is always quoted: one with a subject of its own passes, as
		// does a decision said as one ("Decision recap: …").
		if _, safe := thirdPerson(cleanSentence(text), d.subjectOf(t), rewriteOptions{keepYou: ownerToAssistant, names: d.names}); !safe {
			score--
		}
	}
	w.score = score
	return w
}

// decisionLabelRe opens a sentence labelled a decision: "Decision recap:
// …", "Final decision: …".
var decisionLabelRe = lazyRegexp(`(?i)^(?:(?:final |the )?decision(?: recap| on [^:]{1,60})?|decided)\s*:`)

// ruleLabelRe announces a rule or an agreement that the next sentence
// states: "New rule for the kids from tonight, we agreed, right?".
var ruleLabelRe = lazyRegexp(`(?i)^\s*(?:(?:a |one |the )?(?:new|house|family|one|golden) rule\b|we (?:both )?agreed\b)`)

// newDateRe is a date that replaces another: "new date: 3 October",
// "new undocking date 22 March".
var newDateRe = lazyRegexp(`\bnew (?:\w+ )?(?:date|day|time|deadline)\b`)

// standingRe marks a rule set for good, or a thing launched for good
// ("the rota is live from today", "the pilot went live on the Hel route").
var standingRe = lazyRegexp(`\b(?:from now on|going forward|from here on|henceforth|from today|as of today|starting (?:today|now)|is live|are live|went live|goes live)\b`)

// conditionalRe opens a condition ("If…", "As long as…"): said without
// a comma it is the condition alone, a hypothetical.
var conditionalRe = lazyRegexp(`(?i)^(?:if|unless|as long as|even if|only if|in case|provided)\b`)

// thereRe is a promise to turn up ("we'll be there"), an answer to an
// invitation that another turn dates.
var thereRe = lazyRegexp(`\b(?:'ll|will|gonna) (?:\w+ )?be there\b`)

// superlativeRe is praise by superlative: "the best tofu I ever ate",
// "the nicest place we've ever stayed".
var superlativeRe = lazyRegexp(`\bthe (?:best|worst|nicest|greatest|most \w+)(?: \w+){0,3} (?:i|we|i've|we've|i have|we have|i'd|we'd) (?:ever|had ever|have ever|'ve ever)\b`)

// thatDayRe is a day named by another turn: "that morning", "that night",
// "until then".
var thatDayRe = lazyRegexp(`\bthat (?:morning|afternoon|evening|night|day|weekend|week)\b|\buntil then\b`)

// daydreamRe is a wish said as a mood, not a plan: "some days I want to
// quit and open a waffle stand".
var daydreamRe = lazyRegexp(`\b(?:some days|sometimes|some mornings|part of me|half the time|on bad days) (?:i|we) (?:just |really |honestly |seriously )?(?:want|wish|dream|fantasi[sz]e|think about)\b`)

// groceriesRe is the shopping: food and household things bought, which
// are no possession to remember ("Bought the medium cheese").
var groceriesRe = lazyRegexp(`\b(?:bought|buying|buy|got|picked up|grabbed) (?:the |some |a |an |two |more )?(?:[a-z]+ )?(?:cheese|milk|bread|eggs|coffee|tea|wine|beer|butter|pizza|snacks|groceries|chocolate|flowers|fruit|bananas|apples|vegetables|pasta|rice|nappies|diapers|toilet paper|dishwasher tablets|detergent|tacos|crisps|chips|ice cream|biscuits|cookies)\b`)

// anecdoteRe opens a story about someone the speaker meets at work or
// around ("I have a Polish patient who…"): the someone is no possession.
var anecdoteRe = lazyRegexp(`\b(?:i|we) (?:have|had|'ve got|know) (?:a|an|this|one) (?:[a-z]+ )?(?:patient|client|customer|student|colleague|coworker|neighbour|neighbor|guy|bloke|lady|woman|man|kid) who\b`)

// comparedFeelingRe compares how people feel: "Tomasz is happier than me".
var comparedFeelingRe = lazyRegexp(`\b(?:happier|sadder|prouder|angrier|more (?:excited|nervous|relieved|stressed|worried|scared|emotional)) than\b`)

// toldYouRe reports what the speaker said about the listener to someone
// else: "I said you're married to a carpenter and a ferry".
var toldYouRe = lazyRegexp(`^ (?:i|we) (?:said|told (?:him|her|them)|replied|answered)(?: that)? (?:you|you're|you are|you've)\b`)

// bareContractionRe is a contraction typed without its apostrophe, as
// quick chat does ("im vegetarian now", "ive got a room"); only the
// forms that are no other English word.
var bareContractionRe = lazyRegexp(`\b(?:im|ive|dont|didnt|doesnt|isnt|wasnt|havent|hasnt|couldnt|wouldnt|shouldnt|youre|theyre|thats|whats|shes)\b`)

// apostrophes restores the apostrophe of bareContractionRe's forms, in
// lower case only ("IM" is a message, "Im" a name).
func apostrophes(s string) string {
	if !mayHold(s, []string{"im", "ive", "nt", "re", "ts", "shes"}) {
		return s
	}
	return bareContractionRe.ReplaceAllStringFunc(s, func(w string) string {
		if strings.ToLower(w) != w {
			return w
		}
		switch w {
		case "im":
			return "i'm"
		case "ive":
			return "i've"
		case "shes":
			return "she's"
		case "thats", "whats":
			return w[:len(w)-1] + "'s"
		case "youre", "theyre":
			return w[:len(w)-2] + "'re"
		}
		return w[:len(w)-1] + "'t" // dont, didnt, isnt…
	})
}

// momentRe is where someone is right now, whatever else the sentence
// names ("I'm home alone with the cat and a freezer full of casseroles").
var momentRe = lazyRegexp(`\b(?:home alone|outside the|outside a|in the car|in the queue|in a queue|on the way|on my way|on our way|on the train|on the bus|stuck in)\b`)

// weatherRe is talk of the weather, small talk whatever its dates.
var weatherRe = lazyRegexp(`\b(?:weather|rain|raining|rained|snow|snowing|snowed|sunny|heatwave|heat wave|degrees|humid|humidity|freezing|aircon|air con|forecast|thunderstorm|scorcher|drizzle)\b`)

// settledRe is a sentence that only says something is settled, whose
// next sentence says what.
var settledRe = lazyRegexp(`(?i)^\s*(?:booked|decided|confirmed|sorted|settled|it's official|official)[.!:]*\s*$`)

// cjkDateRe is a month, a year or a duration written in Chinese.
var cjkDateRe = lazyRegexp(`[0-9一二三四五六七八九十]+(?:月|年|小时|个月|周)`)

// rhetoricalRe opens a question that announces rather than asks: "Did
// you know I quit sugar?", "Guess who's speaking at GopherCon?".
var rhetoricalRe = lazyRegexp(`(?i)^(?:did you know|have i told you|did i tell you|did i mention|you know what|guess what)(?: that)?,?\s+|^(?i:guess who)(?:'s| is| has| just| got| finally)?\b`)

// objectMeRe is the first person as an object: "…with me", "…told us".
var objectMeRe = lazyRegexp(`(?i)\b(?:me|us)\b`)

// rhetorical rewrites an announcing question as the statement it makes;
// ok is false for any other sentence.
func rhetorical(s string) (string, bool) {
	m := rhetoricalRe.FindStringSubmatchIndex(s)
	if m == nil {
		return s, false
	}
	head, rest := strings.ToLower(s[:m[1]]), strings.TrimSpace(s[m[1]:])
	rest = strings.TrimRight(rest, "?!. ")
	if rest == "" {
		return s, false
	}
	if strings.HasPrefix(head, "guess who") {
		if objectMeRe.MatchString(rest) {
			return s, false // "Guess who came to the scan with me": someone else did
		}
		// "Guess who's speaking…" is "I'm speaking…".
		verb := strings.TrimSpace(strings.TrimPrefix(head, "guess who"))
		switch verb {
		case "'s", "is":
			return "I'm " + rest, true
		case "":
			return "I " + rest, true
		}
		return "I " + strings.TrimPrefix(verb, "'") + " " + rest, true
	}
	return rest, true
}

// echoes reports whether turn i's word w repeats the turn before, said by
// someone else: "Sold out on day one!" after the friend's "we sold out by
// 2pm" is about the friend, so chat did not drop an "I" there.
func (d *distiller) echoes(i int, w string) bool {
	if i == 0 || w == "" {
		return false
	}
	prev, t := d.s.Turns[i-1], d.s.Turns[i]
	if prev.Speaker == t.Speaker && prev.Role == t.Role {
		return false
	}
	return containsWord(" "+strings.ToLower(prev.Content)+" ", w)
}

// future reports whether a mention points after the day of at.
func future(ms []reldate.Mention, at time.Time) bool {
	day := at.UTC().Truncate(24 * time.Hour)
	for _, m := range ms {
		if len(m.Days) > 0 && m.Days[0].After(day) {
			return true
		}
	}
	return false
}

// personFact makes a fact from one sentence a person (or the speakerless
// owner) said in a chat.
func (d *distiller) personFact(i, k int, sn sentence, prev string) (Fact, bool) {
	t := d.s.Turns[i]
	w := d.weigh(i, k, sn, prev)
	if w.chat || w.score < keepScore || len(strings.Fields(w.text)) > rantWords {
		return Fact{}, false
	}
	f, ms, text := w.f, w.ms, w.text
	ownerToAssistant := t.Speaker == "" && t.Owner
	subject := d.subjectOf(t)
	kind, theme := classify(f, ownerToAssistant, len(ms) > 0)
	fact := Fact{Subject: subject, Kind: kind, Theme: theme}
	annotated := text
	if kind != KindPreference && kind != KindInstruction {
		// A preference's "on Saturday morning" is every Saturday, not the last one.
		annotated, fact.Date = annotateWith(text, ms)
	}
	o := rewriteOptions{keepYou: ownerToAssistant, names: d.names}
	fact.Text = rewrite(annotated, subject, o)
	if f.foreign {
		fact.Text = quote(subject, cleanSentence(annotated)) // the rewrite is English: French keeps its words
	}
	if w.context != "" {
		fact.Cites = []string{w.context, t.Ref}
	}
	if w.q != nil {
		clean := cleanSentence(annotated)
		if _, safe := thirdPerson(clean, subject, o); w.yesNo || w.short || !safe && f.words <= 15 {
			fact.Text = withQuestion(w.q.text, subject, clean)
			fact.Cites = []string{d.s.Turns[w.q.turn].Ref, t.Ref}
		}
	}
	fact.Core = t.Owner && (kind == KindPreference || kind == KindInstruction)
	return fact, true
}

// startsWithDroppedI reports whether a sentence opens with a past verb and
// no subject, as chat writes "Finished in 58 minutes!".
func startsWithDroppedI(text string) bool {
	return pastVerbOpening(strings.Trim(firstWord(text), ",.!?")) && !sideOpeningRe.MatchString(text)
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

// announces reports whether a sentence is news told in the third person:
// it opens with someone or something named ("Lena leaves…") or a definite
// event ("the freeze starts…", "Training moves…"), is no question, and
// speaks to no one.
func announces(text string, f features) bool {
	if f.first || f.second {
		return false
	}
	fw := strings.Trim(firstWord(text), ",.!?:;\"'")
	r, _ := utf8.DecodeRuneInString(fw)
	return strings.EqualFold(fw, "the") || unicode.IsUpper(r) && !pronounOpeners[strings.ToLower(fw)] && !calendarWords[nameKey(fw)]
}
