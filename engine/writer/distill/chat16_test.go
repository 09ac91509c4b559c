package distill

import (
	"strings"
	"testing"
	"time"
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

// A coding session's last word is an errand's acknowledgement ("Done —
// the typo is fixed; tests still pass"): the outcome is the report before
// it, and the errand is no block.
func TestDistil_AckAfterTheReportIsNoOutcome(t *testing.T) {
	at := time.Date(2026, 6, 10, 14, 10, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "s1", Project: "/home/dev/tidebook", Turns: []Turn{
		{Ref: "claude-code/s1/t1", Role: RoleUser, Owner: true, Time: at, Content: "Add CSV export of the tide table to the CLI."},
		{Ref: "claude-code/s1/t2", Role: RoleAssistant, Time: at, Content: "I'll look at the CLI first."},
		{Ref: "claude-code/s1/t3", Role: RoleAssistant, Time: at, Content: "`tidebook export --csv` now writes the tide table to stdout with ISO dates and heights in metres. Added a golden test; all 31 tests pass and it is committed as 5c1e9a0."},
		{Ref: "claude-code/s1/t4", Role: RoleUser, Owner: true, Time: at, Content: "nice. can you also fix the typo in the help text"},
		{Ref: "claude-code/s1/t5", Role: RoleAssistant, Time: at, Content: "Done — the typo in the help text is fixed; tests still pass."},
	}}
	facts, sum := DistilAll(s)
	for _, f := range append(facts, sum) {
		if strings.Contains(f.Text, "typo") {
			t.Errorf("the errand is a block: %q", f.Text)
		}
	}
	if !strings.Contains(sum.Text, "export") {
		t.Errorf("summary %q does not end with the report", sum.Text)
	}
}

// A session whose only report is an acknowledgement still ends with it.
func TestDistil_AckAloneIsTheOutcome(t *testing.T) {
	at := time.Date(2026, 6, 10, 14, 10, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "s2", Project: "/home/dev/tidebook", Turns: []Turn{
		{Ref: "claude-code/s2/t1", Role: RoleUser, Owner: true, Time: at, Content: "Rename the --out flag to --output everywhere in the CLI."},
		{Ref: "claude-code/s2/t2", Role: RoleAssistant, Time: at, Content: "Done — the flag is renamed to --output in all 4 commands and the tests still pass."},
	}}
	if sum := Summary(s); !strings.Contains(sum.Text, "renamed") {
		t.Errorf("summary %q lost the session's only report", sum.Text)
	}
}
