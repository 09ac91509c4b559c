package distill

import (
	"strings"
	"testing"
	"unicode"
)

// Round fourteen, in sentences written here (not from the labelled set): a
// date or a number in any script's digits is one to the shapes, and a
// word of Arabizi ("7abibi", "sa3a") is a word, not a number.

func TestDistil_DatesInOtherDigits(t *testing.T) {
	lines := []string{
		"Rania: صباح الخير يا حبيبي",
		"Tarek: صباح النور",
		"Rania: معاد الأسنان بتاع جدك اتحدد يوم ٢٤/٥ في عيادة الدقي",
		"Tarek: تمام",
		"Rania: नानी की सर्जरी १२/८ को तय हुई है, सिटी अस्पताल में",
		"Tarek: ok",
		"Rania: جلسه دادگاه روز ۱۵/۰۲ ساعت ۱۰ در دفتر وکیل است",
		"Tarek: ماشي",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "digits-ar", "Tarek", lines...))
	for _, w := range []string{"٢٤/٥", "१२/८", "۱۵/۰۲"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"صباح", "تمام", "ماشي"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

func TestDistil_ArabiziWordsAreNoNumbers(t *testing.T) {
	lines := []string{
		"Mona: ya 3am el film kan 7elw gedan, 3ayza ashofo tani",
		"Sherif: wallahi 2olt keda",
		"Mona: el mo7adra bta3et el sob7 kanet momella 5ales",
		"Sherif: ma3lesh",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "arabizi", "Sherif", lines...))
	if joined != "" {
		t.Errorf("Arabizi small talk kept:\n%s", joined)
	}
}

func TestAsciiDigits(t *testing.T) {
	for in, want := range map[string]string{
		"يوم ١٠/٣":        "يوم 10/3",
		"٢٢٬٠٠٠ جنيه":     "22,000 جنيه",
		"٣٫٥ كيلو، بس":    "3.5 كيلو, بس",
		"۱۴۰۳/۰۲/۱۵":      "1403/02/15", // Eastern Arabic-Indic (Persian)
		"१५/८ को":         "15/8 को",
		"１２/２５":           "12/25",
		"𝟗 am":            "9 am", // mathematical bold digits: a range holding several runs
		"no digits here":  "no digits here",
		"already 10/3 ok": "already 10/3 ok",
	} {
		if got := asciiDigits(in); got != want {
			t.Errorf("asciiDigits(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDigitValue_NdRanges checks what digitValue relies on: unicode.Nd is
// ranges of stride one, each a whole number of runs of ten.
func TestDigitValue_NdRanges(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %U–%U stride %d is not runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %U–%U stride %d is not runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
}

func TestArabiziWord(t *testing.T) {
	for w, want := range map[string]bool{
		"5alas": true, "7aram": true, "2ahwa": true, "a3ido": true, "bta3et": true, "ra7man": true, "3ayza": true,
		"3days": false, "2nd": false, "10am": false, "5pm": false, "a14": false, "mp3": false, "850k": false,
		"12tr5": false, "35rb": false, "2019": false, "22,500": false, "6:30": false, "1st": false,
	} {
		if got := arabiziWord(w); got != want {
			t.Errorf("arabiziWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestDistil_GroupedAmountsAndDayRanges(t *testing.T) {
	lines := []string{
		"Dina: el 3arabeya el gdida b 340,000 w kol 7aga ma3aha",
		"Ali: tab",
		"Dina: el kamp 14–18 ya gama3a, fel Fayoum",
		"Ali: ok",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "grouped", "Ali", lines...))
	for _, w := range []string{"340,000", "14–18"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
}

func TestGroupedAmountAndDayRange(t *testing.T) {
	for w, want := range map[string]bool{"22,500": true, "1,250,000": true, "2,5": false, "22500": false, "12,50": false} {
		if got := groupedAmount(w); got != want {
			t.Errorf("groupedAmount(%q) = %v, want %v", w, got, want)
		}
	}
	for w, want := range map[string]bool{"23–25": true, "3-7": true, "2-1": false, "1-1": false, "0-3": false, "28-35": false, "2024-2025": false} {
		if got := dayRange(w); got != want {
			t.Errorf("dayRange(%q) = %v, want %v", w, got, want)
		}
	}
}
