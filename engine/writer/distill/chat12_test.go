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

func TestRelayed_ForwardLabel(t *testing.T) {
	for c, want := range map[string]bool{
		"Forwarded many times\nदूध में हल्दी रोज़ पीने से सब बीमारी ठीक, 10 लोगों को भेजें": true,
		"Forwarded\nBank holiday on Monday 12 Oct, share with everyone": true,
		"forwarded the invoice to Sunil on 3 May":                       false,
	} {
		if got := relayed(Turn{Content: c, Speaker: "Lata"}); got != want {
			t.Errorf("relayed(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestTemplateLabel(t *testing.T) {
	for c, want := range map[string]string{
		"Meeting recording is ready: \"Planning\"\nLength: 31 min": "Meeting recording is ready",
		"Update: moved to Friday":                                  "",
		"btw the launch is at 5: be there":                         "",
	} {
		if got := templateLabel(c); got != want {
			t.Errorf("templateLabel(%q) = %q, want %q", c, got, want)
		}
	}
}

func TestDistil_TemplateSpeakerIsABot(t *testing.T) {
	lines := []string{
		"Meet: Meeting recording is ready: \"Planning\"\nLength: 31 min · Host: ana.m · Expires in 30 days (2026-06-30)",
		"Ana: the release moved to 14 July, QA needs another week",
		"Meet: Meeting recording is ready: \"Retro\"\nLength: 22 min · Host: ana.m · Expires in 30 days (2026-07-15)",
	}
	joined := keptTexts(t, chat(saturday, "slack", "template-bot", "Ana", lines...))
	if strings.Contains(joined, "Expires") {
		t.Errorf("a template's line kept:\n%s", joined)
	}
}

// A measure told to an assistant about someone in the owner's care is a
// fact; the owner's own passing numbers are not made facts by the rule.
func TestDistil_MeasureInARequest(t *testing.T) {
	s := chat(saturday, "chatgpt", "measure12", "",
		"owner: Plan a week of dinners for my father",
		"assistant: Happy to. Anything he can't eat?",
		"owner: he takes amlodipine 5 mg every morning and no grapefruit",
		"assistant: Noted, no grapefruit.",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "amlodipine 5 mg") {
		t.Errorf("the dose was dropped:\n%s", joined)
	}
	for raw, want := range map[string]bool{"she takes 2 tablets at night": true, "see you at 5": false, "I drink 3 cups": true} {
		if got := measured(raw); got != want {
			t.Errorf("measured(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestFlaggedValue(t *testing.T) {
	for raw, want := range map[string]bool{
		"Ferritin: 9 ng/mL  [Ref 15–150]  LOW":   true,
		"Creatinine: 1.6 mg/dL [ref 0.6-1.2] H":  true,
		"Sodium: 139 mmol/L  [Ref 135–145]":      false,
		"Low battery: 9% left, charging at home": false,
	} {
		if got := flaggedValue(raw); got != want {
			t.Errorf("flaggedValue(%q) = %v, want %v", raw, got, want)
		}
	}
}
