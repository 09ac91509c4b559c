package distill

// Norwegian: a family or a school writes in Norwegian (bokmål, with some
// nynorsk: "sjukehus"), and an English reading of it is wrong as well as
// empty ("i jula" is "at Christmas", not "I"). Norwegian runs words into
// compounds ("hofteoperasjonen", "70-årsdagen"), so a theme stem counts
// inside a longer word too. What it keeps is quoted (language.go).

// norwegian is Norwegian as the distiller reads it.
var norwegian = newLanguage(language{name: "Norwegian", words: norwegianWords,
	first: norwegianFirst, subject: norwegianSubject, second: norwegianSecond, owned: norwegianOwned,
	chatOpeners: norwegianChatOpeners, nearFuture: norwegianNearFutureRe, date: norwegianDateRe,
	compoundStrong: []string{"operasjon", "kreft", "diabetes", "gravid", "forlov", "pensjonist"}},
	norwegianThemeWords, norwegianCompounds, norwegianStrong, norwegianDecision, norwegianPlan, norwegianLife)

// norwegianWords are Norwegian function words (and common words) that
// English does not use; "i", "for", "men", "to" and "under" are left out,
// being English too, and so are "du", "en", "et", "sa" and "da", being
// French (or Spanish, Portuguese) too.
var norwegianWords = map[string]bool{"jeg": true, "han": true, "hun": true, "vi": true, "dere": true,
	"det": true, "er": true, "og": true, "ikke": true, "på": true, "til": true, "med": true, "som": true,
	"har": true, "var": true, "å": true, "så": true, "om": true, "av": true, "fra": true, "kan": true,
	"skal": true, "vil": true, "må": true, "meg": true, "deg": true, "seg": true, "oss": true, "min": true,
	"mitt": true, "mine": true, "din": true, "ditt": true, "dine": true, "hans": true, "hennes": true,
	"vår": true, "vårt": true, "våre": true, "sin": true, "sitt": true, "sine": true, "noe": true, "nå": true,
	"bare": true, "også": true, "etter": true, "før": true, "når": true, "hvor": true, "hva": true,
	"hvem": true, "hvorfor": true, "hvordan": true, "ja": true, "nei": true, "takk": true, "godt": true,
	"fint": true, "litt": true, "mye": true, "veldig": true, "jo": true, "der": true, "ble": true,
	"blir": true, "fått": true, "gikk": true, "den": true, "hei": true, "måte": true, "nytt": true, "fyller": true, "fest": true,
	"kveld": true, "morgen": true, "mandag": true, "tirsdag": true, "onsdag": true, "torsdag": true,
	"fredag": true, "lørdag": true, "søndag": true, "dette": true, "disse": true, "ei": true,
	"dit": true, "sier": true, "ingen": true,
	"alle": true, "igjen": true, "enda": true, "tror": true, "hadde": true, "gjør": true,
	"gjorde": true, "kommer": true, "går": true, "uke": true, "uker": true, "dager": true, "år": true}

// norwegianThemeWords file a Norwegian sentence under a theme as whole
// words; norwegianCompounds also inside a compound.
var norwegianThemeWords = map[string][]string{
	ThemeWork: {"jobb", "jobben", "jobber", "arbeid", "jobbe", "kontor", "kontoret", "sjef", "sjefen", "kollega",
		"kolleger", "lønn", "pensjon", "skole", "skolen", "lærer", "læreren", "student", "stilling", "turnus",
		"kontaktlærer", "vikar", "permisjon", "fødselspermisjon", "oppsagt", "sluttet"},
	ThemeFamily: {"mamma", "pappa", "mor", "far", "bror", "søster", "sønn", "datter", "barn", "barna",
		"barnebarn", "kone", "mann", "mannen", "kjæreste", "bryllup", "bursdag", "familie", "familien", "onkel",
		"tante", "fetter", "kusine", "besteforeldre", "farmor", "farfar", "mormor", "morfar", "jula", "jul"},
	ThemePlaces: {"hytta", "hytte", "hus", "huset", "leilighet", "leiligheten", "bor", "bodde", "flytter",
		"flyttet", "flytte", "hjemme", "reise", "reiser", "ferie", "ferien", "sjukehus", "sykehus"},
	ThemeHealth: {"lege", "legen", "operasjon", "operasjonen", "hofte", "hofta", "kne", "kneet", "skulder",
		"krykke", "krykker", "smerter", "syk", "allergi", "allergisk", "diabetes", "kreft", "gravid", "medisin",
		"fysioterapeut", "fysioterapeuten", "tannlege", "morfin", "vondt"},
	ThemePossessions: {"bil", "bilen", "bilene", "båt", "båten", "sykkel", "hund", "hunden", "katt", "katten",
		"kjøpt", "kjøpe", "kjøper", "selge", "selger", "solgt", "ekkolodd", "volvoen", "bilde"},
	ThemeHabits: {"trene", "trener", "trening", "hver dag", "hver uke", "seile", "seiling", "fiske", "kor",
		"synge", "løpe", "løper", "kjøre bil", "kjører", "kjøre", "ski", "strikke", "turen"},
}

// norwegianCompounds are the theme stems counted inside a compound:
// "hofteoperasjonen", "70-årsdagen", "fødselspermisjon".
var norwegianCompounds = map[string][]string{
	ThemeHealth: {"operasjon", "sykehus", "sjukehus", "fysioterap", "hofte", "krykke", "allergi", "medisin",
		"tannlege", "ventelist"},
	ThemeWork:   {"jobb", "arbeid", "kontor", "stilling", "pensjon", "permisjon", "lærer"},
	ThemeFamily: {"bursdag", "årsdag", "bryllup", "familie", "barnebarn"},
	ThemePlaces: {"leilighet", "hytte", "hytta"},
}

// norwegianStrong, norwegianDecision, norwegianPlan and norwegianLife are
// the Norwegian counterparts of strongWords, decisionWords, planWords and
// lifeVerbs.
var (
	norwegianStrong   = []string{"gravid", "kreft", "diabetes", "gift", "forlovet", "død", "døde", "pensjonert", "allergisk"}
	norwegianDecision = []string{"bestemt", "besluttet", "valgt", "vi har bestemt", "har bestemt"}
	norwegianPlan     = []string{"skal", "neste", "snart", "kommer", "reiser", "flyttet til"}
	norwegianLife     = []string{"kjøpt", "solgt", "selger", "flyttet", "begynt", "sluttet", "slutter", "fått", "startet", "vunnet", "født"}
)

// norwegianFirst are the first-person words, norwegianSubject those that
// make the speaker the subject, norwegianSecond the listener as a
// subject, norwegianOwned "my" before a theme word ("min hofte").
var (
	norwegianFirst   = map[string]bool{"jeg": true, "meg": true, "min": true, "mitt": true, "mine": true, "vi": true, "oss": true, "vår": true, "vårt": true, "våre": true}
	norwegianSubject = map[string]bool{"jeg": true, "vi": true}
	norwegianSecond  = map[string]bool{"du": true, "dere": true}
	norwegianOwned   = map[string]bool{"min": true, "mitt": true, "mine": true}
)

// norwegianChatOpeners open a Norwegian reaction, greeting or thanks.
var norwegianChatOpeners = []string{"hei", "takk", "tusen takk", "gratulerer", "god morgen", "godt nytt", "god jul",
	"ha det", "klem", "ja ja", "ja takk", "å,", "å ", "så fin", "så flink", "send bilde", "det hadde vært",
	"ikke si", "herlig", "kjempe", "fantastisk", "endelig", "stakkars", "lykke til", "nydelig", "du er", "dere er",
	"det er lov", "det går", "det stemmer", "godt for", "mine lepper"}

// norwegianNearFutureRe is the near future of the moment ("jeg sjekker",
// "jeg ordner det"): undated, a promise in passing.
var norwegianNearFutureRe = lazyRegexp(`\b(?:jeg|vi) (?:sjekker|ordner|spør|sender|ringer|tar)\b`)

// norwegianDateRe is a date written in Norwegian: "16. mars", "i juni",
// "fra 1. april", "lørdag", "neste uke". reldate reads English only.
var norwegianDateRe = lazyRegexp(`(?i)\b\d{1,2}\. ?(?:januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember)\b|\b(?:i|fra|til|før|etter|innen|siden|neste) (?:januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember)\b|\b(?:mandag|tirsdag|onsdag|torsdag|fredag|lørdag|søndag)(?:en)?\b|\b(?:neste|forrige) (?:uke|måned|år|helg)\b`)
