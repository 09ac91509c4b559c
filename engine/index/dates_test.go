package index

import (
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
