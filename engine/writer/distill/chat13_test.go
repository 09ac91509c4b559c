package distill

import (
	"strings"
	"testing"
	"time"
)

// Round thirteen, in sentences written here (not from the labelled set):
// a coding session's stop, rules said in passing (where a command runs
// from, who does a step, what every file starts with), bots known by short
// labels, emoji lines and shortcodes, and WhatsApp's forward label in
// other languages.

func TestDistil_StopKeptAsDecision(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	s := chat(at, "claude-code", "stop13", "", "owner: add a CSV export to the report page",
		"assistant: I'll add the export button first.",
		"owner: hold on, stop here, the fire alarm is going off. don't commit",
		"assistant: Stopped; nothing is committed.")
	s.Project = "/home/kim/src/reports"
	var stop *Fact
	for _, f := range Distil(s) {
		if strings.Contains(f.Text, "fire alarm") {
			stop = &f
		}
	}
	if stop == nil {
		t.Fatal("the stop and its reason were dropped")
	}
	if stop.Kind != KindDecision || stop.Date != "2026-03-02" || len(stop.Cites) != 1 || !strings.HasSuffix(stop.Cites[0], "/t003") {
		t.Errorf("stop = %+v, want a decision dated 2026-03-02 citing t003", *stop)
	}
	if miss := Unsupported(stop.Text, []Evidence{{Text: s.Turns[2].Content, Time: at}}, DefaultOwnerName); len(miss) > 0 {
		t.Errorf("stop %q invents %q", stop.Text, miss)
	}
}

func TestStopAndReason(t *testing.T) {
	for in, want := range map[string]string{
		"wait, stop here. the standup starts now, back later":           "stop here. the standup starts now, back later",
		"I have to pick up my son from school. stop here, don't commit": "I have to pick up my son from school. stop here.",
		"ok I have to stop, the vet closes at 12":                       "I have to stop, the vet closes at 12",
		"stop here, the fire alarm is going off. don't commit":          "stop here, the fire alarm is going off.",
		"rename the flag. then update the docs. stop there, thanks":     "",
		"I have to go, see you tomorrow":                                "",
	} {
		if got := stopAndReason(split(in).sentences); got != want {
			t.Errorf("stopAndReason(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProjectRule_SaidInPassing(t *testing.T) {
	for _, said := range []string{
		"run the generator from the repo root, the docs folder has no config",
		"releases are cut by Marisol on Fridays, not by us",
		"every handler starts with `requireRequestID(r)`",
	} {
		if got := ownerRule("pantry", said); len(got) == 0 {
			t.Errorf("%q: nothing kept", said)
		}
	}
	for _, said := range []string{"Kluska approves of the tool", "back from lunch"} {
		if got := ownerRule("pantry", said); len(got) > 0 {
			t.Errorf("%q: kept %q, want nothing", said, got)
		}
	}
}

func TestDistil_TemplateBots(t *testing.T) {
	s := chat(saturday, "slack", "bots13", "Ines",
		"Calendar: Reminder: design review · Tue 3 Mar · 10:00",
		"Ines: I'll bring the mockups",
		"Calendar: Reminder: retro · Fri 6 Mar · 16:00",
		"Tracker: 📦 order 4411 — status: PACKED (est. 9 Mar)",
		"Calendar: Reminder: offsite · 12 Mar",
		"Tracker: 📦 order 4411 — status: SHIPPED",
		"Tracker: 🚚 order 4411 ETA: 11 Mar",
		"Jobs: :red_circle: job nightly_export failed\nTask: upload · Try 3/3\nRun date: 2026-03-02",
		"Jobs: :red_circle: job weekly_rollup failed\nTask: merge · Try 1/3\nRun date: 2026-03-08",
		"Noor: 🎤 Audio (0:20) — transcript: \"we moved the offsite to Lisbon, 12 March\"",
		"Noor: 🎤 Audio (0:05) — transcript: \"ok\"",
		"Noor: 🎤 Audio (0:09) — transcript: \"see you all there\"",
	)
	joined := keptTexts(t, s)
	for _, b := range []string{"design review", "retro", "PACKED", "SHIPPED", "ETA", "nightly_export", "weekly_rollup", "Try"} {
		if strings.Contains(joined, b) {
			t.Errorf("a bot's %q kept in:\n%s", b, joined)
		}
	}
	if !strings.Contains(joined, "Lisbon") {
		t.Errorf("a person's voice note dropped:\n%s", joined)
	}
}

func TestRelayed_ForwardLabelInOtherLanguages(t *testing.T) {
	for _, c := range []string{"Diteruskan\nINFO PENTING: mulai besok WA bayar Rp 5.000", "Sering diteruskan\nSebarkan!",
		"Reenviado muchas veces\nURGENTE", "Häufig weitergeleitet\nACHTUNG", "Forwarded many times\nHoax"} {
		if !relayed(Turn{Content: c}) {
			t.Errorf("%q: not read as a forward", c)
		}
	}
	for _, c := range []string{"I forwarded\nthe invoice to Sam", "Diteruskan ke Budi besok, jam 9"} {
		if relayed(Turn{Content: c}) {
			t.Errorf("%q: read as a forward", c)
		}
	}
}

// Read by shape, a rupiah amount with its letters, spaced or glued, and
// an amount in ribu or juta are a price.
func TestDistil_RupiahAmounts(t *testing.T) {
	s := chat(saturday, "whatsapp", "rp13", "Dewi",
		"Wati: kontrakan gue yang baru Rp2.400.000/bulan, udah sama listrik",
		"Dewi: wah oke",
		"Wati: servis motor gue kemarin habis 350rb, gak ada yang murah",
		"Dewi: mahal ya",
		"Wati: gaji pertama Raka udah 4,5 juta sebulan, dia senang banget",
		"Dewi: mantap",
		"Wati: total arisan tahun ini Rp 12.000.000",
	)
	joined := keptTexts(t, s)
	for _, w := range []string{"Rp2.400.000", "350rb", "4,5 juta", "Rp 12.000.000"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"wah oke", "mahal", "mantap"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

func TestLetterCurrency(t *testing.T) {
	for tok, want := range map[string]bool{"Rp": true, "IDR": true, "Rs.": true, "rm": false, "RM": true, "Rumah": false} {
		if got := letterCurrency(tok); got != want {
			t.Errorf("letterCurrency(%q) = %v, want %v", tok, got, want)
		}
	}
}
