package distill

import "strings"

// German: a German owner states a project's rules as bare imperatives and
// negations ("keine neuen Abhängigkeiten", "nie der Handelsname", "Port
// bleibt 8081", "pytest vor jedem Commit, immer"), which conventionRe's
// English markers do not see; the assistant closes with
// "Zusammenfassung:" where it writes "Summary:" in English. German is
// read by shape (unread.go) in a chat; these are its words in a coding
// session, as chinese.go has Chinese's.

// germanFunctionWords say a sentence is German: two of them, more than
// English function words.
var germanFunctionWords = map[string]bool{"ich": true, "und": true, "der": true, "das": true, "nicht": true,
	"ist": true, "mit": true, "auf": true, "den": true, "dem": true, "nur": true, "kein": true, "keine": true,
	"wir": true, "immer": true, "nie": true, "auch": true, "bitte": true, "sind": true, "wird": true,
	"für": true, "von": true, "zu": true, "im": true, "bei": true, "nach": true, "aus": true, "ein": true,
	"eine": true, "die": true, "mein": true, "meine": true, "unser": true, "unsere": true, "bleibt": true, "vor": true,
	"dann": true, "aber": true, "oder": true, "wie": true, "nichts": true, "muss": true, "soll": true,
	"hab": true, "habe": true, "hat": true, "noch": true, "schon": true, "jetzt": true, "statt": true}

// germanText reports whether text is German by its function words.
func germanText(text string) bool {
	de, en := 0, 0
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ",.!?;:()\"'`")
		switch {
		case germanFunctionWords[w]:
			de++
		case englishWords[w]:
			en++
		}
	}
	return de >= 2 && de > en
}

// deConventionRe marks a rule a German owner states about a project: always
// and never, only and none, what stays, what must and may not be, what
// goes instead of what, the language the project writes in, dates and
// formats, what comes before and after, what runs, what is kept or
// deleted.
var deConventionRe = lazyRegexp(`(?i)(?:^|\s)(?:immer|nie|niemals|nur|keine?n?|nichts|bleib(?:t|en)|muss|müssen|darf|dürfen|statt|anstatt|vor jedem|jede[rsn]?|auf deutsch|auf englisch|standardbibliothek|abhängigkeit(?:en)?|schlüssel ist|heißt|ausgabe|dateiname|commit-messages?|datum|format|iso|zeitzone|in der datenbank|vor dem|danach|auch wenn|läuft|laufen|behalten|löschen|sollen)(?:$|[\s,.!:;])`)

// deConventions counts the convention markers of a German sentence of a
// coding session, at most two.
func deConventions(text string) int {
	if !germanText(text) {
		return 0
	}
	n := len(deConventionRe.FindAllStringIndex(text, 2)) - len(deOwnDutyRe.FindAllStringIndex(text, 2))
	return max(n, 0)
}

// deOwnDutyRe is the owner's own duty ("ich muss um 19:30 in der halle
// sein"), which says nothing of the project.
var deOwnDutyRe = lazyRegexp(`(?i)\bich (?:muss|darf)\b`)

// deOutcomeRe marks an assistant's report in German of how the work ended:
// "Zusammenfassung:", committed or not, tests green or passed.
var deOutcomeRe = lazyRegexp(`(?i)\b(?:zusammenfassung|committet|nicht committet|bestanden|grün|laufen durch|erledigt|fertig)\b`)

// germanNouns tells a German session's nouns from its names: German
// writes every noun capitalised ("die Wohnung", "mit Auto"), and a noun
// read as a name makes "die Straßen Leipzigs zittern" news about someone.
// nil for a session that is not German: its capitals stay names.
type germanNouns struct {
	lower map[string]bool // the words the session also writes in lower case
}

// newGermanNouns reads a session's nouns when it is German (germanSession).
func newGermanNouns(s Session) *germanNouns {
	if !germanTurns(s) {
		return nil
	}
	lower := map[string]bool{}
	for _, t := range s.Turns {
		for _, w := range strings.Fields(t.Content) {
			w = strings.Trim(w, ",.!?;:()\"'*`")
			if w != "" && strings.ToLower(w) == w {
				lower[w] = true
			}
		}
	}
	return &germanNouns{lower: lower}
}

// germanTurns reports whether a third of a session's turns or more are
// German (germanText). Turns are read as words, not split into
// sentences: that is done once elsewhere.
func germanTurns(s Session) bool {
	turns, german := 0, 0
	for _, t := range s.Turns {
		if t.Role == RoleAssistant && len(t.Content) > 2000 {
			continue // tool output and long answers say little of the language chat is in
		}
		turns++
		if germanText(t.Content) {
			german++
		}
	}
	return german > 0 && german*3 >= turns
}

// noun reports whether w, capitalised after prev2 and prev, is a German
// noun: after an article or a determiner (and an adjective), with a noun's ending, or written in lower
// case elsewhere in the session ("Kaffee" and "kaffee").
func (g *germanNouns) noun(prev2, prev, w string) bool {
	if g == nil {
		return false
	}
	lw := strings.ToLower(w)
	if germanDeterminers[strings.ToLower(prev)] || g.lower[lw] || germanPolitePronouns[w] {
		return true
	}
	if germanDeterminers[strings.ToLower(prev2)] && strings.ToLower(prev) == prev && hasAnySuffix(prev, "e", "en", "em", "er", "es") {
		return true // "den besten Apfelbaum", "im ganzen Verein": an article, an adjective, a noun
	}
	for _, suffix := range germanNounSuffixes {
		if strings.HasSuffix(lw, suffix) && len(lw) > len(suffix)+2 {
			return true
		}
	}
	return false
}

// germanDeterminers come before a noun: articles, possessives, and the
// prepositions that hold an article ("im", "zum").
var germanDeterminers = map[string]bool{"der": true, "die": true, "das": true, "den": true, "dem": true,
	"des": true, "ein": true, "eine": true, "einen": true, "einem": true, "einer": true, "eines": true,
	"kein": true, "keine": true, "keinen": true, "mein": true, "meine": true, "meinen": true, "meinem": true,
	"dein": true, "deine": true, "sein": true, "seine": true, "ihr": true, "ihre": true, "unser": true,
	"unsere": true, "im": true, "am": true, "vom": true, "zum": true, "zur": true, "beim": true, "ins": true,
	"ans": true, "jede": true, "jeder": true, "jedes": true, "alle": true, "diese": true, "dieser": true,
	"diesen": true, "neue": true, "neuen": true, "neuer": true}

// germanPolitePronouns are the pronouns a letter-writing German
// capitalises ("für Dich", "Danke Ihnen"): the listener, no name.
var germanPolitePronouns = map[string]bool{"Du": true, "Dich": true, "Dir": true, "Dein": true, "Deine": true,
	"Deinen": true, "Deinem": true, "Euch": true, "Euer": true, "Eure": true, "Ihr": true, "Ihre": true,
	"Ihnen": true, "Sie": true}

// germanNounSuffixes end German nouns only.
var germanNounSuffixes = []string{"ung", "heit", "keit", "schaft", "chen", "tät", "nis", "ismus", "ment", "ion", "ium", "ei"}

// hasAnySuffix reports whether s ends with one of suffixes.
func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// speakerWord reports whether w is a word of a speaker's name: a name
// whatever article a chat puts before it ("die Jule").
func speakerWord(s Session, w string) bool {
	for _, t := range s.Turns {
		for _, n := range strings.Fields(t.Speaker) {
			if n == w {
				return true
			}
		}
	}
	return false
}
