package distill

import (
	"strings"
	"testing"
)

// Round eleven, in sentences written here (not from the labelled set): a
// Latin-script language whose words nearly all carry marks is read by
// shape; money with its magnitude after the digits, a month or a weekday
// written as a word and a number, and a window of hours are a fact's
// shapes; a sentence closed by an asking word is a question.

func TestDistil_MarkedLatinReadByShape(t *testing.T) {
	lines := []string{
		"Hoa: chị ơi, khỏe không",
		"Mira: khỏe, còn em?",
		"Hoa: xe máy mới của chị giá 42tr5, trả góp",
		"Mira: đẹp không",
		"Hoa: tháng 9 em chuyển về Đà Lạt làm ở khách sạn",
		"Hoa: từ hôm nay quán mở cửa 7h–21h, nghỉ Chủ nhật",
		"Mira: ok em",
		"Hoa: học phí của bé là 850k một tháng",
		"Mira: chị có đi đám cưới của Tú vào tháng 12 không",
	}
	joined := keptTexts(t, chat(saturday, "zalo", "marks-vi", "Mira", lines...))
	for _, w := range []string{"42tr5", "tháng 9", "7h–21h", "850k"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"khỏe", "đẹp", "ok em", "đám cưới"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

func TestDenseMarks(t *testing.T) {
	for s, want := range map[string]bool{
		"tụi em thuê nhà ở Cái Răng":                  true,
		"bố đi khám ở Chợ Rẫy hôm thứ 6":              true,
		"we had phở at the café near Đà Nẵng station": false,
		"Je suis allée à la pêche avec mon père":      false,
		"no marks at all here":                        false,
	} {
		if got := denseMarks(s); got != want {
			t.Errorf("denseMarks(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestMoneyShorthand(t *testing.T) {
	for _, tc := range []struct {
		word, next string
		want       bool
	}{
		{"12tr5", "", true}, {"850k", "", true}, {"2.800.000đ", "", true}, {"300₹", "", true},
		{"3", "triệu", true}, {"5", "lakh", true}, {"2cr", "", true},
		{"14", "weeks", false}, {"3.1", "kg", false}, {"p95", "", false}, {"11h", "", false}, {"2ktr", "", false},
	} {
		if got := moneyShorthand(tc.word, tc.next); got != tc.want {
			t.Errorf("moneyShorthand(%q, %q) = %v, want %v", tc.word, tc.next, got, tc.want)
		}
	}
}

func TestHourRangeAndAskingWords(t *testing.T) {
	for w, want := range map[string]bool{"8h–22h": true, "9h-17h30": true, "08:00–22:00": true, "2-3": false, "covid-19": false, "8h": false} {
		if got := hourRange(w); got != want {
			t.Errorf("hourRange(%q) = %v, want %v", w, got, want)
		}
	}
	for s, want := range map[string]bool{"ai đi Big Day tháng 10 không": true, "bố mẹ biết chưa": true, "không sao": false, "em chưa ăn gì hết": false} {
		if got := asksByWord(s); got != want {
			t.Errorf("asksByWord(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestHedged(t *testing.T) {
	for s, want := range map[string]bool{
		"p95 lên 2.1s lúc 10h, chắc do cùng một job": true,
		"hình như anh Bảo nghỉ từ 3/4":               true,
		"chắc chắn mình đi ngày 12":                  false,
		"mình đi Huế ngày 12":                        false,
	} {
		if got := hedged(s); got != want {
			t.Errorf("hedged(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCallsOut(t *testing.T) {
	for s, want := range map[string]bool{"con bé tự đạp xe được rồi chị ơi 🚲": true, "chị ơi em đậu rồi": false, "ơi": false} {
		if got := callsOut(s); got != want {
			t.Errorf("callsOut(%q) = %v, want %v", s, got, want)
		}
	}
}

// A rule over every item of a kind is a convention, said without "always".
func TestEveryNeeds(t *testing.T) {
	for s, want := range map[string]bool{
		"also every container needs requests and limits, both": true,
		"each migration must have a down step":                 true,
		"all public handlers have to log the request id":       true,
		"every time I run it the build hangs":                  false,
		"everything needs a rethink":                           false,
	} {
		if got := everyNeedsRe.MatchString(s); got != want {
			t.Errorf("everyNeedsRe(%q) = %v, want %v", s, got, want)
		}
	}
}
