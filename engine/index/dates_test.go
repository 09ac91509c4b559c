package index

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestRelativeDates_ResolvedAgainstTheRecord(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct{ text, want string }{
		{"yesterday I fixed it", "yesterday (2025-10-14) I fixed it"},
		{"two days ago we climbed", "two days ago (2025-10-13) we climbed"},
		{"Monday's fire drill took forever", "Monday's (2025-10-13) fire drill took forever"},
		{"they stayed with us last weekend", "they stayed with us last weekend (2025-10-11, 2025-10-12)"},
		{"first frost last night", "first frost last night (2025-10-14)"},
		{"昨天我们去了", "昨天 (2025-10-14)我们去了"},
		// Plans are left alone: the coming Friday is not the last one.
		{"team lunch on Friday?", "team lunch on Friday?"},
		{"next Monday we ship", "next Monday we ship"},
		{"no dates here", "no dates here"},
	} {
		if got := AnnotateDates(tc.text, at); got != tc.want {
			t.Errorf("AnnotateDates(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestQueryDateTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"What did Priya do on April 19?", []string{"md04-19"}},
		{"on the 9th of June", []string{"md06-09"}},
		{"March 4, 2025", []string{"d2025-03-04"}},
		{"2025-03-04", []string{"d2025-03-04"}},
		{"5月12日", []string{"md05-12"}},
		{"what happened in March", []string{"mo03"}},
		{"I may go", nil},
	} {
		if got := QueryDateTerms(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("QueryDateTerms(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestRelativeWindow(t *testing.T) {
	day := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC) // a Monday
	for _, tc := range []struct {
		q, event string
		first    string
		n        int
	}{
		{"What did Diego do the week after the gym reopened?", "the gym reopened", "2025-06-03", 7},
		{"What did Alice do the weekend after Leo broke his arm?", "Leo broke his arm", "2025-06-07", 2},
		{"What happened the evening before the Piranesi meeting?", "the Piranesi meeting", "2025-06-01", 1},
		{"What did Sam do the day after the half marathon?", "the half marathon", "2025-06-03", 1},
	} {
		event, days, ok := relativeWindow(tc.q)
		if !ok || event != tc.event {
			t.Errorf("%q: event %q, %v", tc.q, event, ok)
			continue
		}
		got := days(day)
		if len(got) != tc.n || got[0].Format(time.DateOnly) != tc.first {
			t.Errorf("%q: days %v", tc.q, got)
		}
	}
	if _, _, ok := relativeWindow("What did Bob say about the sofa?"); ok {
		t.Error("a question without an event window has one")
	}
}

// TestRelativeDates_HintsSkipNothing: skipping the expressions whose
// literals a text lacks finds exactly what running them all finds, in any
// case, with the runes that fold to ASCII letters, and over a generated
// corpus with relative dates mixed in.
func TestRelativeDates_HintsSkipNothing(t *testing.T) {
	at := time.Date(2025, 10, 15, 10, 0, 0, 0, time.UTC)
	texts := []string{
		"YESTERDAY it rained", "Two Days Ago", "LAST WEEKEND we hiked", "On FRIDAY the lab",
		"thi\u017f morning", "la\u017ft night", "la\u017ft wee\u212aend", "ye\u017fterday",
		"this Morning and Tomorrow", "昨晚和今早", "前天，后天，明天", "on 2025-03-04 and 2024-1-2",
		"sunday's game", "tonight; today", "3 days ago", "nothing to see",
	}
	latin, han := genVocab()
	r := genRand(3)
	zl := rand.NewZipf(r, 1.1, 4, uint64(len(latin)-1))
	zh := rand.NewZipf(r, 1.1, 4, uint64(len(han)-1))
	extras := []string{"yesterday", "last night", "on Monday", "Tuesday's", "today", "this evening",
		"tomorrow", "a couple of days ago", "last weekend", "昨天", "今天", "明天", "前天", "后天"}
	for range 2000 {
		s := genText(r, zl, zh, latin, han, 5+r.IntN(30))
		if r.IntN(3) == 0 {
			s += " " + extras[r.IntN(len(extras))]
		}
		texts = append(texts, s)
	}
	found := 0
	for _, s := range texts {
		got, want := relativeDatesIn(s, at, false), relativeDatesIn(s, at, true)
		if !slices.EqualFunc(got, want, func(a, b DateMention) bool {
			return a.Start == b.Start && a.End == b.End && slices.EqualFunc(a.Days, b.Days, time.Time.Equal)
		}) {
			t.Fatalf("%q: with hints %+v, all expressions %+v", s, got, want)
		}
		found += len(want)
	}
	if found < 500 {
		t.Fatalf("only %d mentions found: the test proves little", found)
	}
}
