package distill

import "strings"

// Japanese read by shape (spaceless.go) has no capitals to name people
// and places, and no function words a list could count: besides its
// dates and amounts (spacelessdates.go), a sentence says a fact by a word
// of a life's events, as the English rules' strong words do, by a
// name in 「」 (a shop's, a pet's, an event's), by a rule's 必ず or 禁止,
// or by a habit's 毎週; and
// it is small talk when it congratulates, thanks or greets, whatever
// else it holds ("昇進おめでとう！" is the reply, not the news).

// lifeEventsJa are the events of a life in Japanese, by their stems
// (引っ越 for 引っ越す, 引っ越し, 引っ越した) and the theme they file a fact
// under: the counterparts of strongWords, lifeVerbs and the themes' words.
var lifeEventsJa = map[string][]string{
	ThemeWork:        {"転職", "退職", "就職", "入社", "昇進", "異動", "転勤", "定年", "内定", "採用", "独立", "開業"},
	ThemeFamily:      {"結婚", "婚約", "離婚", "プロポーズ", "妊娠", "出産", "生まれ", "亡くな"},
	ThemePlaces:      {"引っ越", "留学"},
	ThemeHealth:      {"手術", "入院", "退院", "アレルギー", "花粉症", "骨折", "診断", "持病"},
	ThemeHabits:      {"卒業", "入学", "合格", "受験"},
	ThemePossessions: {"飼う", "飼い"},
}

// rulesCJK mark a rule or a standing instruction: 必ず (always), 禁止
// (forbidden), ルール (a rule), 不要 (not needed), 不可 (not allowed), 一律
// (without exception), and Chinese 必须, 禁止, 规定.
var rulesCJK = []string{"ルール", "禁止", "必ず", "厳禁", "不可", "一律", "必须", "规定", "規則"}

// chatMarksCJK are congratulations, thanks, greetings and apologies in
// Japanese and Chinese.
var chatMarksCJK = []string{"おめでとう", "ありがとう", "おつかれ", "お疲れ", "よろしく", "おはよう", "こんにちは", "こんばんは",
	"ごめん", "すみません", "恭喜", "谢谢", "謝謝", "早上好", "晚安", "对不起", "ありがと"}

// habitRe is a habit's "every": 毎週, 毎朝, 每天, 每个月.
var habitRe = lazyRegexp(`[毎每](?:週|日|朝|晩|月|年|天|周|个月|晚)`)

// quotedNameRe is a name in Japanese quotes: 「きなこ」, 『いわばカップ』.
var quotedNameRe = lazyRegexp(`[「『][^」』\s]{1,20}[」』]`)

// cjkWords scores what a Japanese or Chinese sentence's words say: a
// life's event 2, a rule 2, a habit and a quoted name 1 each; chat is true for
// congratulations, thanks and greetings.
func cjkWords(raw string) (score int, chat bool) {
	for _, m := range chatMarksCJK {
		if strings.Contains(raw, m) {
			return 0, true
		}
	}
	if lifeEventJa(raw, nil) {
		score += 2
	}
	for _, w := range rulesCJK {
		if strings.Contains(raw, w) {
			score += 2
			break
		}
	}
	if habitRe.MatchString(raw) {
		score++
	}
	if quotedNameRe.MatchString(raw) {
		score++
	}
	return score, false
}

// guessEndsCJK close a guess or a maybe: やろ, だろう, でしょう, かも, かな,
// and Chinese 吧, 可能吧.
var guessEndsCJK = []string{"やろ", "だろう", "だろ", "でしょう", "でしょ", "かも", "かもしれない", "かな", "吧"}

// hedgedCJK reports whether a Japanese or Chinese sentence is a guess or a
// condition ("5月ならヒノキも終わりやろ": if it's May…, surely): like a
// hedge in another language, it needs a third signal to be kept.
func hedgedCJK(raw string) bool {
	s := strings.TrimRightFunc(raw, func(r rune) bool { return !spacelessRune(r) })
	for _, e := range guessEndsCJK {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return strings.Contains(raw, "なら")
}

// lifeEventJa reports whether raw holds a word of lifeEventsJa, counting
// its themes in hits when hits is not nil.
func lifeEventJa(raw string, hits map[string]int) bool {
	found := false
	for _, theme := range themeOrder {
		for _, w := range lifeEventsJa[theme] {
			if strings.Contains(raw, w) {
				found = true
				if hits == nil {
					return true
				}
				hits[theme]++
				break
			}
		}
	}
	return found
}
