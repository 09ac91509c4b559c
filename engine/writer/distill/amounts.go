package distill

import (
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
