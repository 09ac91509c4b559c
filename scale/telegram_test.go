package scale

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/telegram"
)

// TestTelegramExport: the export is deterministic, at least the size
// asked, sniffed and read as a Telegram export whose turns are the ones
// the generator counted, with groups, forum topics and the owner in it.
func TestTelegramExport(t *testing.T) {
	var a, b bytes.Buffer
	n, turns, err := TelegramExport(&a, 4<<20, TelegramSeed)
	if err != nil || n != int64(a.Len()) || n < 4<<20 {
		t.Fatalf("wrote %d (%d in the buffer), %v", n, a.Len(), err)
	}
	if _, _, err := TelegramExport(&b, 4<<20, TelegramSeed); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two calls gave different bytes (%v)", err)
	}
	if !telegram.Sniff(a.Bytes()[:4096]) {
		t.Fatal("not sniffed as Telegram")
	}
	res, err := telegram.Parse(bytes.NewReader(a.Bytes()), "result.json", telegram.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turns) != turns {
		t.Errorf("%d turns, the generator counted %d; skipped %v", len(res.Turns), turns, res.Skipped)
	}
	var group, topic, owner, replies bool
	for _, tr := range res.Turns {
		group = group || tr.Group
		topic = topic || bytes.Contains([]byte(tr.Session), []byte(".topic"))
		owner = owner || tr.SpeakerID == TelegramOwner
		replies = replies || tr.ReplyTo != ""
		if tr.Provider != telegram.Provider || tr.Role != transcript.RoleUser {
			t.Fatalf("turn %+v", tr)
		}
	}
	if !group || !topic || !owner || !replies {
		t.Errorf("group %v, forum topic %v, owner %v, replies %v", group, topic, owner, replies)
	}
}
