package distill

import "testing"

// Korean news is read by its shapes with their particles and by its
// words; a sentence of chat around it is not.
func TestKoreanNews_ShapesAndEvents(t *testing.T) {
	for _, c := range []struct {
		text string
		min  int
	}{
		{"다음 달 5일에 이사하고 전세는 1억 8천이야", 3},    // a date with its particle, an amount, a move
		{"동생이 어제 대학원에 합격했어 3월부터 다녀", 2},     // an event and a month
		{"회의가 목요일로 미뤄져서 9시 반에 시작해", 2},      // a change of plan and a time of day
		{"팀장님이 다음 주에 퇴사하신대 송별회는 금요일 7시", 2}, // an event and a time
	} {
		if got := koreanNews(c.text, nil); got < c.min {
			t.Errorf("koreanNews(%q) = %d, want ≥ %d", c.text, got, c.min)
		}
	}
	for _, chat := range []string{"ㅋㅋㅋ 진짜 웃기다", "오늘 날씨 좋다 산책 가고 싶어", "고마워 언니 최고"} {
		if got := koreanNews(chat, nil); got > 0 {
			t.Errorf("koreanNews(%q) = %d, want 0", chat, got)
		}
	}
}

// An owner's coding rules in Korean are conventions by their markers.
func TestKoreanConventions(t *testing.T) {
	for _, text := range []string{
		"외부 패키지 추가하지 마. 표준 라이브러리만 써",
		"푸시하기 전에는 항상 lint 돌려",
		"설정값은 전부 settings.toml에 둬",
		"main 브랜치에 직접 커밋 금지",
	} {
		if koConventions(text) == 0 {
			t.Errorf("koConventions(%q) = 0, want a convention", text)
		}
	}
	if n := koConventions("이 함수 좀 읽어봐 줄래"); n != 0 {
		t.Errorf("a request counted %d conventions", n)
	}
}

// An assistant's Korean report opens with its label.
func TestKoreanOutcome(t *testing.T) {
	for _, text := range []string{"요약: 캐시 계층을 추가했고 테스트 12개가 통과합니다.", "정리: 아직 커밋하지 않았습니다."} {
		if !koOutcomeRe.MatchString(text) {
			t.Errorf("%q not read as a report", text)
		}
	}
	if koOutcomeRe.MatchString("파일 구조를 먼저 볼게요") {
		t.Error("a plan read as a report")
	}
}
