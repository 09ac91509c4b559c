package distill

import (
	"fmt"
	"os"
	"testing"
)

func TestChatProbe(t *testing.T) {
	if os.Getenv("DISTILL_DUMP") == "" {
		t.Skip()
	}
	lines := []string{
		"Jo: I don't drive, never got my licence.",
		"Sam: I'm not drinking anymore, six months sober now.",
		"Jo: I don't eat meat.",
		"Sam: We're not moving after all, the sale fell through.",
		"Jo: I never learned to swim.",
		"Sam: I can't have dairy, it makes me ill.",
		"Jo: No kids for us, we decided years ago.",
		"Sam: I'm no longer at the bank, I left in May.",
		"Jo: Tom doesn't work at Google anymore.",
		"Sam: I haven't smoked since March.",
	}
	s := chat(saturday, "whatsapp", "probe", "Jo", lines...)
	facts := Distil(s)
	kept := map[string][]string{}
	for _, f := range facts {
		kept[f.Cites[len(f.Cites)-1]] = append(kept[f.Cites[len(f.Cites)-1]], f.Text)
	}
	for _, tt := range s.Turns {
		fmt.Printf("%-80.80s => %q\n", tt.Content, kept[tt.Ref])
	}
}
