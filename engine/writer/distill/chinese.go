package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chinese (Han without kana) is read by the English rules with a few
// Chinese words (features.go: 我 as the subject, cjkThemeWords), which
// see neither its dates and amounts nor its events: "3月2日入职",
// "月薪到手两万出头", "4800一个月" score as a sentence with a number. Like
// Japanese read by shape (japanese.go), a Chinese sentence says a fact by
// its shapes (a date, an amount, a measure), by a word of a life's events
// (入职, 手术, 过敏, 录取…), by a change of plan (改到, 推迟) and by a
// rule or a habit (以后…都, 一律, 别再, 每周六, 从…开始), all closed lists
// of words any Chinese text uses, not words of one conversation.

// zhDateRe is a date as Chinese writes it besides 7月14日 (cjkShapeRe):
// a day by its 号 ("24号", "26号晚上"), a lunar date ("农历八月十六"), a
// month in Chinese numerals ("十月份", "八月中").
var zhDateRe = lazyRegexp(`\d{1,2}\s*号|农历[正一二三四五六七八九十冬腊]{1,2}月[初十廿一二三四五六七八九]{1,3}|[一二三四五六七八九十]{1,2}月(?:份|初|中|底)`)

// zhAmountRe is an amount as Chinese writes it: "3千5", "1.2万", "两万",
// "四千八", "3百5", "4800一个月", "¥360" (cjkShapeRe reads "150块" and
// "2,040元").
var zhAmountRe = lazyRegexp(`\d+(?:\.\d+)?\s*[万千百]\d?|[两一二三四五六七八九十几]+[万千]|\d[\d,]{2,}\s*(?:一个月|每月|/月|一月)`)

// zhMoneyRe names what an amount is: pay, a budget, rent, a total, a
// price, a fee, a cost per head.
var zhMoneyRe = lazyRegexp(`月薪|工资|年薪|预算|房租|租金|一共|总共|人均|花了|费|价|优惠|押金|定金`)

// zhClockRe is a time of day in digits: "3点20", "8点", "6点半".
var zhClockRe = lazyRegexp(`\d{1,2}\s*点(?:\s*\d{1,2}|半)?`)

// zhMeasureRe is a measure with its unit: "45平", "30公里", "2L", "85岁".
var zhMeasureRe = lazyRegexp(`\d+(?:\.\d+)?\s*(?:公里|平米|平方|平|米|公斤|斤|岁|小时|分钟|L\b)`)

// lifeEventsZh are the events of a life in Chinese, by the theme they file
// a fact under: the counterparts of lifeEventsJa.
var lifeEventsZh = map[string][]string{
	ThemeWork:        {"入职", "离职", "辞职", "跳槽", "升职", "退休", "调到", "转正", "产假", "组长", "经理", "offer"},
	ThemeFamily:      {"结婚", "订婚", "离婚", "怀孕", "出生", "去世", "婚礼", "大寿", "喜酒", "婚宴", "寿宴"},
	ThemePlaces:      {"搬家", "搬到", "房租", "租了", "一室一厅", "两室"},
	ThemeHealth:      {"手术", "住院", "出院", "过敏", "确诊", "骨折", "高反", "复查", "绝育"},
	ThemePossessions: {"一辆", "一台", "提车", "入手", "买了一", "领养"},
	ThemeHabits:      {"高考", "录取", "毕业", "考上", "报到", "开学", "志愿", "升学"},
}

// zhChangeWords say a plan changed: moved to, put off, brought forward.
var zhChangeWords = []string{"改到", "改成", "推迟", "推到", "延期", "提前到", "改期", "取消"}

// zhRuleRe is a rule or a standing instruction: 以后…都 (from now on,
// always), 一律 (without exception), 别再 (never again), 不许, 必须, 禁止,
// 规矩, 从…开始 (starting from), 固定 (fixed, a habit).
var zhRuleRe = lazyRegexp(`以后.{0,12}都|以后每|一律|统一|别再|不许|不准|必须|禁止|规矩|规定|从.{1,8}(?:开始|起)|固定|雷打不动`)

// zhHabitRe is a habit's "every": 每周六, 每个礼拜天, 每天早上.
var zhHabitRe = lazyRegexp(`每(?:个)?(?:周|星期|礼拜|天|月|年|晚|早)`)

// chinese reports whether text is Chinese: Han without kana.
func chinese(text string) bool { return hasHan(text) && !hasKana(text) }

// chineseScore scores what a Chinese sentence's shapes and words say: a
// date and an amount 2 each (as a Japanese one weighs), 1 more for an
// amount with what it is, a measure or a clock time 1, a life's event 2,
// a change of plan 1, a rule 2 and a habit 1, and counts the events' themes in hits
// (when not nil), for the fact's theme; shapes false leaves the dates and
// amounts out.
func chineseScore(text string, hits map[string]int, shapes bool) int {
	score := 0
	folded := foldWidth(asciiDigits(text))
	if !shapes {
		folded = "" // the dates and amounts another turn gave (zhEchoes)
	}
	date, amount := false, false
	if hasDigit(folded) {
		for _, m := range cjkShapeRe.FindAllStringSubmatchIndex(folded, -1) {
			date = date || m[2] >= 0 || m[4] >= 0
			amount = amount || m[6] >= 0
		}
	}
	if date || zhDateRe.MatchString(folded) {
		score += 2
	}
	if amount || zhAmountRe.MatchString(folded) {
		score += 2
		if zhMoneyRe.MatchString(text) {
			score++ // "月薪到手两万出头", "预算8千以内": what the amount is
		}
	} else if zhMeasureRe.MatchString(folded) {
		score++
	}
	if zhClockRe.MatchString(folded) {
		score++ // "6号下午3点20到杭州东": a time with the day
	}
	event := false
	for _, theme := range themeOrder {
		for _, w := range lifeEventsZh[theme] {
			if strings.Contains(text, w) {
				event = true
				if hits != nil {
					hits[theme]++
				}
				break
			}
		}
	}
	if event {
		score += 2
	}
	for _, w := range zhChangeWords {
		if strings.Contains(text, w) {
			score++
			break
		}
	}
	if zhRuleRe.MatchString(text) {
		score += 2
	}
	if zhHabitRe.MatchString(text) {
		score++
	}
	return score
}

// zhQuestionEnds close a question: 吗, 呢, 么 ("手术顺利吗").
var zhQuestionEnds = []string{"吗", "呢", "么"}

// zhQuestionWords ask whatever ends the sentence: which, how much, what
// time, whether ("南大和厦大选哪个啊").
var zhQuestionWords = []string{"哪个", "哪里", "多少", "几点", "要不要", "能不能", "是不是", "为什么"}

// zhChatWords are sympathy, encouragement and thanks: 辛苦 (you worked
// hard), 保重 (take care), 加油, 抱抱, 恭喜, 谢谢: the reply, not the news.
var zhChatWords = []string{"辛苦", "保重", "加油", "抱抱", "恭喜", "谢谢"}

// chineseSmallTalk reports whether a Chinese sentence asks, without a
// question mark (Chinese chat often drops it), or is thanks or sympathy.
// dated says the sentence has a date of its own and the first person: a
// question that floats a plan ("我下周四来杭州…可以吗") is kept as the
// English rules keep one.
func chineseSmallTalk(text string, dated bool) bool {
	for _, w := range zhChatWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	if dated {
		return false
	}
	s := strings.TrimRightFunc(text, func(r rune) bool { return !spacelessRune(r) })
	for _, e := range zhQuestionEnds {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	for _, w := range zhQuestionWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// zhChainRe asks for a message to be passed on: 转发到十个群, 请转发, 扩散:
// a chain message, a hoax as often as not, whoever posts it.
var zhChainRe = lazyRegexp(`转发(?:到|给)|请转发|转发出去|扩散|转给.{0,6}(?:朋友|亲人|家人|群)`)

// chainMessage reports whether a turn is a chain message (zhChainRe): no
// person's news.
func chainMessage(content string) bool { return hasHan(content) && zhChainRe.MatchString(content) }

// zhConventionRe marks what an owner states about a project in Chinese,
// by its function words: 不要 / 不许 / 别 (don't), 一律 / 统一 (always,
// all), 只 (only), 不碰 (leave alone), 格式 (the format), 必须, 禁止, 保留
// (keep), 按…算 (count by), 用…不用 (use … not …).
var zhConventionRe = lazyRegexp(`不要|不许|不准|别用|别改|别动|一律|统一|只在|只用|只能|只读|不碰|不动|格式|必须|禁止|保留|按.{1,20}算|永远|每次|依赖|一个\S{1,6}一个`)

// zhConventions counts the convention markers of a Chinese sentence of a
// coding session, at most two.
func zhConventions(text string) int {
	if !chinese(text) {
		return 0
	}
	return len(zhConventionRe.FindAllStringIndex(text, 2))
}

// zhOutcomeRe marks an assistant's report in Chinese of how the work
// ended: 总结 (summary), 已提交 (committed), 测试通过 (tests pass).
var zhOutcomeRe = lazyRegexp(`总结|小结|已提交|已经提交|没有提交|未提交|测试通过|已完成`)

// zhMediaRe opens a Chinese chat's voice message or photo that carries
// its sender's words: "[语音] 转文字：…" (WeChat's voice-to-text), "[图片]\n今天正式退休了…",
// or a voice-to-text line of its own ("转文字：…").
var zhMediaRe = lazyRegexp(`^\s*(?:\[(?:语音|图片|视频|照片)\]\s*)?转文字[:：]\s*|^\s*\[(?:语音|图片|视频|照片)\]\s*\n\s*`)

// zhMediaText is a turn's content without the placeholder and label of
// zhMediaRe: the sender's words, which are read as any others.
func zhMediaText(content string) string {
	if !strings.Contains(content, "转文字") && !strings.HasPrefix(strings.TrimSpace(content), "[") {
		return content
	}
	if loc := zhMediaRe.FindStringIndex(content); loc != nil && loc[1] < len(content) {
		return content[loc[1]:]
	}
	return content
}

// cardOpenRe opens a Chinese bot's card with its label in 【】:
// "【上线通知】…", "【审批通过】…". A person's announcement opens so too
// ("【群公告】"), once: a speaker every line of which opens with a card or
// an emoji is a bot (botSpeaker).
var cardOpenRe = lazyRegexp(`^\s*【[^】\n]{1,12}】`)

// zhOpenerRe is a clause that opens a Chinese message and says nothing:
// agreement (对啊, 好啊, 嗯), "let me tell you" (跟你说, 跟大家说一下,
// 介绍一下), a reaction (完蛋, 忙疯了), a reply of a word or two.
var zhOpenerRe = lazyRegexp(`^(?:[哎诶唉嗯哦啊]?(?:我)?跟(?:你|大家|您)(?:说(?:个事|一下)?|报告|报个平安)|介绍一下|说一下|对了|\p{Han}{1,3})$`)

// zhFeelingRe is how someone feels or a comfort (紧张, 担心, 好慌): a
// clause of it closing a message is small talk around the news.
var zhFeelingRe = lazyRegexp(`紧张|担心|好慌|慌啊|开心|激动|难过|舍不得|想你|不好意思`)

// zhClauseRe parts a Chinese sentence into clauses: at its commas and, in
// voice-to-text without punctuation, at its spaces.
var zhClauseRe = lazyRegexp(`[，,]\s*|\s+`)

// trimChinese cuts what says nothing from a Chinese sentence: an opening
// clause (zhOpenerRe) and any clause of feeling or comfort (zhFeelingRe)
// or one that only addresses the listener, with no digit: "对，4月1号开始
// 我当设计组长了" keeps "4月1号开始我当设计组长了", "…明天就可以下床 大家
// 不用担心 桐桐…" loses "大家不用担心". What is kept is the speaker's words as
// written, clause by clause.
func trimChinese(text string) string {
	if !chinese(text) {
		return text
	}
	for {
		loc := zhClauseRe.FindStringIndex(text)
		if loc == nil {
			break
		}
		head := text[:loc[0]]
		if hasDigit(head) || !zhOpenerRe.MatchString(head) || !hasSpaceless(text[loc[1]:]) {
			break
		}
		text = text[loc[1]:]
	}
	locs := zhClauseRe.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return text
	}
	var b strings.Builder
	start, kept := 0, 0
	for k := 0; k <= len(locs); k++ {
		end, next := len(text), len(text)
		if k < len(locs) {
			end, next = locs[k][0], locs[k][1]
		}
		clause := text[start:end]
		sep := text[end:next]
		start = next
		if !hasDigit(clause) && (zhFeelingRe.MatchString(clause) || addressesListener(clause)) && !(k == len(locs) && kept == 0) {
			continue
		}
		b.WriteString(clause)
		b.WriteString(sep)
		kept++
	}
	return strings.TrimRight(b.String(), "，, ")
}

// addressesListener reports whether a clause asks or tells the listener
// something without news of its own: "我妈那边你帮我说说", "你不要担心".
func addressesListener(clause string) bool {
	return strings.Contains(clause, "你") && chineseScore(clause, nil, true) == 0
}

// zhShapeRes are the shapes chineseScore reads, for zhEchoes.
var zhShapeRes = []*lazyRE{cjkShapeRe, zhDateRe, zhAmountRe, zhMeasureRe}

// zhEchoes reports whether every date, amount and measure of a Chinese
// sentence of turn i was written by someone else in the three turns
// before it ("30公里…我做后勤" after "…30公里…"): it takes note of the
// news, as takesNote says of a sentence read by shape.
func (d *distiller) zhEchoes(i int, text string) bool {
	folded := foldWidth(asciiDigits(text))
	var shapes []string
	for _, re := range zhShapeRes {
		shapes = append(shapes, re.FindAllString(folded, -1)...)
	}
	if len(shapes) == 0 {
		return false
	}
	var before strings.Builder
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if t := d.s.Turns[k]; t.Speaker != d.s.Turns[i].Speaker || t.Role != d.s.Turns[i].Role {
			before.WriteString(foldWidth(asciiDigits(t.Content)))
		}
	}
	for _, sh := range shapes {
		if !strings.Contains(before.String(), sh) {
			return false
		}
	}
	return true
}

// replaceWo writes subject for 我 (I, me), with a space between a name
// ending in a Latin letter or a digit and a letter or digit after it:
// "我10月在云南" is "雨桐Yutong 10月在云南", not the "Yutong10" no turn
// holds.
func replaceWo(text, subject string) string {
	last, _ := utf8.DecodeLastRuneInString(subject)
	latin := last < utf8.RuneSelf && (unicode.IsLetter(last) || unicode.IsDigit(last))
	var b strings.Builder
	for k, part := range strings.Split(text, "我") {
		if k > 0 {
			b.WriteString(subject)
			if next, _ := utf8.DecodeRuneInString(part); latin && next < utf8.RuneSelf && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(part)
	}
	return b.String()
}
