package writereval

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/engine/enginetest"
)

// TestScore on a hand-made memory: every figure and finding from blocks
// whose answers are known.
func TestScore(t *testing.T) {
	var set enginetest.DistillSet
	set.Turns = []enginetest.DistillTurn{
		{Provider: "p", Session: "s", ID: "t1", Content: "I moved to York in March.", SpeakerDisplay: "Mel", Time: "2025-04-01T10:00:00Z"},
		{Provider: "p", Session: "s", ID: "t2", Content: "Congratulations!!", SpeakerDisplay: "Nadia", Time: "2025-04-01T10:01:00Z"},
		{Provider: "p", Session: "s", ID: "t3", Content: "I adopted a cat called Miso.", SpeakerDisplay: "Mel", Time: "2025-04-01T10:02:00Z"},
	}
	conv := enginetest.DistillConv{File: "x.txt", Provider: "p", Session: "s"}
	conv.Turns = append(conv.Turns, struct {
		Ref   string `json:"ref"`
		Class string `json:"class"`
	}{"p/s/t1", "fact"}, struct {
		Ref   string `json:"ref"`
		Class string `json:"class"`
	}{"p/s/t2", "chat"}, struct {
		Ref   string `json:"ref"`
		Class string `json:"class"`
	}{"p/s/t3", "fact"})
	conv.Facts = append(conv.Facts, struct {
		ID       string   `json:"id"`
		Subject  string   `json:"subject"`
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	}{ID: "move", Evidence: []string{"p/s/t1"}}, struct {
		ID       string   `json:"id"`
		Subject  string   `json:"subject"`
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	}{ID: "cat", Evidence: []string{"p/s/t3"}})
	set.Convs = []enginetest.DistillConv{conv}

	state := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(state, "memory", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	def := func(label, turn string) string {
		return "[^" + label + "]: Time: `2025-04-01`; Sources: [p/s/" + turn + "](../../sources/p/_v2/s.md#source-0000000" + turn[1:] + ")\n"
	}
	write("topics/people/mel.md", "# Mel\n\nMel moved to York in March.[^e-0000000001] ^00000001\n\n"+def("e-0000000001", "t1")+
		"\nMel is very happy about York.[^e-0000000002] ^00000002\n\n"+def("e-0000000002", "t1")+
		"\nI was congratulated.[^e-0000000003] ^00000003\n\n"+def("e-0000000003", "t2"))
	write("topics/threads/0b6a3f0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.md", "# s\n\nMel moved to York.[^e-0000000004] ^00000004\n\n"+def("e-0000000004", "t1"))
	write("topics/core.md", "# Core\n\nMel adopted a cat.[^e-0000000005] ^00000005\n\n"+def("e-0000000005", "t3"))

	fig, err := Score(state, set)
	if err != nil {
		t.Fatal(err)
	}
	// core.md is not counted: the cat fact is not covered.
	if fig.Files != 2 || fig.Blocks != 4 || fig.Gold != 2 || fig.Covered != 1 || fig.Precise != 3 || fig.Chat != 1 {
		t.Errorf("figures %+v", fig)
	}
	if math.Abs(fig.Coverage-0.5) > 1e-9 || math.Abs(fig.Precision-0.75) > 1e-9 || math.Abs(fig.ChatRate-0.25) > 1e-9 {
		t.Errorf("ratios %s", fig)
	}
	if len(fig.Invented) != 1 || len(fig.FirstPerson) != 1 || len(fig.UUIDNamed) != 1 {
		t.Errorf("invented %v, first person %v, uuid named %v", fig.Invented, fig.FirstPerson, fig.UUIDNamed)
	}
}
