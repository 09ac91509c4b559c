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

// A reply's verdict on something ("boring", "weird", "crazy") names no
// fact, as chatRe's praise does not.
func TestDistil_ReplyVerdictIsSmallTalk(t *testing.T) {
	lines := []string{
		"Rosa: the city bought forty new trams for the ring line",
		"Ilse: ha, our new Tatra ones are boring compared",
		"Rosa: Jonas's flat in Utrecht is honestly weird, the shower is in the kitchen",
		"Ilse: and my brother Marco starts his new job at the bakery on Monday 3 March",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "verdicts", "Ilse", lines...))
	for _, b := range []string{"boring", "weird"} {
		if strings.Contains(joined, b) {
			t.Errorf("verdict %q kept in:\n%s", b, joined)
		}
	}
	if !strings.Contains(joined, "bakery") {
		t.Errorf("the news was dropped:\n%s", joined)
	}
}

// A chat's summary opens with its first dated or slotted fact, not with
// whatever the rules kept first: a chat's first kept sentence is small
// talk more often than its first dated one.
func TestSummary_OpensWithADatedFact(t *testing.T) {
	lines := []string{
		"Ana: my cousin Pia painted her whole kitchen yellow",
		"Ben: wow",
		"Ana: and my brother Tomas moves to Lisbon on 14 March",
		"Ben: my sister Ida started at the hospital in Porto, she loves it",
	}
	s := chat(saturday, "whatsapp", "opening", "Ana", lines...)
	sum := Summary(s)
	if !strings.Contains(sum.Text, "Lisbon") {
		t.Errorf("summary %q does not open with the dated fact", sum.Text)
	}
}
