package distill

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis/lang/ca"
	"github.com/blevesearch/bleve/v2/analysis/lang/cs"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/eu"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/ga"
	"github.com/blevesearch/bleve/v2/analysis/lang/gl"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/id"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
)

// Languages no word list covers (Spanish, Portuguese, Italian…): reading
// each with a file of its own words does not carry to the next one, so a
// turn that reads as neither English nor a language of language.go is
// read by shape. Its sentence is kept, quoted and attributed, only when
// it carries what a fact carries whatever the language: a number, a name
// the session writes, a month or a weekday with its day. Small talk is
// what has none of these, or is short, laughs, or is a run of emoji.

// stopLists are the function words of the Latin-script languages bleve
// ships lists for (not Croatian: its package's init builds a stemmer's
// tables, 1.1 MB and 9–28 ms at every process start, the prompt path's
// included): a turn with two of one language's, more of them than
// English ones and than French or Norwegian ones (the first two lists:
// language.go reads those) is in that language. The lists only say a turn
// is not English; what is kept is decided by shape below.
var stopLists = [][]byte{fr.FrenchStopWords, no.NorwegianStopWords, es.SpanishStopWords, pt.PortugueseStopWords, it.ItalianStopWords, de.GermanStopWords,
	nl.DutchStopWords, sv.SwedishStopWords, da.DanishStopWords, fi.FinnishStopWords, ca.CatalanStopWords,
	gl.GalicianStopWords, id.IndonesianStopWords, tr.TurkishStopWords, ro.RomanianStopWords,
	cs.CzechStopWords, hu.HungarianStopWords, ga.IrishStopWords, eu.BasqueStopWords}

var (
	stopOnce sync.Once
	// foreignStop maps a function word to the languages (bits of
	// stopLists) it belongs to; englishStop are English's.
	foreignStop map[string]uint32
	englishStop map[string]bool
	// sharedStop are English function words an unread language also
	// uses ("a", "no", "do", "me" in Portuguese): they count for neither,
	// or a Portuguese turn reads as English ("Novo aluguel a partir de
	// outubro, a renovação no contrato"). language.go's own words
	// ("the", "is", "i", "my"…) stay English's.
	sharedStop map[string]bool
)

// loadStops parses bleve's lists: a word a line, "|" or "#" opens a
// comment. A word English also uses ("a", "no", "me") is English's only.
func loadStops() {
	englishStop = map[string]bool{}
	for w := range englishWords {
		englishStop[w] = true
	}
	for _, w := range append(stopWords(en.EnglishStopWords), extraFunctionWords...) {
		englishStop[w] = true
	}
	englishStop["now"] = true
	foreignStop = map[string]uint32{}
	sharedStop = map[string]bool{}
	for k, list := range stopLists {
		for _, w := range stopWords(list) {
			if !englishStop[w] {
				foreignStop[w] |= 1 << k
			} else if k >= readLists && !englishWords[w] {
				sharedStop[w] = true
			}
			// Chat drops the accents a phone keyboard makes hard ("icin"
			// for "için", "nao" for "não"): the plain spelling counts too.
			if p := plainLetters.Replace(w); p != w && k >= readLists && !englishStop[p] && !sharedStop[p] {
				foreignStop[p] |= 1 << k
			}
		}
	}
}

// plainLetters writes a word without its accents, as chat often does.
var plainLetters = strings.NewReplacer("ı", "i", "ş", "s", "ç", "c", "ğ", "g", "ö", "o", "ü", "u",
	"ã", "a", "á", "a", "à", "a", "â", "a", "é", "e", "ê", "e", "è", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o", "ú", "u",
	"ą", "a", "ć", "c", "ę", "e", "ł", "l", "ń", "n", "ś", "s", "ź", "z", "ż", "z")

func stopWords(list []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(list), "\n") {
		if i := strings.IndexAny(line, "|#"); i >= 0 {
			line = line[:i]
		}
		for _, w := range strings.Fields(line) {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// readLists are how many of stopLists language.go reads.
const readLists = 2

// stopCounts counts lower-case words' English function words, those of
// the unread language that has most of them, and those of the read one
// that has most.
func stopCounts(words []string) (foreign, english, read int) {
	stopOnce.Do(loadStops)
	var per [32]int
	for _, w := range words {
		if sharedStop[w] {
			continue // "a", "no", "do", "me": Portuguese as much as English
		}
		if englishStop[w] {
			english++
			continue
		}
		for b := foreignStop[w]; b != 0; b &= b - 1 {
			per[bits.TrailingZeros32(b)]++
		}
	}
	return slices.Max(per[readLists:]), english, slices.Max(per[:readLists])
}

// unreadTurn reports whether turn i is written in a language the
// distiller does not read: not Chinese, and more function words of
// another language than English, French or Norwegian ones.
func (d *distiller) unreadTurn(i int) bool {
	if v, ok := d.unread[i]; ok {
		return v
	}
	if d.unread == nil {
		d.unread = map[int]bool{}
	}
	c := d.s.Turns[i].Content
	// "im vegetarian now" is "i'm…": German "im" would say otherwise.
	foreign, english, read := stopCounts(lowerWords(" " + strings.ToLower(apostrophes(strings.ReplaceAll(c, "’", "'"))) + " "))
	// Spanish shares "de", "la", "que" with French: the lists, not
	// language.go's shorter ones, decide between them; a turn language.go
	// reads stays read unless another list has more of its words.
	// One function word and no English one ("Começo segunda 18/05 num
	// escritório") is weak evidence: such a turn is read by shape with a
	// higher bar (weighUnread).
	weak := foreign == 1 && english == 0
	v := (foreign >= 2 || weak) && foreign > english && !hasHan(c)
	if l := d.turnLanguage(i); l != nil {
		v = v && foreign > read
	} else {
		v = v && foreign >= read
	}
	if (!v || weak) && (otherScript(c) || denseMarks(c) && english*4 < len(strings.Fields(c)) && (!weak || veryDense(c))) {
		// Cyrillic, Greek…: no stop list above is in its script, and its
		// letters say it is not English; nor is Vietnamese, whose words
		// nearly all carry marks (marks.go).
		v, weak = true, false
	}
	if (!v || weak) && hasKana(c) && english*4 < countWords(c) {
		// Japanese: kana say it is not Chinese, which the Chinese rules
		// read; it is read by shape (spaceless.go).
		v, weak = true, false
	}
	if (!v || weak) && strings.HasPrefix(strings.TrimSpace(c), "*") {
		// "*R$ 56.500,00, consegui desconto": a correction of a value
		// just sent is in the language of the turn it corrects.
		for k := i - 1; k >= 0 && k >= i-3; k-- {
			if d.s.Turns[k].Speaker == d.s.Turns[i].Speaker && d.s.Turns[k].Role == d.s.Turns[i].Role {
				if d.unreadTurn(k) {
					v, weak = true, false
				}
				break
			}
		}
	}
	d.unread[i] = v
	if v && weak {
		if d.unreadWeak == nil {
			d.unreadWeak = map[int]bool{}
		}
		d.unreadWeak[i] = true
	}
	return v
}

// unreadSentence reports whether a sentence of turn i is read by shape:
// the turn is unread and the sentence has few English function words
// (an English sentence in it is read as English), or the sentence itself
// is in another script ("opening is Saturday. перші 50 гостей…").
func (d *distiller) unreadSentence(i int, text string) bool {
	if !d.unreadTurn(i) {
		return otherScript(text) || hasKana(text)
	}
	words := lowerWords(" " + strings.ToLower(strings.ReplaceAll(text, "’", "'")) + " ")
	_, english, _ := stopCounts(words)
	return english*4 < len(words)
}

// laughRe is laughter as chat types it in any language: "jajaja",
// "hahaha", "kkkk", "lol".
var laughRe = lazyRegexp(`(?i)(?:ja|je|ha|ji|he|ks){2,}|k{3,}|\blol\b|\blmao\b`)

// unreadMonths are the months and weekdays of the languages chats are
// written in besides those read (a date in any of them is a fact's
// shape); weekdays count only next to a day's number ("el martes 17").
var unreadMonths = map[string]bool{
	"enero": true, "febrero": true, "marzo": true, "abril": true, "mayo": true, "junio": true, "julio": true,
	"agosto": true, "septiembre": true, "setiembre": true, "octubre": true, "noviembre": true, "diciembre": true,
	"janeiro": true, "fevereiro": true, "março": true, "maio": true, "junho": true, "julho": true,
	"setembro": true, "outubro": true, "novembro": true, "dezembro": true,
	"gennaio": true, "febbraio": true, "aprile": true, "maggio": true, "giugno": true, "luglio": true,
	"settembre": true, "ottobre": true, "dicembre": true,
	"ocak": true, "şubat": true, "mart": true, "nisan": true, "mayıs": true, "haziran": true, "temmuz": true,
	"ağustos": true, "eylül": true, "ekim": true, "kasım": true, "aralık": true,
	// Polish: the genitive a date takes ("14 stycznia"), the name, and "in" ("w marcu").
	"stycznia": true, "styczeń": true, "styczniu": true, "lutego": true, "luty": true, "lutym": true,
	"marca": true, "marzec": true, "marcu": true, "kwietnia": true, "kwiecień": true, "kwietniu": true,
	"maj": true, "maju": true, "czerwca": true, "czerwiec": true, "czerwcu": true, "lipca": true,
	"lipiec": true, "lipcu": true, "sierpnia": true, "sierpień": true, "sierpniu": true, "września": true,
	"wrzesień": true, "wrześniu": true, "października": true, "październik": true, "październiku": true,
	"listopada": true, "listopad": true, "listopadzie": true, "grudnia": true, "grudzień": true, "grudniu": true,
	// Ukrainian: the name, the genitive a date takes ("10 жовтня"), and
	// "in" ("у вересні").
	"січень": true, "січня": true, "січні": true, "лютий": true, "лютого": true, "лютому": true,
	"березень": true, "березня": true, "березні": true, "квітень": true, "квітня": true, "квітні": true,
	"травень": true, "травня": true, "травні": true, "червень": true, "червня": true, "червні": true,
	"липень": true, "липня": true, "липні": true, "серпень": true, "серпня": true, "серпні": true,
	"вересень": true, "вересня": true, "вересні": true, "жовтень": true, "жовтня": true, "жовтні": true,
	"листопад": true, "листопада": true, "листопаді": true, "грудень": true, "грудня": true, "грудні": true,
	// The same in the Latin letters a phone without Cyrillic types ("12 bereznia", "v travni").
	"sichnia": true, "sichni": true, "liutoho": true, "liutomu": true, "bereznia": true, "berezni": true,
	"kvitnia": true, "kvitni": true, "travnia": true, "travni": true, "chervnia": true, "chervni": true,
	"lypnia": true, "lypni": true, "serpnia": true, "serpni": true, "veresnia": true, "veresni": true,
	"zhovtnia": true, "zhovtni": true, "lystopada": true, "lystopadi": true, "hrudnia": true, "hrudni": true}

// unreadMonth reports whether lw (lower case) is a month of unreadMonths,
// written with or without its accents, and with a case ending after it
// ("Ekim'de", "haziranda", "Kasım'dan": in, from).
func unreadMonth(lw string) bool {
	if unreadMonths[lw] || plainMonths[lw] {
		return true
	}
	if i := strings.IndexAny(lw, "'’"); i > 0 {
		return unreadMonth(lw[:i])
	}
	for _, end := range []string{"da", "de", "ta", "te", "dan", "den", "tan", "ten"} {
		if m, ok := strings.CutSuffix(lw, end); ok && len(m) >= 4 && (unreadMonths[m] || plainMonths[m]) {
			return true
		}
	}
	return false
}

// plainMonths are unreadMonths without their accents ("eylul", "subat").
var plainMonths = func() map[string]bool {
	m := map[string]bool{}
	for w := range unreadMonths {
		if p := plainLetters.Replace(w); p != w {
			m[p] = true
		}
	}
	return m
}()

var unreadWeekdays = map[string]bool{"lunes": true, "martes": true, "miércoles": true, "jueves": true,
	"viernes": true, "sábado": true, "domingo": true, "segunda": true, "terça": true, "quarta": true,
	"quinta": true, "sexta": true, "lunedì": true, "martedì": true, "mercoledì": true, "giovedì": true,
	"venerdì": true, "sabato": true, "domenica": true,
	// Ukrainian, with "on" ("в суботу"), and as a date's label ("12.06 (пт)").
	"понеділок": true, "вівторок": true, "середа": true, "середу": true, "четвер": true,
	"п'ятниця": true, "п'ятницю": true, "субота": true, "суботу": true, "неділя": true, "неділю": true,
	"пн": true, "вт": true, "ср": true, "чт": true, "пт": true, "сб": true, "нд": true}

// apostropheForms writes a word's apostrophe as "'": Ukrainian keyboards
// type "’" or "ʼ" in "п’ятниця".
var apostropheForms = strings.NewReplacer("’", "'", "ʼ", "'")

// unreadDay is the word for "day" before its number ("no dia 10", "el
// día 17", "il giorno 5").
var unreadDay = map[string]bool{"dia": true, "día": true, "giorno": true}

// unreadDateRe is a date in digits: "14/08", "6/4", "02/03/2026".
var unreadDateRe = lazyRegexp(`^\d{1,2}/\d{1,2}(?:/\d{2}|/\d{4})?$`)

// unreadDotDateRe is a date with dots, day first, its month in two
// digits: "14.03", "6.06", "23.11.2026" (a decimal, "3.5", is not one).
var unreadDotDateRe = lazyRegexp(`^\d{1,2}\.(?:0[1-9]|1[0-2])(?:\.\d{2}|\.\d{4})?$`)

func unreadDate(word string) bool {
	return strings.IndexByte(word, '/') > 0 && unreadDateRe.MatchString(word) ||
		strings.IndexByte(word, '.') > 0 && unreadDotDateRe.MatchString(word)
}

// currencySign reports whether tok is a currency's sign or code written
// before its amount: "R$", "€", "US$", "£".
func currencySign(tok string) bool {
	tok = strings.TrimLeft(tok, "*(")
	if tok == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(tok)
	return unicode.Is(unicode.Sc, r) && utf8.RuneCountInString(tok) <= 3
}

// unreadKeep is the score an unread sentence needs: two of a number, a
// name, or one date.
const unreadKeep = 2

// weighUnread scores a sentence of an unread turn by its shape.
func (d *distiller) weighUnread(i int, sn sentence, raw string) weighed {
	w := weighed{text: raw, chat: true}
	t := d.s.Turns[i]
	f := analyse(raw, d.names)
	f.foreign = true // quoted, never rewritten
	w.f = f
	shape := asciiDigits(raw) // "يوم ١٠/٣" is "يوم 10/3" to the shapes (digits.go)
	if sn.question && !d.germanAsksLife(raw) || asksByWord(raw) || f.words < 3 && !unreadDateIn(shape) || laughRe.MatchString(raw) || emojiRun(t.Content) && !hasDigit(t.Content) && !lifeEventJa(raw, nil) || tableRow(raw) {
		// A question, a word or two, laughter, a greeting in emoji ("Buen
		// día familia 🌞🌻"); news of a life is news whatever its emoji
		// ("合格しました！😭😭").
		return w
	}
	score, signals := d.shapeScore(i, shape)
	if hasSpaceless(raw) {
		words, chat := cjkWords(raw)
		if chat {
			return w
		}
		score += words + d.cjkRelative(&w, raw, t)
		lifeEventJa(raw, w.f.themeHits) // the fact's theme: 転職 is work, 引っ越 a place
	}
	if koreanText(raw) {
		score += koreanNews(raw, w.f.themeHits) // dates and amounts with their particles, news without a number (korean.go)
	}
	if d.germanSession() {
		before, _ := d.otherBefore(i)
		score += germanNews(raw, before, w.f.themeHits) // lower-case news without a number (germannews.go)
		if germanPromise(raw) || germanRequestRe.MatchString(raw) || listHeader(raw, t.Content) || germanToListener(raw) || germanInPassing(raw) {
			return w // "ich bring Tee mit", "Mach mir einen Lernplan", "Hier der Plan:": no fact of theirs
		}
		w.text = germanDropAfterthought(germanTrim(germanDropOtherwise(germanLabelRe.ReplaceAllString(germanLabelRe.ReplaceAllString(raw, ""), "")))) // "kurzfassung:", "übrigens", "ja,": the label goes
		// ", sonst …", "mama,", "eh", ", die ist krank" go too (germanchat.go)
	}
	keep := unreadKeep
	if d.unreadWeak[i] || hedged(raw) || callsOut(raw) || hedgedCJK(raw) {
		keep++ // "Voy a dormir hasta mayo": one function word and a month is a joke as often
	}
	if score >= keep && !d.takesNote(i, signals) {
		w.chat, w.score = false, keepScore
	}
	return w
}

// takesNote reports whether every number, month and name of a sentence of
// turn i was written by someone else in the three turns before it: "27 de
// junho, anotado", "Pix de julho feito, R$ 30,00" take note of the
// news, they are not news.
func (d *distiller) takesNote(i int, signals []string) bool {
	if len(signals) == 0 {
		return false
	}
	var before []string
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if t := d.s.Turns[k]; t.Speaker != d.s.Turns[i].Speaker || t.Role != d.s.Turns[i].Role {
			c := strings.ToLower(foldWidth(asciiDigits(t.Content)))
			for _, tok := range spacedFields(c) {
				before = append(before, strings.Trim(tok, ",.!?;:()\"'¡¿*"))
			}
			if hasSpaceless(c) {
				before = append(before, cjkShapesIn(c)...)
			}
		}
	}
	for _, sg := range signals {
		if !slices.Contains(before, sg) {
			return false
		}
	}
	return true
}

// nickname reports whether word shortens a speaker's name ("Cami" for
// Camila, "Lari" for Larissa): someone spoken to, as the name is.
func (d *distiller) nickname(word string) bool {
	k := nameKey(word)
	if utf8.RuneCountInString(k) < 3 {
		return false
	}
	for w := range d.speakerWords() {
		if len(w) > len(k) && strings.HasPrefix(w, k) {
			return true
		}
	}
	return false
}

// speakerWords are the words of the session's speakers' names.
func (d *distiller) speakerWords() map[string]bool {
	if d.speakerSet != nil {
		return d.speakerSet
	}
	d.speakerSet = map[string]bool{}
	for _, t := range d.s.Turns {
		for _, w := range strings.Fields(t.Speaker) {
			d.speakerSet[nameKey(strings.Trim(w, ".,"))] = true
		}
	}
	return d.speakerSet
}

// emojiRun reports whether content holds two emoji or more apart: chain
// greetings and blessings ("Buen día familia 🌞🌻…").
func emojiRun(content string) bool {
	n := 0
	for _, r := range content {
		if isEmoji(r) && r != 0xFE0F && r != 0x200D {
			n++
		}
	}
	return n >= 2
}

// hasDigit reports whether s holds a digit.
func hasDigit(s string) bool {
	return strings.ContainsFunc(s, unicode.IsDigit)
}

// unreadDateIn reports whether a sentence holds a date in a language read
// by shape, as a mixed-language chat line writes it: a day's number just
// before a month of unreadMonths ("niedziela 14 czerwca") or a dotted or
// slashed date ("sobota 6.06"). reldate reads neither.
func unreadDateIn(text string) bool {
	if !hasDigit(text) {
		return false
	}
	fields := strings.Fields(text)
	for k, tok := range fields {
		word := strings.Trim(tok, ",.!?;:()\"'")
		if word == "" || !unicode.IsDigit([]rune(word)[0]) {
			continue
		}
		if unreadDate(word) || unreadDate(strings.TrimRight(tok, ",!?;:)\"'")) {
			return true
		}
		if k+1 < len(fields) && unreadMonth(strings.ToLower(strings.Trim(fields[k+1], ",.!?;:()\"'"))) {
			return true
		}
	}
	return false
}
