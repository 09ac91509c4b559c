package scale

import (
	"bytes"
	"testing"

	"scriptorium/transcript/whatsapp"
)

// TestWhatsAppGroup: the export is deterministic and reads as a WhatsApp
// group chat of about n messages from every member.
func TestWhatsAppGroup(t *testing.T) {
	a, b := WhatsAppGroup(500, ChatSeed), WhatsAppGroup(500, ChatSeed)
	if !bytes.Equal(a, b) {
		t.Fatal("two calls gave different bytes")
	}
	res, err := whatsapp.Parse(bytes.NewReader(a), "gen.txt", whatsapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	senders := map[string]int{}
	for _, tr := range res.Turns {
		senders[tr.SpeakerDisplay]++
		if !tr.Group || tr.Title != "Release train" {
			t.Fatalf("turn %+v", tr)
		}
	}
	if n := len(res.Turns); n < 480 || n > 500 || len(senders) != len(ChatMembers) {
		t.Errorf("%d turns from %d senders; skipped %v", n, len(senders), res.Skipped)
	}
}
