package reldate

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// "last weekend" said at the weekend: on a Saturday it is the weekend
// before; on a Sunday too (not the one that is ending).
func TestLastWeekend_AtTheWeekend(t *testing.T) {
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC), "last weekend (2025-06-07, 2025-06-08)"}, // a Saturday
		{time.Date(2025, 6, 15, 10, 0, 0, 0, time.UTC), "last weekend (2025-06-07, 2025-06-08)"}, // a Sunday
		{time.Date(2025, 6, 16, 10, 0, 0, 0, time.UTC), "last weekend (2025-06-14, 2025-06-15)"}, // a Monday
	} {
		if got := Annotate("last weekend", tc.at); got != tc.want {
			t.Errorf("on %s: %q, want %q", tc.at.Weekday(), got, tc.want)
		}
	}
}

func TestAnnotate_SearchSet(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct{ text, want string }{
		{"yesterday I fixed it", "yesterday (2025-10-14) I fixed it"},
		{"two days ago we climbed", "two days ago (2025-10-13) we climbed"},
		{"Monday's fire drill took forever", "Monday's (2025-10-13) fire drill took forever"},
		{"they stayed with us last weekend", "they stayed with us last weekend (2025-10-11, 2025-10-12)"},
		{"first frost last night", "first frost last night (2025-10-14)"},
		{"昨天我们去了", "昨天 (2025-10-14)我们去了"},
		{"team lunch on Friday?", "team lunch on Friday?"},
		{"next Monday we ship", "next Monday we ship"},
		{"next month we move", "next month we move"},
		{"no dates here", "no dates here"},
	} {
		if got := Annotate(tc.text, at); got != tc.want {
			t.Errorf("Annotate(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestAnnotateAll_WriterSet(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct{ text, want string }{
		{"yesterday I fixed it", "yesterday (2025-10-14) I fixed it"},
		{"next month we move", "next month (2025-11) we move"},
		{"we moved last month", "we moved last month (2025-09)"},
		{"busy all this month", "busy all this month (2025-10)"},
		{"next week is half term", "next week (week of 2025-10-20) is half term"},
		{"last week was rough", "last week (week of 2025-10-06) was rough"},
		{"next year we marry", "next year (2026) we marry"},
		{"next Monday we ship", "next Monday (2025-10-20) we ship"},
		{"team lunch on Friday?", "team lunch on Friday (2025-10-17)?"},
		{"I fell on Friday", "I fell on Friday (2025-10-10)"},
		{"the freeze starts Monday", "the freeze starts Monday (2025-10-20)"},
		{"off until Friday", "off until Friday (2025-10-17)"},
		{"this weekend we paint", "this weekend (2025-10-18, 2025-10-19) we paint"},
		{"back in two weeks", "back in two weeks (2025-10-29)"},
		{"three weeks ago it broke", "three weeks ago (2025-09-24) it broke"},
		// Dates written out keep their words; only the year is resolved.
		{"on the 2nd of June", "on the 2nd of June"},
		{"tomorrow's out", "tomorrow's (2025-10-16) out"},
		// A weekday with "mornings" is every one of them.
		{"football on Saturday mornings now", "football on Saturday mornings now"},
		{"classes on Tuesday evenings", "classes on Tuesday evenings"},
		// A day of the month written without its month keeps its words
		// too (TestFindAll_DayOfTheMonth resolves it).
		{"he turned 8 on the 9th", "he turned 8 on the 9th"},
		{"dentist Thursday the 23rd, 14:15", "dentist Thursday the 23rd, 14:15"},
	} {
		if got := AnnotateAll(tc.text, at); got != tc.want {
			t.Errorf("AnnotateAll(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestFindAll_YearOfAWrittenDate(t *testing.T) {
	for _, tc := range []struct {
		said, text, want string
	}{
		{"2025-01-11", "the Sheffield 10k is on the 18th of May", "2025-05-18"},
		{"2025-06-01", "starting on the 2nd of June", "2025-06-02"},
		{"2025-11-02", "for his birthday on the 18th of April", "2026-04-18"},
		{"2025-12-07", "On the 2nd of January, back to work", "2026-01-02"},
		{"2025-02-08", "she had it done on 4 February", "2025-02-04"},
		{"2025-06-28", "Not before the 12th of August", "2025-08-12"},
		{"2025-03-01", "Weekend of June 14th?", "2025-06-14"},
		{"2025-02-22", "The wedding's in Beirut in September", "2025-09"},
		{"2025-06-08", "I moved up in March for the job", "2025-03"},
		{"2025-07-13", "I've booked to go to Lagos in December", "2025-12"},
		{"2025-11-16", "the Montreal marathon next September", "2026-09"},
		{"2025-09-20", "the marathon next September", "2026-09"},
		{"2025-03-22", "Staff engineer from April", "2025-04"},
		{"2025-06-28", "in March 2024 it was", "2024-03"},
		{"2025-06-28", "on 3 May 2024", "2024-05-03"},
	} {
		at, _ := time.Parse(time.DateOnly, tc.said)
		ms := FindAll(tc.text, at)
		if len(ms) != 1 || ms[0].Date() != tc.want {
			t.Errorf("%s %q: %+v, want one mention dated %s", tc.said, tc.text, ms, tc.want)
		}
	}
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, text := range []string{"you may 2 go", "31 June", "in 0x10 days", "May I?"} {
		for _, m := range FindAll(text, at) {
			if m.Date() == "" || len(m.Days) == 0 {
				t.Errorf("%q: an empty mention %+v", text, m)
			}
		}
	}
	if ms := FindAll("31 June is not a day", at); len(ms) != 0 {
		t.Errorf("31 June resolved: %+v", ms)
	}
}

// TestFind_HintsSkipNothing: skipping the expressions whose literals a text
// lacks finds exactly what running them all finds, in any case, with the
// runes that fold to ASCII letters, and over random texts with dates mixed
// in, for both sets.
func TestFind_HintsSkipNothing(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC)
	texts := []string{
		"YESTERDAY it rained", "Two Days Ago", "LAST WEEKEND we hiked", "On FRIDAY the lab",
		"thi\u017f morning", "la\u017ft night", "la\u017ft wee\u212aend", "ye\u017fterday",
		"this Morning and Tomorrow", "昨晚和今早", "前天，后天，明天", "on 2025-03-04 and 2024-1-2",
		"sunday's game", "tonight; today", "3 days ago", "nothing to see", "NEXT MONTH", "in \u017feptember",
		"la\u017ft wee\u212a", "12TH OF JUNE", "Next Friday?",
	}
	words := strings.Fields("the a we I it was is on at in of to and rain lab game walk Sam Priya 12 2 " +
		"kitchen week month year day Monday Friday June May March 3rd 14th next last this ago 猫 天气")
	extras := []string{"yesterday", "last night", "on Monday", "Tuesday's", "today", "this evening",
		"tomorrow", "a couple of days ago", "last weekend", "昨天", "今天", "明天", "前天", "后天",
		"next month", "last week", "this year", "next Friday", "in two weeks", "three weeks ago",
		"on the 2nd of June", "June 14th", "in September", "next September", "this weekend", "on the 9th",
		"from the 21st", "Thursday the 23rd", "Saturday 11th"}
	r := rand.New(rand.NewPCG(3, 3))
	for range 2000 {
		var b strings.Builder
		for range 5 + r.IntN(25) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		if r.IntN(3) == 0 {
			b.WriteString(extras[r.IntN(len(extras))])
		}
		texts = append(texts, b.String())
	}
	same := func(a, b Mention) bool {
		return a.Start == b.Start && a.End == b.End && a.Unit == b.Unit && slices.EqualFunc(a.Days, b.Days, time.Time.Equal)
	}
	found := 0
	for _, s := range texts {
		for _, set := range [][]relativeDate{searchDates, writerDates, refiningDates} {
			got, want := find(s, at, set, false), find(s, at, set, true)
			if !slices.EqualFunc(got, want, same) {
				t.Fatalf("%q: with hints %+v, all expressions %+v", s, got, want)
			}
			found += len(want)
		}
	}
	if found < 800 {
		t.Fatalf("only %d mentions found: the test proves little", found)
	}
}

// TestFindAll_KeepsFind: the writer's set adds to search's and changes
// nothing search finds, but for habits ("on Saturday mornings").
func TestFindAll_KeepsFind(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC)
	for _, s := range []string{"yesterday and next month", "on Friday we fell, next Friday we climb", "last weekend, this weekend"} {
		all := FindAll(s, at)
		for _, m := range Find(s, at) {
			if !slices.ContainsFunc(all, func(a Mention) bool { return a.Start == m.Start && a.End == m.End }) {
				t.Errorf("%q: FindAll lost %+v", s, m)
			}
		}
	}
}

func FuzzFindAll(f *testing.F) {
	for _, s := range []string{"yesterday", "on the 31st of February", "next month", "in 99 weeks", "June 0", "昨天", "la\u017ft wee\u212aend"} {
		f.Add(s, int64(1760522400))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		at := time.Unix(unix%(1<<34), 0)
		prev := -1
		for _, m := range FindAll(text, at) {
			if m.Start < prev || m.End <= m.Start || m.End > len(text) || len(m.Days) == 0 {
				t.Fatalf("%q: bad mention %+v", text, m)
			}
			prev = m.End
		}
		_ = AnnotateAll(text, at)
	})
}

// A day of the month said without its month is the nearest such day, or
// the one in the month its text names; with its weekday, the nearest
// that falls on it (search's bare weekday gives way).
func TestFindAll_DayOfTheMonth(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct{ text, want string }{
		{"he turned 8 on the 9th", "2025-10-09"},
		{"pick up on the 20th", "2025-10-20"},
		{"home from the 2nd", "2025-10-02"},
		{"back on the 31st", "2025-10-31"},
		{"dentist Thursday the 23rd, 14:15", "2025-10-23"},
		{"the party was Saturday 11th", "2025-10-11"},
		{"regatta is Saturday the 1st", "2025-11-01"},
		{"flying on the 10th of September, the wedding is on the 13th", "2025-09-10 2025-09-13"},
		{"school won't let her off until the 6th, so landing on the 7th of December", "2025-12-06 2025-12-07"},
		{"on the 2nd of June we fly", "2026-06-02"},
	} {
		var got []string
		for _, m := range FindAll(tc.text, at) {
			got = append(got, m.Label())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("FindAll(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Japanese and Chinese relative dates, written without spaces (cjk.go).
func TestAnnotateAll_CJK(t *testing.T) {
	at := time.Date(2026, 3, 18, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct{ text, want string }{
		{"明日引っ越しやな", "明日 (2026-03-19)引っ越しやな"},
		{"昨日おつかれ", "昨日 (2026-03-17)おつかれ"},
		{"一昨日に届いた", "一昨日 (2026-03-16)に届いた"},
		{"明後日から出張", "明後日 (2026-03-20)から出張"},
		{"来週の木曜どう？", "来週の木曜 (2026-03-26)どう？"},
		{"先週の金曜日に決まった", "先週の金曜日 (2026-03-13)に決まった"},
		{"来月から東京", "来月 (2026-04)から東京"},
		{"我下周四去上海", "我下周四 (2026-03-26)去上海"},
		{"改成下下周三", "改成下下周三 (2026-04-01)"},
		{"我们上周一起吃饭", "我们上周 (week of 2026-03-09)一起吃饭"},
		{"下个月搬家", "下个月 (2026-04)搬家"},
		{"来年結婚する", "来年 (2027)結婚する"},
		{"去年结婚了", "去年结婚了"},
		{"木曜いける？", "木曜いける？"},
	} {
		if got := AnnotateAll(tc.text, at); got != tc.want {
			t.Errorf("AnnotateAll(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
