package sessions

import (
	"context"
	"errors"
	"testing"
	"time"
)

// chatNodes is a group chat export of three messages from two senders.
func chatNodes(tier string) []Node {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return []Node{
		{Provider: "telegram", Session: "chat1", ID: "1", Role: "user", Content: "hello", SpeakerID: "user1", SpeakerDisplay: "Ana", Time: at, Tier: tier, Group: true},
		{Provider: "telegram", Session: "chat1", ID: "2", Parent: "1", Role: "user", Content: "typo", SpeakerID: "user2", SpeakerDisplay: "Ben", Time: at.Add(time.Minute), Tier: TierUnpaired, Group: true},
		{Provider: "telegram", Session: "chat1", ID: "3", Parent: "2", Role: "user", Content: "bye", SpeakerID: "user1", SpeakerDisplay: "Ana", Time: at.Add(2 * time.Minute), Tier: tier, Group: true},
	}
}

func addChat(t *testing.T, s *Store, nodes []Node) (ImportResult, error) {
	t.Helper()
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddChatNodes(nodes); err != nil {
		t.Fatal(err)
	}
	return b.Commit()
}

// TestImportBatch_ChatKeepsStored: a chat export that changed since the
// last import (an edit, a renamed sender, a deleted message that re-parents
// the next) keeps the stored nodes and counts the difference; the new
// messages are stored. Our own JSONL keeps the strict rule.
func TestImportBatch_ChatKeepsStored(t *testing.T) {
	s := mustOpen(t)
	if res, err := addChat(t, s, chatNodes(TierUnpaired)); err != nil || res.Imported != 3 {
		t.Fatalf("first import %+v, %v", res, err)
	}
	grown := chatNodes(TierUnpaired)
	grown[1].Content = "fixed typo"      // edited
	grown[0].SpeakerDisplay = "Ana Lima" // renamed
	grown[2].Parent = "1"                // as if 2 had been deleted
	grown = append(grown, Node{Provider: "telegram", Session: "chat1", ID: "4", Parent: "3", Role: "user", Content: "new",
		SpeakerID: "user2", Time: grown[2].Time.Add(time.Minute), Tier: TierUnpaired, Group: true})
	res, err := addChat(t, s, grown)
	if err != nil {
		t.Fatal(err)
	}
	if want := (ImportResult{Imported: 1, Sessions: 1, Changed: 3}); res != want {
		t.Errorf("grown import %+v, want %+v", res, want)
	}
	for id, want := range map[string]string{"1": "hello", "2": "typo", "3": "bye", "4": "new"} {
		n, err := s.Node(Key{"telegram", "chat1", id})
		if err != nil || n.Content != want {
			t.Errorf("node %s: %q, %v", id, n.Content, err)
		}
	}
	if n, _ := s.Node(Key{"telegram", "chat1", "3"}); n.Parent != "2" {
		t.Errorf("node 3's parent changed to %q", n.Parent)
	}
	if res, err := addChat(t, s, grown); err != nil || res.Imported != 0 || res.Changed != 3 || res.Duplicate != 1 {
		t.Errorf("third import %+v, %v", res, err)
	}

	// The same difference in our own JSONL is still a bad line.
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddNodes(grown[1:2]); err != nil {
		t.Fatal(err)
	}
	var ie *ImportError
	if _, err := b.Commit(); !errors.As(err, &ie) {
		t.Errorf("strict import of a changed node: %v", err)
	}
}

// TestImportBatch_ChatRetier: naming a sender owner after a first import
// moves their stored turns that are not written yet; written ones keep
// their tier and are counted.
func TestImportBatch_ChatRetier(t *testing.T) {
	s := mustOpen(t)
	if _, err := addChat(t, s, chatNodes(TierUnpaired)); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkWritten([]Key{{"telegram", "chat1", "1"}}, "ws1"); err != nil {
		t.Fatal(err)
	}
	res, err := addChat(t, s, chatNodes(TierOwner))
	if err != nil {
		t.Fatal(err)
	}
	if want := (ImportResult{Duplicate: 1, Retiered: 1, Changed: 1, TierKept: 1}); res != want {
		t.Errorf("re-import as owner %+v, want %+v", res, want)
	}
	for id, want := range map[string]string{"1": TierUnpaired, "2": TierUnpaired, "3": TierOwner} {
		if n, _ := s.Node(Key{"telegram", "chat1", id}); n.Tier != want {
			t.Errorf("node %s tier %s, want %s", id, n.Tier, want)
		}
	}
}

// TestImportBatch_ChatAcrossFiles: two files of one batch carrying the same
// message (overlapping exports) keep the first copy.
func TestImportBatch_ChatAcrossFiles(t *testing.T) {
	s := mustOpen(t)
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	first, second := chatNodes(TierUnpaired), chatNodes(TierUnpaired)
	second[2].Content = "bye!"
	if err := b.AddChatNodes(first); err != nil {
		t.Fatal(err)
	}
	if err := b.AddChatNodes(second); err != nil {
		t.Fatal(err)
	}
	res, err := b.Commit()
	if err != nil || res.Imported != 3 || res.Duplicate != 2 || res.Changed != 1 {
		t.Fatalf("Commit %+v, %v", res, err)
	}
	if n, _ := s.Node(Key{"telegram", "chat1", "3"}); n.Content != "bye" {
		t.Errorf("content %q", n.Content)
	}
}
