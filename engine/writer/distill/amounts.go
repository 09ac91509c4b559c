package distill

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Amounts as Indonesian, Malay and South Asian chats write them: a
// currency's letters before the number, spaced or glued ("Rp 238.450.000",
// "Rp1.850.000/bulan", "RM 450", "Rs. 1,200"), and the words that multiply
// it ("35rb", "2,1 juta", "1,2 M" is left out: "M" is a size as often).

// letterCurrencies are the currencies written in letters before their
// amount.
var letterCurrencies = map[string]bool{"rp": true, "rp.": true, "idr": true, "rm": true, "myr": true, "rs": true,
	"rs.": true, "inr": true, "usd": true, "eur": true, "sgd": true}

// letterCurrency reports whether tok is a currency in letters: "Rp",
// "IDR", "Rs.". Its capital is required: "rm" is a command.
func letterCurrency(tok string) bool {
	tok = strings.TrimLeft(tok, "*(")
	r, _ := utf8.DecodeRuneInString(tok)
	return unicode.IsUpper(r) && letterCurrencies[strings.ToLower(tok)]
}

// gluedCurrency reports whether word opens with a currency in letters and
// goes on with the amount's digits: "Rp1.850.000/bulan", "RM450".
func gluedCurrency(word string) bool {
	i := strings.IndexFunc(word, unicode.IsDigit)
	return i > 0 && letterCurrency(strings.TrimSuffix(word[:i], " "))
}

func init() {
	// "35rb", "500 ribu", "2,1 juta", "4jt", "1,5 miliar": Indonesian's
	// thousand, million and billion after a number.
	for _, w := range []string{"rb", "ribu", "jt", "juta", "miliar", "milyar"} {
		magnitudes[w] = true
	}
}

// groupedRe is a number written in groups of thousands: "22,500",
// "1,250,000" ("٢٢٬٠٠٠" once in ASCII digits).
var groupedRe = lazyRegexp(`^\d{1,3}(?:,\d{3})+$`)

// groupedAmount reports whether word is a number in groups of thousands:
// a price, a rent, a salary as a chat writes them, in any language, with
// or without its currency ("el 22,500 kan bel garage").
func groupedAmount(word string) bool {
	return strings.IndexByte(word, ',') > 0 && groupedRe.MatchString(word)
}

// dayRange reports whether word is a span of days of a month: "23–25",
// "3-7", rising, from 1 to 31. A score ("2-1", "1-1") does not rise as
// often as it does; "0-3" is no day.
func dayRange(word string) bool {
	a, b, ok := strings.Cut(strings.Replace(word, "–", "-", 1), "-")
	if !ok || len(a) > 2 || len(b) > 2 {
		return false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return err1 == nil && err2 == nil && x >= 1 && x < y && y <= 31
}
