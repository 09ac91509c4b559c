package distill

import (
	"strings"
	"testing"
)

// Round nine, in sentences written here (not from the labelled set).

// A speaker whose lines are mostly notices (an emoji, a label and a
// colon) is a bot, whatever it is called: all its lines go, the people's
// words about the same incident stay. One such line from a person keeps
// that person's other lines.
func TestDistil_BotByItsNotices(t *testing.T) {
	s := chat(saturday, "slack", "bot9", "Mira",
		"Opsgenie: 🚨 Alert: ORD-88 checkout error rate above 5% (prod)",
		"Opsgenie: Acknowledged by Tomas Berg",
		"Tomas: I renewed the card processor's certificate on 1 March, errors are back under 1%",
		"Opsgenie: ✅ Closed: ORD-88 (duration 14m)",
		"Opsgenie: 🗓 Rota changed: Mira Holm 3 Mar – 10 Mar",
		"Lena: 🎉 News: I passed the AWS exam on 2 March, finally",
		"Lena: I start the Kubernetes course on 20 April in Oslo",
	)
	joined := keptTexts(t, s)
	for _, bad := range []string{"ORD-88", "Acknowledged", "Rota changed"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a bot's notice %q kept in:\n%s", bad, joined)
		}
	}
	for _, want := range []string{"certificate", "20 April"} {
		if !strings.Contains(joined, want) {
			t.Errorf("a person's fact %q dropped from:\n%s", want, joined)
		}
	}
}
