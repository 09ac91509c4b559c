package distill

import (
	"strings"
	"testing"
)

// Round eight, in sentences written here (not from the labelled set).

// A tapback quotes someone else's message ("Loved “…”", "reacted 😂 to
// "…""), and a forward behind "⏩" is no one's news in this chat; the
// message reacted to is still kept where it was said.
func TestDistil_ReactionsAndFastForward(t *testing.T) {
	s := chat(saturday, "imessage", "react8", "Mira",
		"Tomas: The vet moved Biscuit's surgery to 14 March, 9 in the morning",
		"Mira: Loved “The vet moved Biscuit's surgery to 14 March”",
		"Mira: Laughed at “the landlord wants the keys by Friday”",
		"Mira: reacted 🙏 to \"Flights booked for 3 June!\"",
		"Tomas: ⏩ Forwarded\nATTENTION!! From 1 April every account pays 5 euros unless you send this to 10 people",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "14 March") {
		t.Errorf("the news itself was dropped:\n%s", joined)
	}
	for _, bad := range []string{"Loved", "Laughed", "Flights", "5 euros", "keys"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a reaction or forward %q kept in:\n%s", bad, joined)
		}
	}
}
