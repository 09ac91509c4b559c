package distill

import (
	"strings"
	"testing"
	"time"
)

// Round sixteen, in Chinese sentences written here (not from the labelled
// set): Chinese is read by its shapes (dates with 号, lunar dates,
// amounts in 千 and 万, an amount with what it is) and by a closed list of
// words of a life's events, changes of plan, rules and habits (chinese.go).

// A Chinese chat's amounts and dates are kept; its questions without a
// question mark, thanks and sympathy are not.
func TestDistil_ChineseAmountsAndDates(t *testing.T) {
	lines := []string{
		"阿杰: 在吗",
		"小敏: 在",
		"阿杰: 新工作定了，月薪到手一万五左右",
		"小敏: 可以啊",
		"阿杰: 车位也租了，每个月租金600块",
		"小敏: 辛苦了，搬家累不累",
		"阿杰: 爷爷的寿宴定在农历九月初九，中午十二点",
		"小敏: 你爸的手术顺利吗",
		"阿杰: 下个礼拜我去成都出差，15号下午4点的高铁",
	}
	joined := keptTexts(t, chat(saturday, "wechat", "zh17a", "小敏", lines...))
	for _, w := range []string{"一万五", "600块", "农历九月初九", "15号下午4点"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"在吗", "辛苦", "顺利吗"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

// A life's event, a change of plan and a standing rule in Chinese are
// facts with no date or amount to hold them.
func TestDistil_ChineseEventsAndRules(t *testing.T) {
	lines := []string{
		"表姐: 跟你说个事，我怀孕了",
		"小敏: 天哪！",
		"表姐: 我对海鲜过敏，聚餐别点虾",
		"小敏: 记住了",
		"表姐: 同学会推迟到10月8号了",
		"小敏: 好",
		"表姐: 以后周末的家庭聚会都在我家办",
	}
	joined := keptTexts(t, chat(saturday, "wechat", "zh17b", "小敏", lines...))
	for _, w := range []string{"怀孕", "海鲜过敏", "推迟到10月8号", "以后周末的家庭聚会都"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	if strings.Contains(joined, "跟你说个事") {
		t.Errorf("the opener kept in:\n%s", joined)
	}
}

// A chain message is no one's news; a voice message's voice-to-text is
// its sender's words.
func TestDistil_ChineseChainAndVoice(t *testing.T) {
	lines := []string{
		"三姨: 【重要通知】从下个月1号开始银行卡都要重新办，请转发给所有亲人！",
		"小敏: 这是谣言",
		"三姨: [语音] 转文字：我下个月3号退休了 单位给我们开了欢送会",
		"小敏: 好的",
	}
	joined := keptTexts(t, chat(saturday, "wechat", "zh17c", "小敏", lines...))
	if strings.Contains(joined, "银行卡") {
		t.Errorf("a chain message kept:\n%s", joined)
	}
	if !strings.Contains(joined, "退休") || strings.Contains(joined, "转文字") {
		t.Errorf("the voice-to-text not kept as the sender's words:\n%s", joined)
	}
}

// A speaker whose every line is a 【card】 or opens with an emoji is a
// bot: its cards are no facts, though they hold dates.
func TestDistil_ChineseBotCards(t *testing.T) {
	lines := []string{
		"发布机器人: 【发布通知】订单服务 v2.3 已上线，发布人：老王",
		"老王: 收到",
		"发布机器人: 📌 老王 将一条消息设为群公告",
		"发布机器人: 【发布通知】订单服务 v2.4 计划于3月12日上线",
		"小敏: 3月12日我请假，我的值班换成了3月19日",
	}
	joined := keptTexts(t, chat(saturday, "feishu", "zh17d", "小敏", lines...))
	if strings.Contains(joined, "发布通知") || strings.Contains(joined, "v2.") {
		t.Errorf("a bot's card kept:\n%s", joined)
	}
	if !strings.Contains(joined, "3月19日") {
		t.Errorf("the person's change dropped:\n%s", joined)
	}
}

// A coding session in Mandarin: the owner's conventions are read by
// their markers, and the assistant's Chinese summary is the outcome.
func TestDistil_ChineseCodingSession(t *testing.T) {
	at := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "zh17e", Project: "/home/dev/jizhang", Turns: []Turn{
		{Ref: "claude-code/zh17e/t1", Role: RoleUser, Owner: true, Time: at, Content: "给记账页面加一个月度汇总。"},
		{Ref: "claude-code/zh17e/t2", Role: RoleAssistant, Time: at, Content: "好的，我先看一下现有的页面结构。"},
		{Ref: "claude-code/zh17e/t3", Role: RoleUser, Owner: true, Time: at, Content: "金额一律用整数分存，不许用浮点数"},
		{Ref: "claude-code/zh17e/t4", Role: RoleAssistant, Time: at, Content: "明白，我用 `Long` 存分。"},
		{Ref: "claude-code/zh17e/t5", Role: RoleUser, Owner: true, Time: at, Content: "测试只在根目录跑：make test"},
		{Ref: "claude-code/zh17e/t6", Role: RoleAssistant, Time: at, Content: "总结：新增了 `summary/monthly.go`，按月汇总收支，金额用整数分；4 个单元测试通过，已提交到 `feature/monthly`。"},
	}}
	facts, sum := DistilAll(s)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
	}
	joined := strings.Join(texts, "\n")
	for _, w := range []string{"一律用整数分存", "只在根目录跑", "monthly.go"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	if strings.Contains(joined, "我先看一下") {
		t.Errorf("the assistant's narration kept:\n%s", joined)
	}
	if !strings.Contains(sum.Text, "monthly.go") {
		t.Errorf("summary %q does not report the outcome", sum.Text)
	}
}
