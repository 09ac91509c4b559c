// Package reldate resolves the dates a text points at against the time it
// was said: "yesterday", "two days ago", "last weekend", "on Monday", 昨天
// (Find, the set search indexes), and for the writer also "next month",
// "last week", "next Friday", "in two weeks", "on the 2nd of June" and "in
// September" (FindAll). It is pure: no clock, no I/O; times are taken in
// UTC, as the index and the archive take them.
package reldate

import (
	"strconv"
	"strings"
	"time"

	"scriptorium/lazyre"
)

// Unit is how much time a mention covers.
type Unit int

// The units a mention can cover.
const (
	Day   Unit = iota // one or more whole days (Days)
	Week              // the week starting on Days[0], a Monday
	Month             // the month of Days[0]
	Year              // the year of Days[0]
)

// Mention is a date found in a text: where it is (byte offsets), the days
// it points at and how much time it covers. Relative is false for a date
// written out without its year ("on the 2nd of June"): the text names it
// already, only the year was resolved.
type Mention struct {
	Start, End int
	Days       []time.Time
	Unit       Unit
	Relative   bool
	// written marks a date written with its month ("the 2nd of June"),
	// dayOnly one written without ("on the 9th"), for FindAll.
	written, dayOnly bool
}

// Label is the mention's resolved date as text: "2025-03-04" (several days
// joined with ", "), "week of 2025-03-03", "2025-03" or "2025".
func (m Mention) Label() string {
	if len(m.Days) == 0 {
		return ""
	}
	switch m.Unit {
	case Week:
		return "week of " + m.Days[0].Format(time.DateOnly)
	case Month:
		return m.Days[0].Format("2006-01")
	case Year:
		return m.Days[0].Format("2006")
	}
	days := make([]string, len(m.Days))
	for i, d := range m.Days {
		days[i] = d.Format(time.DateOnly)
	}
	return strings.Join(days, ", ")
}

// Date is the mention's date for a record: YYYY-MM-DD for a day (the first
// one) or a week (its Monday), YYYY-MM for a month, YYYY for a year.
func (m Mention) Date() string {
	if len(m.Days) == 0 {
		return ""
	}
	switch m.Unit {
	case Month:
		return m.Days[0].Format("2006-01")
	case Year:
		return m.Days[0].Format("2006")
	}
	return m.Days[0].Format(time.DateOnly)
}

// relativeDate is one expression and the days it points at, given the
// time it was said.
type relativeDate struct {
	re      *lazyre.RE
	days    func(m []string, t time.Time) []time.Time
	unit    Unit
	weekday bool // ambiguous between the last and the next one
	// hints are literals one of which every match contains (ASCII ones
	// in lower case), so most texts skip the expression (see mayMatch).
	hints []string
	// absolute marks a date written out without its year.
	absolute bool
	// dayOnly marks a day of the month said without its month ("on the
	// 9th"): FindAll puts it in the month its text names, if any.
	dayOnly bool
}

// planning marks a text that talks about the future (a question, "will",
// "next", "starts"): its bare weekdays are left unresolved by Find.
var planning = lazyre.New(`(?i)\?|\b(?:will|going to|next|tomorrow|starts?|let's|shall)\b|'ll\b`)

var numberWords = map[string]int{"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

// Previous returns the last day before t that falls on wd.
func Previous(t time.Time, wd time.Weekday) time.Time {
	back := (int(t.Weekday()) - int(wd) + 7) % 7
	if back == 0 {
		back = 7
	}
	return t.AddDate(0, 0, -back)
}

// following returns the first day after t that falls on wd.
func following(t time.Time, wd time.Weekday) time.Time {
	ahead := (int(wd) - int(t.Weekday()) + 7) % 7
	if ahead == 0 {
		ahead = 7
	}
	return t.AddDate(0, 0, ahead)
}

func offset(days int) func([]string, time.Time) []time.Time {
	return func(_ []string, t time.Time) []time.Time { return []time.Time{t.AddDate(0, 0, days)} }
}

func count(s string) int {
	if n, ok := numberWords[strings.ToLower(s)]; ok {
		return n
	}
	n, _ := strconv.Atoi(s)
	return n
}

// searchDates are the expressions search resolves (Find), matched
// case-insensitively, longest phrases first.
var searchDates = []relativeDate{
	{re: lazyre.New(`(?i)\b(two|three|four|five|six|a couple of|\d) days ago\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{t.AddDate(0, 0, -count(m[1]))}
	}, hints: []string{"days ago"}},
	{re: lazyre.New(`(?i)\blast weekend\b`), days: func(_ []string, t time.Time) []time.Time {
		// On a Saturday the one before is last weekend's; on a Sunday the
		// day before is this weekend's, so last weekend's is a week earlier.
		sat := Previous(t, time.Saturday)
		if t.Weekday() == time.Sunday {
			sat = Previous(sat, time.Saturday)
		}
		return []time.Time{sat, sat.AddDate(0, 0, 1)}
	}, hints: []string{"last weekend"}},
	{re: lazyre.New(`(?i)\b(?:(?:on|last) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(monday|tuesday|wednesday|thursday|friday|saturday|sunday)'s)\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{Previous(t, weekdays[strings.ToLower(m[1]+m[2])])}
	}, weekday: true, hints: []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}},
	{re: lazyre.New(`(?i)\b(?:yesterday|last night)\b`), days: offset(-1), hints: []string{"yesterday", "last night"}},
	{re: lazyre.New(`(?i)\b(?:today|tonight|this (?:morning|afternoon|evening))\b`), days: offset(0), hints: []string{"today", "tonight", "this "}},
	{re: lazyre.New(`(?i)\btomorrow\b`), days: offset(1), hints: []string{"tomorrow"}},
	{re: lazyre.New(`前天`), days: offset(-2), hints: []string{"前天"}},
	{re: lazyre.New(`昨天|昨晚`), days: offset(-1), hints: []string{"昨天", "昨晚"}},
	{re: lazyre.New(`今天|今晚|今早`), days: offset(0), hints: []string{"今天", "今晚", "今早"}},
	{re: lazyre.New(`后天`), days: offset(2), hints: []string{"后天"}},
	{re: lazyre.New(`明天`), days: offset(1), hints: []string{"明天"}},
}

// mayMatch reports whether rd can match a text whose ASCII letters are
// lowered in lower. Case-insensitive expressions also match the two
// non-ASCII runes that fold to ASCII letters (K, the Kelvin sign, to k; ſ
// to s): a text with either is tried with every expression (tryAll).
func (rd *relativeDate) mayMatch(lower string, tryAll bool) bool {
	if tryAll {
		return true
	}
	for _, h := range rd.hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// lowerASCII lowers the ASCII letters of s and leaves every other byte.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Find finds the relative dates of text said at t that search indexes, in
// order, not overlapping. A weekday without "next" is taken as the last one
// before t: people report what happened more often than they plan in a
// memory, and a weekday in a text that plans is left alone.
func Find(text string, t time.Time) []Mention {
	return find(text, t, searchDates, false)
}

// find runs the expressions of sets in order (earlier ones win an overlap);
// tryAll runs every expression, hints or not (tests compare the two).
func find(text string, t time.Time, set []relativeDate, tryAll bool) []Mention {
	if t.IsZero() {
		return nil
	}
	t = t.UTC().Truncate(24 * time.Hour)
	lower := lowerASCII(text)
	tryAll = tryAll || strings.ContainsRune(text, '\u212a') || strings.ContainsRune(text, '\u017f')
	var taken []bool
	var out []Mention
	plans := -1 // planning.MatchString(text), computed once when needed
	for i := range set {
		rd := &set[i]
		if !rd.mayMatch(lower, tryAll) {
			continue
		}
		if taken == nil {
			taken = make([]bool, len(text))
		}
		for _, loc := range rd.re.FindAllStringSubmatchIndex(text, -1) {
			if taken[loc[0]] || taken[loc[1]-1] {
				continue
			}
			if !rd.absolute && strings.HasPrefix(strings.ToLower(text[max(0, loc[0]-5):loc[0]]), "next ") {
				continue
			}
			if rd.weekday {
				if plans < 0 {
					plans = 0
					if planning.MatchString(text) {
						plans = 1
					}
				}
				if plans == 1 {
					// "team lunch on Friday?" is the coming Friday: a weekday is
					// only resolved in a text that reports rather than plans.
					continue
				}
			}
			var groups []string
			for i := 0; i+1 < len(loc); i += 2 {
				if loc[i] < 0 {
					groups = append(groups, "")
					continue
				}
				groups = append(groups, text[loc[i]:loc[i+1]])
			}
			days := rd.days(groups, t)
			if len(days) == 0 {
				continue
			}
			for i := loc[0]; i < loc[1]; i++ {
				taken[i] = true
			}
			out = append(out, Mention{Start: loc[0], End: loc[1], Days: days, Unit: rd.unit, Relative: !rd.absolute,
				written: rd.absolute && !rd.dayOnly, dayOnly: rd.dayOnly})
		}
	}
	// Sort by position (few mentions: insertion sort).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Annotate writes the resolved date after each relative date of text said
// at t: "yesterday" becomes "yesterday (2026-03-04)". It annotates what Find
// finds.
func Annotate(text string, t time.Time) string {
	return annotate(text, Find(text, t))
}

// AnnotateAll is Annotate for what FindAll finds; dates written out
// without their year are left as written.
func AnnotateAll(text string, t time.Time) string {
	return annotate(text, FindAll(text, t))
}

// AnnotateMentions is AnnotateAll given the mentions FindAll found in text.
func AnnotateMentions(text string, ms []Mention) string { return annotate(text, ms) }

func annotate(text string, ms []Mention) string {
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if !m.Relative {
			continue
		}
		end := m.End
		// "tomorrow's plan" is annotated after the possessive.
		for _, poss := range []string{"'s", "’s"} {
			if strings.HasPrefix(text[end:], poss) {
				end += len(poss)
			}
		}
		b.WriteString(text[last:end])
		b.WriteString(" (")
		b.WriteString(m.Label())
		b.WriteString(")")
		last = end
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
