package distill

// Months and weekdays of the languages chats mix with English or write in
// Latin letters without marks (round twelve: Hinglish, where a date is
// "12 June" inside a Hindi sentence). A turn read by shape counts them as
// it counts "14 de agosto": a month is a fact's shape in any language.

// englishMonths count in a turn read by shape only capitalised ("shaadi
// December mein", "9 Dec ko"): lower case "may" is Tagalog's "there is",
// "march" a verb.
var englishMonths = map[string]bool{"january": true, "february": true, "march": true, "april": true,
	"may": true, "june": true, "july": true, "august": true, "september": true, "october": true,
	"november": true, "december": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true,
	"jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true}

// capitalMonth reports whether word is an English month written as a
// month is, with its capital.
func capitalMonth(word string) bool {
	return capitalised(word) && englishMonths[lowerASCII(word)]
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func init() {
	for _, m := range []string{
		// Hindi in Devanagari, both spellings of each ("फ़रवरी", "फरवरी").
		"जनवरी", "फ़रवरी", "फरवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "सितम्बर",
		"अक्टूबर", "अक्तूबर", "नवंबर", "नवम्बर", "दिसंबर", "दिसम्बर",
		// Indonesian and Malay (those unlike English's).
		"januari", "februari", "maret", "mei", "juni", "juli", "agustus", "oktober", "desember", "ogos", "disember",
		// Swahili.
		"machi", "aprili", "julai", "agosti", "septemba", "oktoba", "novemba", "desemba",
		// Tagalog (the others are Spanish's, above).
		"pebrero", "marso", "hunyo", "hulyo", "setyembre", "oktubre", "nobyembre", "disyembre"} {
		unreadMonths[m] = true
	}
	for _, w := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"सोमवार", "मंगलवार", "बुधवार", "गुरुवार", "शुक्रवार", "शनिवार", "रविवार"} {
		unreadWeekdays[w] = true
	}
}
