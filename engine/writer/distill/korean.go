package distill

import (
	"strings"
	"unicode"
)

// Korean is written with spaces, so it is read as an unread language,
// by its shapes (unread.go); but its particles cling to the numbers
// ("15일에", "2억 3천이야") and its news is told without one ("결혼해",
// "합격했어"). These are the shapes and words any Korean text says a fact
// with, not the words of one conversation: a date ("10월 18일", "20일"),
// an amount ("82만 원", "2억 3천"), a life's event, a change of plan, a
// rule or a habit. For a coding session, the markers of a convention
// (하지 마, 항상, 전부, 금지) and of an assistant's report (요약:, 정리:).

// koreanText reports whether text has Hangul.
func koreanText(text string) bool {
	for _, r := range text {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// koDateRe is a date in Korean: "10월 11일", "15일에", "6월말", "3월부터",
// "2/13".
var koDateRe = lazyRegexp(`\d{1,2}\s*월\s*(?:\d{1,2}\s*일|말|초|중순|부터|에|까지)|\d{1,2}\s*일(?:에|부터|까지|로|은|이|[\s.,]|$)|\d{1,2}/\d{1,2}`)

// koAmountRe is an amount: "82만 원", "2억 3천", "35,000원", "3.1kg".
var koAmountRe = lazyRegexp(`\d[\d,.]*\s*(?:억|만|천)|\d[\d,]*\s*원|\d+(?:\.\d+)?\s*(?:kg|km|m|점|주|년식)\b`)

// lifeEventsKo are the events of a life in Korean, by the theme they file
// a fact under, as stems (the verb's ending varies: 결혼해, 결혼했어).
var lifeEventsKo = map[string][]string{
	ThemeWork:        {"입사", "퇴사", "이직", "퇴직", "승진", "합격", "출근", "정규직", "자격"},
	ThemeFamily:      {"결혼", "약혼", "이혼", "임신", "출산", "태어", "돌아가셨", "팔순", "칠순", "환갑", "예정일"},
	ThemePlaces:      {"이사", "전세", "월세", "전입"},
	ThemeHealth:      {"알레르기", "다쳤", "부상", "수술", "입원", "퇴원", "골절", "진단"},
	ThemePossessions: {"샀다", "샀어", "구입", "중고"},
	ThemeHabits:      {"매주", "매일", "완등"},
}

// koClockRe is a time of day: "8시", "12시 반", "오후 3시".
var koClockRe = lazyRegexp(`\d{1,2}\s*시(?:\s*\d{1,2}\s*분|\s*반)?(?:에|까지|부터|쯤|[\s.,]|$)`)

// koChangeRe says a plan changed: moved to, put off, brought forward.
var koChangeRe = lazyRegexp(`옮겼|옮깁니다|미뤘|미뤄|앞당겨|바꿔|변경|연기|취소|조정`)

// koreanNews scores a Korean sentence by its shapes and words, one each:
// a date, an amount, a time of day, a life's event, a change of plan; it files the
// events' themes in hits.
func koreanNews(raw string, hits map[string]int) int {
	score := 0
	text := asciiDigits(raw)
	if koDateRe.MatchString(text) {
		score++
	}
	if koAmountRe.MatchString(text) {
		score++
	}
	for _, theme := range themeOrder {
		for _, w := range lifeEventsKo[theme] {
			if strings.Contains(raw, w) {
				score++
				if hits != nil {
					hits[theme]++
				}
				break
			}
		}
	}
	if koChangeRe.MatchString(raw) {
		score++
	}
	if koClockRe.MatchString(text) {
		score++
	}
	return min(score, 4)
}

// koConventionRe marks what an owner states about a project in Korean:
// 하지 마 (don't), 항상 (always), 절대 (never), 전부 / 모두 (all), 만
// (only, "표준 라이브러리만"), 금지 (forbidden), 전용 (only for), 로 해 /
// 으로 (do it as), 통과해야 (must pass), 붙이고 (prefix with).
var koConventionRe = lazyRegexp(`하지\s*마|지\s*마\b|않게|항상|절대|전부|모두|만\s*(?:써|쓰|해|돌|배포)|만\.|금지|전용|으로만|로만|통과해야|해야\s*돼|붙이고|접두사|한 줄`)

// koConventions counts the convention markers of a Korean sentence of a
// coding session, at most two.
func koConventions(text string) int {
	if !koreanText(text) {
		return 0
	}
	return len(koConventionRe.FindAllStringIndex(text, 2))
}

// koOutcomeRe marks an assistant's report in Korean of how the work
// ended: 요약: (summary), 정리: (wrap-up), 완료: (done), 커밋했 (committed).
var koOutcomeRe = lazyRegexp(`(?:^|\n)\s*(?:요약|정리|완료|결과)\s*:|커밋했|커밋하지 않았|통과했`)
