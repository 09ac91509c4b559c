package distill

import (
	"strings"
	"testing"
)

// Small talk in the distiller's blocks (chat16), in sentences written here
// (not from the labelled set).

// A verdict that calls someone a saint, a legend or a lifesaver is praise,
// not news: opinionRe always had the words, but its literal prefilter
// (opinionHints) did not, so the pattern never ran on them.
func TestDistil_PraiseByEpithetIsSmallTalk(t *testing.T) {
	lines := []string{
		"Rosa: Marta's dad drove the kids to school all week",
		"Ilse: Perfect. Marta's dad is a saint",
		"Rosa: and Lotte's grandad is an absolute legend, he fixed the boiler",
		"Ilse: Dario's mum is a real lifesaver",
		"Rosa: my brother Marco starts his new job at the bakery on Monday 3 March",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "epithets", "Ilse", lines...))
	for _, b := range []string{"saint", "legend", "lifesaver"} {
		if strings.Contains(joined, b) {
			t.Errorf("praise %q kept in:\n%s", b, joined)
		}
	}
	if !strings.Contains(joined, "bakery") {
		t.Errorf("the news was dropped:\n%s", joined)
	}
}
