package reldate

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"scriptorium/lazyre"
)

// FindAll finds what Find finds and also the coarser and forward-looking
// dates a writer keeps with a fact: "next month", "last week", "this
// year", "next Friday", "this weekend", "in two weeks", "three weeks ago",
// a weekday in a text that plans ("the coming one"), and dates written
// without their year ("on the 2nd of June", "18 April", "in September",
// "next September"), taken as the occurrence at most eight months ahead of
// t or else the last one before it.
func FindAll(text string, t time.Time) []Mention {
	ms := habitual(text, find(text, t, searchDates, false))
	if refined := find(text, t, refiningDates, false); len(refined) > 0 {
		// "Thursday the 19th" is the 19th: the weekday search reads in it
		// gives way.
		kept := ms[:0:0]
		for _, s := range ms {
			if !slices.ContainsFunc(refined, func(r Mention) bool { return r.Start <= s.Start && s.End <= r.End }) {
				kept = append(kept, s)
			}
		}
		ms = merge(kept, refined)
	}
	more := find(text, t, writerDates, false)
	more = habitual(text, more)
	if len(more) == 0 {
		return ms
	}
	return inMonthNamed(merge(ms, more))
}

// inMonthNamed puts a day of the month said alone into the month the
// same text names: "flying on the 10th of September, the wedding is on
// the 13th" is the 13th of September.
func inMonthNamed(ms []Mention) []Mention {
	for i, m := range ms {
		if !m.dayOnly {
			continue
		}
		var named *Mention
		for j := range ms {
			o := &ms[j]
			if o.dayOnly || !o.written || o.Unit != Day || len(o.Days) != 1 {
				continue
			}
			if named == nil || abs(o.Start-m.Start) < abs(named.Start-m.Start) {
				named = o
			}
		}
		if named == nil {
			continue
		}
		nd := named.Days[0]
		d := time.Date(nd.Year(), nd.Month(), m.Days[0].Day(), 0, 0, 0, 0, time.UTC)
		if d.Day() == m.Days[0].Day() {
			ms[i].Days = []time.Time{d}
		}
	}
	return ms
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// merge keeps the mentions of ms and adds those of more that overlap
// none of them, in order.
func merge(ms, more []Mention) []Mention {
	out := append([]Mention(nil), ms...)
	for _, m := range more {
		clash := false
		for _, s := range ms {
			if m.Start < s.End && s.Start < m.End {
				clash = true
				break
			}
		}
		if !clash {
			out = append(out, m)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// refiningDates are the writer's dates that hold a weekday search reads
// on its own: "Thursday the 19th", "Saturday 13th", taken as the nearest
// 19th that is a Thursday.
var refiningDates = []relativeDate{
	{re: lazyre.New(`(?i)\b` + weekdayRe + `,? (?:the )?(\d{1,2})(?:st|nd|rd|th)\b`), absolute: true, days: func(m []string, t time.Time) []time.Time {
		wd, day := weekdays[strings.ToLower(m[1])], ordinal(m[2])
		var best time.Time
		for k := -6; k <= 6; k++ {
			d := time.Date(t.Year(), t.Month()+time.Month(k), day, 0, 0, 0, 0, time.UTC)
			if d.Day() != day || d.Weekday() != wd {
				continue
			}
			if best.IsZero() || distance(d, t) < distance(best, t) {
				best = d
			}
		}
		if best.IsZero() {
			return nil
		}
		return []time.Time{best}
	}, hints: []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}},
}

// distance is how far d is from t, a day ahead counting a little less
// than a day behind (a tie goes to the future).
func distance(d, t time.Time) time.Duration {
	if d.Before(t) {
		return t.Sub(d) + time.Hour
	}
	return d.Sub(t)
}

// nearestDay is the day of the month day nearest to t: this month's, the
// last one's or the next one's ("on the 9th" said on the 11th is two days
// ago, said on the 2nd it is next week).
func nearestDay(t time.Time, day int) []time.Time {
	var best time.Time
	for k := -1; k <= 1; k++ {
		d := time.Date(t.Year(), t.Month()+time.Month(k), day, 0, 0, 0, 0, time.UTC)
		if d.Day() != day {
			continue
		}
		if best.IsZero() || distance(d, t) < distance(best, t) {
			best = d
		}
	}
	if best.IsZero() {
		return nil
	}
	return []time.Time{best}
}

// habitualRe follows a weekday that means every one of them: "on Saturday
// mornings", "on Tuesday evenings".
var habitualRe = lazyre.New(`(?i)^s?\s+(?:mornings|afternoons|evenings|nights)\b`)

// habitual drops the weekday mentions that are a habit, not a day.
func habitual(text string, ms []Mention) []Mention {
	out := ms[:0:0]
	for _, m := range ms {
		if habitualRe.MatchString(text[m.End:]) {
			continue
		}
		out = append(out, m)
	}
	return out
}

const (
	weekdayRe = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	monthRe   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	countRe   = `(a|one|two|three|four|five|six|a couple of|\d{1,2})`
)

var monthNames = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// monday returns the Monday of t's week (weeks start on Monday).
func monday(t time.Time) time.Time {
	back := (int(t.Weekday()) + 6) % 7
	return t.AddDate(0, 0, -back)
}

func firstOfMonth(t time.Time, add int) time.Time {
	return time.Date(t.Year(), t.Month()+time.Month(add), 1, 0, 0, 0, 0, time.UTC)
}

// ahead is how far into the future a date without its year may be: beyond
// it, the date is the last one before t ("I moved up in March", said in
// June, is last March).
const aheadMonths = 8

// nearestYear picks the year of a month and day said at t without a year.
func nearestYear(t time.Time, mo time.Month, day int, next bool) (time.Time, bool) {
	d := time.Date(t.Year(), mo, day, 0, 0, 0, 0, time.UTC)
	if d.Month() != mo { // 31 June and the like
		return time.Time{}, false
	}
	if next {
		// "next September": the one after the coming or current one.
		if !d.After(t) || d.Year() == t.Year() && mo == t.Month() {
			d = d.AddDate(1, 0, 0)
		}
		return d, true
	}
	if d.Before(firstOfMonth(t, 0)) {
		d = d.AddDate(1, 0, 0)
	}
	if d.After(firstOfMonth(t, aheadMonths+1).AddDate(0, 0, -1)) {
		d = d.AddDate(-1, 0, 0)
	}
	return d, true
}

func ordinal(s string) int {
	n, _ := strconv.Atoi(strings.TrimRight(strings.ToLower(s), "stndrh"))
	return n
}

// writerDates are the expressions FindAll adds to searchDates.
var writerDates = []relativeDate{
	{re: lazyre.New(`(?i)\b(next|last|this) week\b`), unit: Week, days: func(m []string, t time.Time) []time.Time {
		return []time.Time{monday(t).AddDate(0, 0, 7*map[string]int{"next": 1, "last": -1, "this": 0}[strings.ToLower(m[1])])}
	}, hints: []string{"week"}},
	{re: lazyre.New(`(?i)\b(next|this) weekend\b`), days: func(_ []string, t time.Time) []time.Time {
		sat := following(t.AddDate(0, 0, -1), time.Saturday)
		return []time.Time{sat, sat.AddDate(0, 0, 1)}
	}, hints: []string{"weekend"}},
	{re: lazyre.New(`(?i)\b(next|last|this) month\b`), unit: Month, days: func(m []string, t time.Time) []time.Time {
		return []time.Time{firstOfMonth(t, map[string]int{"next": 1, "last": -1, "this": 0}[strings.ToLower(m[1])])}
	}, hints: []string{"month"}},
	{re: lazyre.New(`(?i)\b(next|last|this) year\b`), unit: Year, days: func(m []string, t time.Time) []time.Time {
		y := t.Year() + map[string]int{"next": 1, "last": -1, "this": 0}[strings.ToLower(m[1])]
		return []time.Time{time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)}
	}, hints: []string{"year"}},
	{re: lazyre.New(`(?i)\b(?:next|this|on|coming) ` + weekdayRe + `\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{following(t, weekdays[strings.ToLower(m[1])])}
	}, hints: []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}},
	// A bare weekday after a verb or a word that looks ahead: "the freeze
	// starts Monday", "off until Friday", the coming one.
	{re: lazyre.New(`(?i)\b(?:starts?|starting|begins?|beginning|opens?|from|until|till|by|before) ` + weekdayRe + `\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{following(t, weekdays[strings.ToLower(m[1])])}
	}, hints: []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}},
	{re: lazyre.New(`(?i)\bin ` + countRe + ` (day|week|month)s?\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{shift(t, count(m[1]), m[2])}
	}, hints: []string{"in "}},
	{re: lazyre.New(`(?i)\b` + countRe + ` (week|month)s? ago\b`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{shift(t, -count(m[1]), m[2])}
	}, hints: []string{" ago"}},
	// Dates written without a year: "the 2nd of June", "18 April", "June 14th".
	{re: lazyre.New(`(?i)\b(\d{1,2}(?:st|nd|rd|th)?) (?:of )?` + monthRe + `\b(?:,? (\d{4}))?`), absolute: true, days: func(m []string, t time.Time) []time.Time {
		return dayOf(t, monthNames[strings.ToLower(m[2])], ordinal(m[1]), m[3])
	}, hints: monthHints},
	{re: lazyre.New(`(?i)\b` + monthRe + ` (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (\d{4}))?`), absolute: true, days: func(m []string, t time.Time) []time.Time {
		return dayOf(t, monthNames[strings.ToLower(m[1])], ordinal(m[2]), m[3])
	}, hints: monthHints},
	// A day of the month without its month, after a word that makes it a
	// date: "on the 9th", "from the 10th", the nearest such day.
	{re: lazyre.New(`(?i)\b(?:on|from|since|until|till|by|before|after) the (\d{1,2})(?:st|nd|rd|th)\b`), absolute: true, dayOnly: true, days: func(m []string, t time.Time) []time.Time {
		return nearestDay(t, ordinal(m[1]))
	}, hints: []string{"the "}},
	// A month alone, after a word that makes it a date ("May" alone is a verb).
	{re: lazyre.New(`(?i)\b(?:in|from|since|until|till|by|during|early|late|mid|next|last|this) ` + monthRe + `\b(?: (\d{4}))?`), unit: Month, absolute: true, days: func(m []string, t time.Time) []time.Time {
		mo := monthNames[strings.ToLower(m[1])]
		if m[2] != "" {
			y, _ := strconv.Atoi(m[2])
			return []time.Time{time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)}
		}
		lead := strings.ToLower(strings.Fields(m[0])[0])
		if lead == "last" {
			d := time.Date(t.Year(), mo, 1, 0, 0, 0, 0, time.UTC)
			if !d.Before(firstOfMonth(t, 0)) {
				d = d.AddDate(-1, 0, 0)
			}
			return []time.Time{d}
		}
		d, _ := nearestYear(t, mo, 1, lead == "next")
		return []time.Time{d}
	}, hints: monthHints},
}

var monthHints = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

func shift(t time.Time, n int, unit string) time.Time {
	switch strings.ToLower(unit) {
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "month":
		return t.AddDate(0, n, 0)
	}
	return t.AddDate(0, 0, n)
}

// dayOf resolves a day of a month, with its year when written (year) or
// the nearest one otherwise; none when the day does not exist.
func dayOf(t time.Time, mo time.Month, day int, year string) []time.Time {
	if day < 1 || day > 31 {
		return nil
	}
	if year != "" {
		y, _ := strconv.Atoi(year)
		d := time.Date(y, mo, day, 0, 0, 0, 0, time.UTC)
		if d.Month() != mo {
			return nil
		}
		return []time.Time{d}
	}
	d, ok := nearestYear(t, mo, day, false)
	if !ok {
		return nil
	}
	return []time.Time{d}
}
