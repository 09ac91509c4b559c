package views

import (
	"fmt"
	"regexp"
	"slices"
)

// footnoteRef matches a footnote reference such as [^e-1175dea39c]. A
// block's text holds references only; the definitions are listed apart.
var footnoteRef = regexp.MustCompile(`\[\^([^\]\s]+)\]`)

// cutFootnoteRef matches a footnote reference cut short at the end of a
// snippet.
var cutFootnoteRef = regexp.MustCompile(`\[(\^[^\]\s]*)?$`)

// footnoteOrder numbers the footnotes of text: first labels, in the order
// given (the footnote list under a block), then any other label text
// refers to, in order of appearance. Footnote n is order[n-1].
func footnoteOrder(text string, labels []string) []string {
	order := slices.Clone(labels)
	for _, m := range footnoteRef.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(order, m[1]) {
			order = append(order, m[1])
		}
	}
	return order
}

// markFootnotes replaces each footnote reference by its number, "[1]", so
// the text reads without ten-character ids in it. For markdown the
// brackets are escaped: "[1](x)" would otherwise become a link.
func markFootnotes(text string, order []string, markdown bool) string {
	return footnoteRef.ReplaceAllStringFunc(text, func(ref string) string {
		n := slices.Index(order, ref[2:len(ref)-1]) + 1
		if markdown {
			return fmt.Sprintf(`\[%d\]`, n)
		}
		return fmt.Sprintf("[%d]", n)
	})
}

// footnoteLegend says which footnote each number stands for, for text
// shown without its footnote list: "[1] e-1175dea39c", "[2] e-2a2b3c4d5e".
func footnoteLegend(order []string) []string {
	parts := make([]string, len(order))
	for i, l := range order {
		parts[i] = fmt.Sprintf("[%d] %s", i+1, Visible(l))
	}
	return parts
}

// stripFootnotes drops footnote references, for one-line snippets shown
// without any footnote list; cut says the text was cut short, so a
// reference cut in half at its end goes too.
func stripFootnotes(text string, cut bool) string {
	text = footnoteRef.ReplaceAllString(text, "")
	if cut {
		text = cutFootnoteRef.ReplaceAllString(text, "")
	}
	return text
}
