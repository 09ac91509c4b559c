package distill

import "testing"

// trimChinese cuts an opener, a feeling and a word to the listener, and
// leaves a clause with a digit.
func TestTrimChinese(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"对，下周一开始我去新公司上班，好紧张", "下周一开始我去新公司上班"},
		{"跟你说个事，我们搬到了滨湖区", "我们搬到了滨湖区"},
		{"手术定在5号 你不要担心 住院三天", "手术定在5号 住院三天"},
		{"好紧张，8号考试", "8号考试"},
		{"紧张死了", "紧张死了"}, // nothing else to keep
		{"Moving on Friday", "Moving on Friday"},
	} {
		if got := trimChinese(tc.in); got != tc.want {
			t.Errorf("trimChinese(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// 我 written as a name ending in a Latin letter keeps the name apart from
// a digit or a Latin word after it.
func TestReplaceWo(t *testing.T) {
	for _, tc := range []struct{ in, subject, want string }{
		{"我10月去云南", "小林Lin", "小林Lin 10月去云南"},
		{"我明天到", "小林Lin", "小林Lin明天到"},
		{"我10月去云南", "小林", "小林10月去云南"},
	} {
		if got := replaceWo(tc.in, tc.subject); got != tc.want {
			t.Errorf("replaceWo(%q, %q) = %q, want %q", tc.in, tc.subject, got, tc.want)
		}
	}
}

// A Chinese amount, a date by 号 and a lunar date are shapes; a bare
// number is not.
func TestChineseScore_Shapes(t *testing.T) {
	for _, tc := range []struct {
		text string
		min  int
	}{
		{"预算3千5", 3}, {"一共1.2万", 3}, {"农历八月十五", 2}, {"24号", 2}, {"到手两万出头", 2},
		{"我对花生过敏", 2}, {"以后每个周日都回家", 3}, {"会议改到周四", 1},
	} {
		if got := chineseScore(tc.text, nil, true); got < tc.min {
			t.Errorf("chineseScore(%q) = %d, want ≥ %d", tc.text, got, tc.min)
		}
	}
	if got := chineseScore("我们三个人去", nil, true); got != 0 {
		t.Errorf("chineseScore of no shape = %d", got)
	}
}
