package distill

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Round fifteen, in sentences written here (not from the labelled set):
// scripts written without spaces (Japanese, Chinese, Thai) have words,
// and Japanese and Chinese dates, amounts and relative dates are a fact's
// shape.

func TestCountWords_Spaceless(t *testing.T) {
	for _, tc := range []struct {
		text     string
		min, max int
	}{
		{"I moved to Leeds last year", 6, 6},
		{"来月から京都の設計事務所で働くことになった", 8, 12},
		{"我下个月搬到上海工作", 4, 6},
		{"ผมย้ายไปเชียงใหม่เดือนหน้า", 4, 14},
		{"家賃は128,000円", 3, 5}, // 家賃は, 128,000, 円
		{"了解", 1, 1},
	} {
		if got := countWords(tc.text); got < tc.min || got > tc.max {
			t.Errorf("countWords(%q) = %d, want %d–%d", tc.text, got, tc.min, tc.max)
		}
	}
}

func TestClipWords_Spaceless(t *testing.T) {
	text := "妹の結婚式は十一月二十二日に神戸の北野で、披露宴のあとに二次会もあって、友だちがたくさん来る予定やねん"
	got := clipWords(text, 10)
	if !strings.HasSuffix(got, "…") {
		t.Fatalf("clipWords(%q, 10) = %q: not cut", text, got)
	}
	body := strings.TrimSuffix(got, "…")
	if !strings.HasPrefix(text, body) || countWords(body) > 10 || utf8.RuneCountInString(body) < 10 {
		t.Errorf("clipWords(%q, 10) = %q: want about ten words of its start", text, got)
	}
	if got := clipWords("短い文です", 10); got != "短い文です" {
		t.Errorf("a short sentence was cut: %q", got)
	}
}

// A Japanese chat's dates and amounts, in any width and with an era year,
// are kept; its greetings and thanks are not.
func TestDistil_JapaneseDatesAndAmounts(t *testing.T) {
	lines := []string{
		"Aoi: おはよう〜元気？",
		"Ken: 元気やで",
		"Aoi: 引っ越しは６月１３日(土)に決まった、新しい家は吹田",
		"Ken: ええやん",
		"Aoi: 家賃は９８，０００円で管理費込み",
		"Ken: なるほど",
		"Aoi: 姉の結婚式は令和9年3月20日、京都のホテルで",
		"Ken: ありがとう！",
		"Aoi: 車の修理代、結局45万円やった",
		"Ken: うわ〜",
		"Aoi: 車検は2027/04/30まで",
	}
	joined := keptTexts(t, chat(saturday, "line", "ja15", "Ken", lines...))
	for _, w := range []string{"６月１３日", "９８，０００円", "令和9年3月20日", "45万円", "2027/04/30"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"おはよう", "元気やで", "ええやん", "ありがとう", "うわ"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

// A date someone else just gave is echoed only by the same date: "10月"
// is news after "9月10日", not a note of it.
func TestDistil_CJKShapeEchoesItsOwnDate(t *testing.T) {
	lines := []string{
		"Mai: 発表会は9月10日に延期になった",
		"Jun: 了解、9月10日な",
		"Jun: 俺は10月から大阪の事務所に移るで",
	}
	joined := keptTexts(t, chat(saturday, "line", "ja15b", "Jun", lines...))
	if !strings.Contains(joined, "10月から大阪") {
		t.Errorf("a new date dropped as an echo:\n%s", joined)
	}
	if strings.Contains(joined, "了解") {
		t.Errorf("a note of a date just given kept:\n%s", joined)
	}
}

// A relative date in Japanese is resolved and dates the fact; thanks
// dated yesterday is still thanks.
func TestDistil_JapaneseRelativeDate(t *testing.T) {
	lines := []string{
		"Sora: 明日の朝9時にトラックが来て引っ越し、荷物は2トン",
		"Rin: がんばれ〜",
		"Rin: 昨日おつかれ！",
	}
	joined := keptTexts(t, chat(saturday, "line", "ja15c", "Rin", lines...))
	if !strings.Contains(joined, "明日 (2025-06-15)") {
		t.Errorf("明日 not resolved in:\n%s", joined)
	}
	if strings.Contains(joined, "おつかれ") {
		t.Errorf("thanks kept for its date:\n%s", joined)
	}
}

// A chat that is all Chinese, with no fact the rules keep, still has a
// summary in its own words: its sentences are words long, not one word.
func TestSummary_ChineseGist(t *testing.T) {
	s := chat(saturday, "wechat", "zh15", "Li",
		"Wang: 早上好",
		"Wang: 我们小区的游泳池终于重新开放了，大家都很开心",
		"Li: 太好了",
	)
	if sum := Summary(s); sum.Text == "" || len(sum.Cites) == 0 {
		t.Errorf("no summary for a Chinese chat: %+v", sum)
	}
}

// Chatwork's markup ("[To:123]", "[info][title]…[/title]…[/info]") is the
// app's, not a forward's label: the words in it are kept.
func TestDistil_ChatworkTags(t *testing.T) {
	lines := []string{
		"Sato: [To:5512301]Kimura様 試作品は8月3日に出荷します。",
		"Kimura: [rp aid=5512301 to=9-1]Sato様 承知しました。",
		"Sato: [info][title]検査のルール[/title]検査は7月28日から第3ラインで行います[/info]",
	}
	joined := keptTexts(t, chat(saturday, "chatwork", "cw15", "Kimura", lines...))
	for _, w := range []string{"8月3日", "7月28日"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	if strings.Contains(joined, "[To:") || strings.Contains(joined, "[info]") {
		t.Errorf("markup kept in:\n%s", joined)
	}
}

// With no date or amount, a Japanese sentence is kept for a life's event,
// a rule, or a habit with a name; congratulations on the same event, and
// chat with none of these, are not.
func TestDistil_JapaneseEventsRulesAndHabits(t *testing.T) {
	lines := []string{
		"Yui: 姉が春に転職して、いまは名古屋の病院で働いてる",
		"Taku: 転職おめでとうって伝えといて！",
		"Yui: 部屋の中は禁煙、ベランダも禁止やからな",
		"Taku: わかった",
		"Yui: 毎週土曜は「みどり食堂」でランチしてる",
		"Taku: ええなあ、今日は暑いなあ",
	}
	joined := keptTexts(t, chat(saturday, "line", "ja15d", "Taku", lines...))
	for _, w := range []string{"転職して", "禁止", "みどり食堂"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"おめでとう", "わかった", "暑い"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

// A guess or a condition ("if it's May, surely…") needs a third signal:
// a month alone does not make it news.
func TestDistil_JapaneseGuessIsNoFact(t *testing.T) {
	lines := []string{
		"Nao: 8月なら海もまだ暖かいやろ",
		"Nao: 3月ごろやったら、たぶん雪も残ってるかも",
		"Nao: 8月10日に福岡へ引っ越す",
	}
	joined := keptTexts(t, chat(saturday, "line", "ja15e", "Mei", lines...))
	if strings.Contains(joined, "暖かい") || strings.Contains(joined, "雪") {
		t.Errorf("a guess kept:\n%s", joined)
	}
	if !strings.Contains(joined, "福岡") {
		t.Errorf("a move dropped:\n%s", joined)
	}
}

// A Japanese fact kept for a life's event is filed under that event's
// theme, not under Notes.
func TestDistil_JapaneseEventTheme(t *testing.T) {
	s := chat(saturday, "line", "ja15f", "Taku",
		"Yui: 姉が春に転職して、いまは名古屋の病院で働いてる",
		"Yui: 父が来月膝の手術を受けることになった",
	)
	want := map[string]string{"転職": ThemeWork, "手術": ThemeHealth}
	for _, f := range Distil(s) {
		for w, theme := range want {
			if strings.Contains(f.Text, w) {
				if f.Theme != theme {
					t.Errorf("%q filed under %s, want %s", f.Text, f.Theme, theme)
				}
				delete(want, w)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("not kept: %v", want)
	}
}

// News of a life is kept whatever emoji come with it; a greeting in
// emoji is not.
func TestDistil_JapaneseNewsWithEmoji(t *testing.T) {
	joined := keptTexts(t, chat(saturday, "line", "ja15g", "Mei",
		"Nao: 弟が大学に合格しました！😭😭",
		"Nao: おはよう〜今日もええ天気🌞🌸",
	))
	if !strings.Contains(joined, "合格") {
		t.Errorf("news with emoji dropped:\n%s", joined)
	}
	if strings.Contains(joined, "天気") {
		t.Errorf("a greeting in emoji kept:\n%s", joined)
	}
}
