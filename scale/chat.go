package scale

// A group chat export for the importer and the writer (issue 23: "a group
// chat of 10,000 messages imports and writes in seconds"): WhatsApp's
// Android "Export chat" text, which the importer reads as it reads a
// phone's.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// ChatSeed is the seed of the group chat benchmarks.
const ChatSeed uint64 = 23

// ChatMembers are the senders of WhatsAppGroup, the owner first: the
// benchmarks name ChatMembers[0] --owner and ChatMembers[1] --paired.
var ChatMembers = []string{"Mara Silva", "Ben Okafor", "Chiara Rossi", "Dev Patel", "Eli Cohen",
	"Fatima Noor", "Gus Weber", "Hana Sato"}

// WhatsAppGroup returns a WhatsApp group chat export of n messages (US
// English Android layout: "12/31/23, 9:15 PM - Name: text"): the encryption
// notice, the group's creation and joins, then n messages from
// ChatMembers in time order, some of them several lines long, media
// placeholders and deleted messages among them (those are skipped, so a
// few fewer than n become turns). The same n and seed give the same bytes.
func WhatsAppGroup(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := newTextGen(r)
	var b strings.Builder
	t := time.Date(2024, 1, 8, 9, 0, 0, 0, time.UTC)
	stamp := func() string {
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		ampm := "AM"
		if t.Hour() >= 12 {
			ampm = "PM"
		}
		return fmt.Sprintf("%d/%d/%02d, %d:%02d %s", t.Month(), t.Day(), t.Year()%100, h, t.Minute(), ampm)
	}
	fmt.Fprintf(&b, "%s - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.\n", stamp())
	fmt.Fprintf(&b, "%s - %s created group \"Release train\"\n", stamp(), ChatMembers[0])
	for _, m := range ChatMembers[1:] {
		fmt.Fprintf(&b, "%s - %s added %s\n", stamp(), ChatMembers[0], m)
	}
	for range n {
		t = t.Add(time.Duration(r.IntN(9)) * time.Minute)
		who := ChatMembers[r.IntN(len(ChatMembers))]
		var text string
		switch k := r.IntN(100); {
		case k < 3:
			text = "<Media omitted>"
		case k < 4:
			text = "This message was deleted"
		case k < 12:
			text = g.english(who) + "\n" + g.english(who)
		default:
			text = g.english(who)
		}
		fmt.Fprintf(&b, "%s - %s: %s\n", stamp(), who, text)
	}
	return []byte(b.String())
}
