package index

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine/index/reldate"
	"scriptorium/lazyre"
)

// Dates make time searchable. A document's date terms are its own day and
// every day its text points at: an ISO date written in it, or a relative
// date ("yesterday", "two days ago", "on Monday", "last weekend", 昨天)
// resolved against the document's own time. A question's date ("on March
// 4", "4 June 2025", "5月12日", "in March") becomes the same terms, so a
// record that says "yesterday" on March 5 answers "what happened on March
// 4". Times are taken in UTC: the index has no notion of the owner's zone.

// Date term prefixes: a whole day, a day of any year, a month of a year,
// a month of any year.
const (
	dayTerm      = "d"  // d2025-03-04
	monthDayTerm = "md" // md03-04
	monthTerm    = "m"  // m2025-03
	anyMonthTerm = "mo" // mo03
)

// dayTerms are the terms one day contributes.
func dayTerms(t time.Time) []string {
	t = t.UTC()
	return []string{
		dayTerm + t.Format(time.DateOnly),
		monthDayTerm + t.Format("01-02"),
		monthTerm + t.Format("2006-01"),
		anyMonthTerm + t.Format("01"),
	}
}

// DateMention is a relative date found in a text: where it is (byte
// offsets) and the days it points at.
type DateMention = reldate.Mention

// RelativeDates finds the relative dates of text said at t, in order, not
// overlapping (reldate.Find: the resolver is shared with the writer).
func RelativeDates(text string, t time.Time) []DateMention {
	return reldate.Find(text, t)
}

// AnnotateDates writes the day after each relative date of text said at
// t: "yesterday" becomes "yesterday (2026-03-04)". The offline writer uses
// it so a distilled block keeps what the words meant on the day.
func AnnotateDates(text string, t time.Time) string {
	return reldate.Annotate(text, t)
}

var isoDate = lazyre.New(`\b(\d{4})-(\d{2})-(\d{2})\b`)

// isoDateIn returns the first 16 ISO dates of text; one needs a "-".
func isoDateIn(text string) []string {
	if !strings.Contains(text, "-") {
		return nil
	}
	return isoDate.FindAllString(text, 16)
}

// docDateTerms are the date terms of a document: its own day, the ISO
// dates written in its text and its resolved relative dates.
func docDateTerms(text string, t time.Time) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d time.Time) {
		for _, term := range dayTerms(d) {
			if !seen[term] {
				seen[term] = true
				out = append(out, term)
			}
		}
	}
	if !t.IsZero() {
		add(t)
	}
	for _, m := range isoDateIn(text) {
		if d, err := time.Parse(time.DateOnly, m); err == nil {
			add(d)
		}
	}
	for _, m := range RelativeDates(text, t) {
		for _, d := range m.Days {
			add(d)
		}
	}
	return out
}

var monthNames = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

const monthRe = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`

var (
	qISO       = lazyre.New(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	qMonthDay  = lazyre.New(`(?i)\b` + monthRe + `\.? (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (\d{4}))?`)
	qDayMonth  = lazyre.New(`(?i)\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthRe + `\b(?:,? (\d{4}))?`)
	qMonthOnly = lazyre.New(`(?i)\b(?:in|during|early|late|mid) ` + monthRe + `\b(?: (\d{4}))?`)
	qZhDate    = lazyre.New(`(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]`)
)

// QueryDateTerms are the date terms a question names. "May" alone is too
// often the verb to count; a month counts after "in", "during" and the
// like, or beside a day.
func QueryDateTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(term string) {
		if !seen[term] {
			seen[term] = true
			out = append(out, term)
		}
	}
	day := func(y, m, d int) {
		if m < 1 || m > 12 || d < 1 || d > 31 {
			return
		}
		if y > 0 {
			add(fmt.Sprintf("%s%04d-%02d-%02d", dayTerm, y, m, d))
			return
		}
		add(fmt.Sprintf("%s%02d-%02d", monthDayTerm, m, d))
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, m := range qISO.FindAllStringSubmatch(q, -1) {
		day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}
	for _, m := range qMonthDay.FindAllStringSubmatch(q, -1) {
		day(atoi(m[3]), monthNames[strings.ToLower(m[1])], atoi(m[2]))
	}
	for _, m := range qDayMonth.FindAllStringSubmatch(q, -1) {
		day(atoi(m[3]), monthNames[strings.ToLower(m[2])], atoi(m[1]))
	}
	for _, m := range qZhDate.FindAllStringSubmatch(q, -1) {
		day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}
	if len(out) == 0 {
		for _, m := range qMonthOnly.FindAllStringSubmatch(q, -1) {
			mo := monthNames[strings.ToLower(m[1])]
			if y := atoi(m[2]); y > 0 {
				add(fmt.Sprintf("%s%04d-%02d", monthTerm, y, mo))
			} else {
				add(fmt.Sprintf("%s%02d", anyMonthTerm, mo))
			}
		}
	}
	return out
}

// qRelative is a question about what happened next to another event: "the
// week after the gym reopened", "the evening before the Piranesi meeting".
var qRelative = lazyre.New(`(?i)\bthe (day|morning|evening|night|week|weekend) (after|before) (.+?)[?.!]*$`)

// relativeWindow splits a question about the days next to an event into
// the event's words and a function giving those days from the event's
// day, or returns ok=false.
func relativeWindow(q string) (event string, days func(t time.Time) []time.Time, ok bool) {
	m := qRelative.FindStringSubmatch(q)
	if m == nil {
		return "", nil, false
	}
	unit, dir, event := strings.ToLower(m[1]), strings.ToLower(m[2]), m[3]
	sign := 1
	if dir == "before" {
		sign = -1
	}
	days = func(t time.Time) []time.Time {
		t = t.UTC().Truncate(24 * time.Hour)
		switch unit {
		case "week":
			out := make([]time.Time, 7)
			for i := range out {
				out[i] = t.AddDate(0, 0, sign*(i+1))
			}
			return out
		case "weekend":
			var sat time.Time
			if sign > 0 {
				sat = t.AddDate(0, 0, 1)
				for sat.Weekday() != time.Saturday {
					sat = sat.AddDate(0, 0, 1)
				}
			} else {
				sat = reldate.Previous(t, time.Saturday)
			}
			return []time.Time{sat, sat.AddDate(0, 0, 1)}
		case "evening", "night":
			if sign < 0 {
				return []time.Time{t.AddDate(0, 0, -1)}
			}
			return []time.Time{t, t.AddDate(0, 0, 1)}
		}
		return []time.Time{t.AddDate(0, 0, sign)} // day, morning
	}
	return event, days, true
}
