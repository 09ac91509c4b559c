package distill

import (
	"strings"
	"time"
	"unicode"

	"scriptorium/engine/index/reldate"
)

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
	if f.words < 3 && !f.cjk && f.themeCount() == 0 && !f.preference && !f.strong || f.words < 2 && !f.cjk {
		return true // "Sold!" is a reaction, whatever its word
	}
	if ownedRe.MatchString(f.lower) && f.themeCount() > 0 {
		return false // "That's my birthday weekend": a fact behind a chat opener
	}
	if hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) || sameRe.MatchString(f.lower) || f.foreign && f.lang.chat(f) ||
		howAreYouReplyRe.MatchString(f.lower) {
		return true
	}
	// Praise is small talk ("that sounds amazing") unless it is said of the
	// speaker's own named or dated doings ("Our family road trip to the
	// Grand Canyon was amazing").
	return chatRe.MatchString(sn.text) && !(f.subject && f.names+f.themeCount() > 1)
}

// feelingRe is how someone feels, in a word or two ("I'm gutted", "I'm so
// nervous", "feeling great"), or an aside ("I checked", "I think").
var feelingRe = lazyRegexp(`^ (?:(?:i'm|i am|i feel|i was|i've been|feeling|so|we're|we are) (?:so |really |very |a bit |kinda |kind of |pretty |super |just |totally |absolutely |honestly )?[a-z]+|i (?:just )?(?:checked|think|guess|know|mean|hope|reckon|suppose|heard|swear|promise|bet|believe))[ .!]*$`)

// howAreYouReplyRe answers "how are you" ("I'm good, just got home…",
// "all good thanks"), not "I'm good at chess".
var howAreYouReplyRe = lazyRegexp(`^ (?:i'm|i am|we're|we are|all|doing) (?:good|fine|ok|okay|well|alright|great)(?:[,.!]| (?:thanks|thank you|just|and|lol|haha|tho|though|now)\b|\s*$)`)

// sameRe is a comparison that says nothing of its own: "my kids are the
// same".
var sameRe = lazyRegexp(`\b(?:is|are|was|were) (?:exactly |just |pretty much |kind of |kinda )?the same(?: here| too)?[ .!]*$`)

// ownedRe opens with "that's my…", "it's our…": a deictic and the
// speaker's own thing.
var ownedRe = lazyRegexp(`^ (?:that's|that is|it's|it is|this is) (?:my|our) `)

// treatRe is a promise to bring or make something for a gathering: "I'll
// make snacks", "we'll bring wine".
var treatRe = lazyRegexp(`^ (?:i'll|i will|we'll|we will) (?:\w+ )?(?:make|cook|bake|bring) (?:some |the |a |an )?[a-z]+[ .!]*$`)

// relayClauseRe is a clause asking the listener to pass words on ("tell
// him I said to drink water"): about the conversation, whatever it names.
var relayClauseRe = lazyRegexp(`^ (?:tell|ask|remind) (?:him|her|them) `)

// clauses cuts a sentence at commas and semicolons (not inside brackets
// or quotes) and drops the clauses that are small talk ("Sorry,", "you've
// shamed me into it,", "it was grim"), keeping the rest in order. A
// sentence with one clause comes back whole; one whose clauses are all
// small talk comes back empty.
func clauses(text string, names map[string]bool, toAssistant bool) string {
	parts := splitClauses(text)
	if len(parts) < 2 {
		return text
	}
	var kept []string
	dropped, greeted := false, false
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if lone := strings.ToLower(strings.Trim(p, "!.?")); firstPerson[lone] || ackWords[lone] {
			dropped, greeted = true, ackWords[lone] // "I'm" or "Yes" alone says nothing
			continue
		}
		f := analyse(p, names)
		wasGreeting := greeted
		greeted = hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners)
		if wasGreeting && f.words <= 3 && !f.first && f.numbers == 0 && !strings.Contains(p, " is ") {
			dropped = true // "Congratulations, Grandpa twice over": whom the greeting is for
			continue
		}
		if f.bareObject && f.themeCount() == 0 || !toAssistant && (strings.HasPrefix(f.lower, " don't ") && !f.first || relayClauseRe.MatchString(f.lower)) {
			// "I stand by it", "Don't say it too loud", "tell him I said…":
			// about the moment, or told to the listener.
			dropped = true
			continue
		}
		weak := f.themeCount() == 0 && f.names == 0 && f.numbers == 0 && !f.first && !f.instruction && !f.preference
		opener := strings.ToLower(strings.Trim(firstWord(p), ",.!?"))
		connective := opener == "so" || opener == "but" || opener == "because"
		// "so we're basically passing each other in the hallway": a
		// consequence with nothing of its own to remember.
		bare := connective && f.themeCount() == 0 && f.names == 0 && f.numbers == 0 && !f.strong && !f.preference &&
			!f.instruction && !f.decision && len(reldate.FindAll(p, time.Time{})) == 0
		// "I'm gutted", "I'm so nervous": a feeling in passing, not a fact.
		feeling := (feelingRe.MatchString(f.lower) || comparedFeelingRe.MatchString(f.lower)) && f.themeCount() == 0 &&
			f.names == 0 && f.numbers == 0 && !f.preference && !f.strong
		// "I'll make snacks": a promise in passing, after the clause that
		// holds the fact.
		promise := len(kept) > 0 && treatRe.MatchString(f.lower) && f.themeCount() == 0 && f.names == 0 && f.numbers == 0 && !f.strong
		if f.second && !toAssistant || ackWords[strings.ToLower(strings.Trim(p, "!.? "))] || promise ||
			weak && connective || feeling || bare ||
			weak && (pronounOpeners[opener] || opener == "which" || hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) || chatRe.MatchString(p)) ||
			hasPrefixAny(strings.TrimSpace(f.lower), chatOpeners) && f.themeCount() == 0 {
			dropped = true
			continue
		}
		kept = append(kept, p)
	}
	if !dropped {
		return text
	}
	if len(kept) == 0 {
		return "" // every clause small talk: "oh no, ugh, tell him to rest"
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
			if len(rest) > 4 && (strings.EqualFold(rest[:4], " so ") && !intensifier(rest[4:]) || len(rest) > 5 && strings.EqualFold(rest[:5], " but ") ||
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
		case ',', ';', ':':
			// A colon cuts a clause of four words or more, before a space:
			// "I can tell you now: I'm pregnant" is two clauses; "decided:
			// Saturday", "Update on flights: …", "7:30" and "https://" are
			// one.
			if r == ':' && (!strings.HasPrefix(text[i+1:], " ") || len(strings.Fields(text[start:i])) < 4) {
				continue
			}
			if depth == 0 && !quoted {
				parts = append(parts, text[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, text[start:])
}

// intensifier reports whether the words after a "so" make it an adverb
// ("so sorry", "so much fun", "so proud of you") rather than a
// conjunction ("so I'll be on the slow walks"): a conjunction is followed
// by a subject or a time.
func intensifier(after string) bool {
	w := strings.ToLower(strings.Trim(firstWord(after), ",.!?"))
	switch w {
	case "", "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "you", "you're", "he", "she", "it",
		"it's", "they", "they're", "there", "the", "my", "our", "your", "his", "her", "their", "that", "this", "now",
		"then", "if", "when", "far", "yeah", "yes", "no", "not":
		return false
	}
	r := []rune(w)
	return !unicode.IsDigit(r[0]) && !unicode.IsUpper([]rune(firstWord(after))[0])
}
