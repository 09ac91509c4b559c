package distill

import "strings"

// What an owner tells an assistant about someone's body or diet comes as
// measures ("metformin 500 mg twice a day", "3 cups of chai a day"): in a
// request, a number with a dose's or a portion's unit is a fact's shape,
// as a price is in a chat (round twelve: a diet chart for a grandmother).

// measureRe is a number with a dose's, a lab value's or a portion's unit.
var measureRe = lazyRegexp(`(?i)\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|ml|iu|units?|mmol/l|mg/dl|ng/ml|cups?|spoons?|teaspoons?|tablespoons?|tablets?|kcal)\b`)

// aboutOther reports whether raw opens with "she" or "he": the request is
// about someone in the owner's care, whose measures the owner relays.
func aboutOther(raw string) bool {
	w := lowerASCII(firstWord(raw))
	return w == "she" || w == "he"
}

// measured reports whether raw, a sentence of the owner to an assistant,
// holds a measure.
func measured(raw string) bool { return hasDigit(raw) && measureRe.MatchString(raw) }

// flaggedValueRe is a lab report's line flagged out of its range
// ("Vitamin D (25-OH): 11.2 ng/mL   [Ref 30–100]  LOW"): the value the
// report is pasted for; the lines in range are its background.
var flaggedValueRe = lazyRegexp(`^\p{L}[^:\n]{0,40}:\s*\d+(?:\.\d+)?\s*\S*\s+\[?(?i:ref)[^\]\n]*\]?\s+(?:LOW|HIGH|L|H)\s*$`)

// flaggedValue reports whether raw is a lab value flagged out of range.
func flaggedValue(raw string) bool {
	return strings.IndexByte(raw, ':') > 0 && hasDigit(raw) && flaggedValueRe.MatchString(strings.TrimSpace(raw))
}
