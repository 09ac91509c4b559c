package distill

import (
	"strings"
	"time"

	"scriptorium/engine/index/reldate"
)

// Dates and amounts as Japanese and Chinese write them, a fact's shape
// like "14/08" or "R$ 290,00" in a Latin-script chat: "5月30日",
// "2026年7月", "2026/02/11", an era year ("令和8年11月22日"), "4月から",
// "128,000円", "62万円", "¥8,000", "3千元". The shapes read them on text
// whose full-width digits are folded to ASCII (foldWidth, asciiDigits).

// cjkShapeRe finds them; the groups say which: 1 a date, 2 a month, 3 an
// amount.
var cjkShapeRe = lazyRegexp(`((?:令和|平成|昭和)\s*(?:\d{1,2}|元)\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?|\d{4}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)?|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{4}/\d{1,2}/\d{1,2}|\d{4}-\d{2}-\d{2})` +
	`|(\d{1,2}\s*月)` +
	`|([¥￥]\s*\d[\d,.]*(?:\s*[万千億])?|\d[\d,.]*\s*(?:[万千億]\s*)?(?:円|元|块|塊|ドル|บาท|ウォン|원)|\d[\d,.]*\s*万)`)

// cjkShape is a date's or an amount's text as takesNote compares it:
// "10月" is not the "10" of "9月10日".
func cjkShape(m string) string {
	return strings.ToLower(strings.Join(strings.Fields(m), ""))
}

// cjkShapesIn are the shapes of text (folded), as cjkShape writes them.
func cjkShapesIn(text string) []string {
	var out []string
	for _, m := range cjkShapeRe.FindAllString(text, -1) {
		out = append(out, cjkShape(m))
	}
	return out
}

// cjkShapes scores the dates, months and amounts of text (folded): 2
// each, as shapeScore scores a date or a price; rest is text with them
// cut out, for the rest of the shapes, and signals their digits, for
// takesNote (cjkShape).
func cjkShapes(text string) (score int, rest string, signals []string) {
	if !hasDigit(text) {
		return 0, text, nil
	}
	ms := cjkShapeRe.FindAllStringSubmatchIndex(text, -1)
	if ms == nil {
		return 0, text, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		score += 2
		b.WriteString(text[last:m[0]])
		b.WriteByte(' ')
		last = m[1]
		signals = append(signals, cjkShape(text[m[0]:m[1]]))
	}
	b.WriteString(text[last:])
	return score, b.String(), signals
}

// cjkRelative scores the relative dates of a Japanese or Chinese
// sentence of turn t (明日, 来週の木曜, 下个月), which reldate resolves: 1
// for one other than today (今日 is how the day is), as the English
// rules count one: "昨日おつかれ！" is thanks, a date needs another
// signal to be news. They are kept
// on w, for the fact's date and its annotation.
func (d *distiller) cjkRelative(w *weighed, raw string, t Turn) int {
	ms := dateMentions(raw, t.Time)
	if len(ms) == 0 {
		return 0
	}
	w.ms = ms
	day := t.Time.UTC().Truncate(24 * time.Hour)
	for _, m := range ms {
		if m.Unit != reldate.Day || !m.Days[0].Equal(day) {
			return 1
		}
	}
	return 0
}
