package distill

import "strings"

// German news in a chat is often told in lower case with no number or
// date ("ich hab die wohnung!!", "und du sollst trauzeugin sein"), so
// the shape a German turn is read by (unread.go) finds nothing in it once
// its capitalised nouns are nouns (german.go). These are the words such
// news is told with: a theme's stems, counted inside compounds as German
// writes them ("Laktoseintoleranz", "Mietvertrag"), and the life events
// that are news alone.

// germanThemeStems file a German sentence under a theme. Kin ("bruder",
// "schwester") are people talked of, not news, and are left out.
var germanThemeStems = map[string][]string{
	ThemeWork: {"stelle", "job", "arbeit", "kündig", "chef", "weiterbildung", "rente", "rentner", "elternzeit",
		"kapitän", "beförder", "ausbildung", "studium", "prüfung", "bestanden", "praktikum", "kollegin", "kollege"},
	ThemeFamily: {"hochzeit", "heirat", "trauzeug", "patentante", "patenonkel", "schwanger", "baby", "geburt",
		"geboren", "verlobt", "scheidung"},
	ThemePlaces: {"wohnung", "umzug", "umzieh", "zieh", "gezogen", "mietvertrag", "miete", "urlaub",
		"flitterwochen", "reise"},
	ThemeHealth: {"laktose", "allergi", "intoleranz", "knie", "verstaucht", "gebrochen", "krank", "arzt",
		"ärztin", "orthopäd", "hörgerät", "operation", "reha", "thrombose", "diagnose", "vegan", "vegetar"},
	ThemePossessions: {"auto", "gekauft", "verkauft", "fahrrad"},
	ThemeHabits:      {"training", "trainier", "handball", "fußball", "montags", "dienstags", "mittwochs", "donnerstags", "freitags", "jeden"},
}

// germanLifeEvents are news by themselves.
var germanLifeEvents = []string{"schwanger", "verlobt", "geheiratet", "heiraten", "gekündigt", "geboren",
	"trauzeug", "patentante", "patenonkel", "rentnerin", "rentner", "kapitänin", "gestorben", "getrennt"}

// germanPersons are the words that make the speaker or the listener the
// subject: news about the people in the chat.
var germanPersons = map[string]bool{"ich": true, "wir": true, "du": true, "ihr": true, "hab": true,
	"bin": true, "mein": true, "meine": true, "meinen": true, "mir": true, "mich": true}

// germanNews scores a sentence of a German session by its words: one for
// each theme it touches (two at most), one more for a person of the chat
// as its subject when it touches one, two for a life event, two for a
// month (German's are not in unreadMonths: Vietnamese "mai" is tomorrow). It files the
// themes in hits.
func germanNews(raw, before string, hits map[string]int) int {
	lower := strings.ToLower(raw)
	themes := 0
	for _, theme := range themeOrder {
		for _, stem := range germanThemeStems[theme] {
			if strings.Contains(lower, stem) && !echoed(lower, stem, before) && !appointment(lower, stem) {
				themes++
				if hits != nil {
					hits[theme]++
				}
				break
			}
		}
	}
	score := min(themes, 2)
	if themes > 0 {
		for _, w := range strings.Fields(lower) {
			if germanPersons[strings.Trim(w, ",.!?;:()\"'")] {
				score++
				break
			}
		}
	}
	for _, e := range germanLifeEvents {
		if strings.Contains(lower, e) {
			score += 2
			break
		}
	}
	for _, w := range strings.Fields(lower) {
		if germanMonthNames[strings.Trim(w, ",.!?;:()")] {
			score += 2 // "ab april", "am 1. märz": a month is a date's shape, as unreadMonths are
			break
		}
	}
	return score
}

// echoed reports whether the word of lower that holds stem was written
// in before, the turn someone else wrote just before: "Lena mit Auto…"
// after "ich hab ein Auto!!!" is a reaction to the news, not news.
func echoed(lower, stem, before string) bool {
	if before == "" {
		return false
	}
	for _, w := range strings.Fields(lower) {
		if w = strings.Trim(w, ",.!?;:()\"'"); strings.Contains(w, stem) {
			return containsWord(" "+strings.ToLower(before)+" ", w)
		}
	}
	return false
}

// appointment reports whether the word of lower that holds stem is an
// appointment ("Zahnarzttermin", "Arzttermin"): the week's errand, not
// news of someone's health.
func appointment(lower, stem string) bool {
	for _, w := range strings.Fields(lower) {
		if strings.Contains(w, stem) {
			return strings.Contains(w, "termin")
		}
	}
	return false
}

// germanMonthNames are German's months, lower case.
var germanMonthNames = map[string]bool{"januar": true, "februar": true, "märz": true, "april": true, "mai": true,
	"juni": true, "juli": true, "august": true, "september": true, "oktober": true, "november": true, "dezember": true}

// germanSession reports, once, whether the session is German (german.go).
func (d *distiller) germanSession() bool {
	if d.german == 0 {
		d.german = -1
		if germanTurns(d.s) {
			d.german = 1
		}
	}
	return d.german > 0
}

// germanPromiseRe opens a promise in passing, the near future of the
// moment ("ich bring Suppe", "ich komm vorbei", "ich trag's gleich ein"),
// as nearFuture is in the languages language.go reads.
var germanPromiseRe = lazyRegexp(`(?i)^(?:(?:ok|okay|gut|klar|ja|dann|und)[,.!]*\s+)?(?:ich|wir) (?:bring|bringe|komm|komme|mach|mache|trag|trag's|nehm|nehme|schick|schicke|hol|hole|sag|sage|ruf|rufe|kümmer|frag|frage|grill|grille)\b`)

// germanPromise reports whether a German sentence is such a promise: no
// date nor number in it, no health word (what someone must not eat is
// no promise), no month, no life event.
func germanPromise(raw string) bool {
	if !germanPromiseRe.MatchString(raw) || hasDigit(raw) || unreadDateIn(raw) {
		return false
	}
	lower := strings.ToLower(raw)
	for _, s := range germanThemeStems[ThemeHealth] {
		if strings.Contains(lower, s) {
			return false
		}
	}
	for _, m := range strings.Fields(lower) {
		if germanAfterOrdinal[strings.Trim(m, ",.!?")] && germanMonthNames[strings.Trim(m, ",.!?")] {
			return false
		}
	}
	for _, e := range germanLifeEvents {
		if strings.Contains(lower, e) {
			return false
		}
	}
	return true
}

// germanLabelRe is the label a German message opens with before its news
// ("kurzfassung:", "kleines update bei mir:", "übrigens news von mir:",
// "Zur Info fürs Team:"), or the reply word before it ("ja,", "nee,",
// "klar."): it says there is news, or that it answers, not what.
var germanLabelRe = lazyRegexp(`(?i)^(?:(?:übrigens|kurzfassung|kurz|kleines update|kurzes update|update|apropos|news|zur info|info|fyi|hinweis|kurzer nachtrag|nachtrag|zur erinnerung|kleine planänderung|planänderung|und nicht vergessen|nicht vergessen|für alle|für \S+ zur info|erste amtshandlung)[^:.!?]{0,25}:\s+|(?:übrigens|ja|jap|nee|nein|klar|okay|ok|sorry|und|aber|genau|richtig|super|top|gut|passt)[,.!]*\s+|(?:liebe|lieber|hallo|hi|moin)\s+(?:\S+\s+)?(?:gartenfreunde|freunde|mädels|leute|zusammen|alle|team|kollegen|kolleginnen|ihr lieben)[,!:]\s+)`)

// germanRequestRe opens a request to an assistant ("Mach mir einen
// Lernplan", "Gib mir eine Checkliste"), or a friend ("…, schreib mir
// bitte"): what the speaker wants done, not a fact about them.
var germanRequestRe = lazyRegexp(`(?i)(?:^|,\s+)(?:bitte\s+)?(?:mach|gib|schreib|erstell|erstelle|hilf|zeig|rechne|fass|formulier|übersetz)\s+(?:mir|uns)\b`)

// listHeader reports whether a sentence ending in a colon opens the list
// that follows it in its turn ("Hier der Plan für 2026:"): the lines say
// what the list holds, the header only that there is one.
func listHeader(raw, content string) bool {
	if !strings.HasSuffix(strings.TrimSpace(raw), ":") {
		return false
	}
	i := strings.Index(content, raw)
	return i >= 0 && strings.Count(content[i:], "\n") >= 2
}

// germanToListener reports whether a German sentence speaks to the
// listener about the listener ("Du hast genug mit der Wohnung", "dann
// kannst du auch davon"), with no one else as its subject, no date, no
// number and no life event: a reply's care, not news. "du sollst
// trauzeugin sein" is news (a life event).
func germanToListener(raw string) bool {
	lower := strings.ToLower(raw)
	second, first := false, false
	for _, w := range strings.Fields(lower) {
		switch strings.Trim(w, ",.!?;:()\"'") {
		case "du", "dich", "dir", "dein", "deine", "deinen", "euch", "ihr":
			second = true
		case "ich", "wir", "mein", "meine", "meinen", "mir", "mich", "uns", "unser", "unsere":
			first = true
		}
	}
	if !second || first || hasDigit(raw) || unreadDateIn(raw) {
		return false
	}
	for _, e := range germanLifeEvents {
		if strings.Contains(lower, e) {
			return false
		}
	}
	return true
}

// germanAsksLife reports whether a German question asks someone into a
// life event ("willst du Pauls Patentante sein?", "wollt ihr meine
// Trauzeugen werden?"): the asking is the news, whatever the answer.
func (d *distiller) germanAsksLife(raw string) bool {
	if !d.germanSession() {
		return false
	}
	lower := strings.ToLower(raw)
	for _, e := range germanLifeEvents {
		if strings.Contains(lower, e) {
			return true
		}
	}
	return false
}
