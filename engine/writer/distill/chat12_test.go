package distill

import (
	"strings"
	"testing"
)

// Round twelve, in sentences written here (not from the labelled set): in
// a turn read by shape, an English month with its capital, a Devanagari
// month and a month of Indonesian, Swahili or Tagalog are a date's shape.

func TestDistil_MonthsInUnreadTurns(t *testing.T) {
	lines := []string{
		"Neha: arre sun, Tanvi ki shaadi 18 January ko hai, Jaipur mein",
		"Isha: kya baat hai",
		"Neha: mera naya job 3 March se shuru ho raha hai",
		"Isha: badhai ho!!",
		"Neha: नानी का जन्मदिन 7 अगस्त को है",
		"Isha: haan yaad hai",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "months-hi", "Isha", lines...))
	for _, w := range []string{"18 January", "3 March", "7 अगस्त"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"kya baat", "badhai", "yaad hai"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

func TestCapitalMonth(t *testing.T) {
	for w, want := range map[string]bool{"December": true, "Dec": true, "May": true, "may": false, "march": false, "Monday": false} {
		if got := capitalMonth(w); got != want {
			t.Errorf("capitalMonth(%q) = %v, want %v", w, got, want)
		}
	}
}
