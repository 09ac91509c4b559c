package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/proposals"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// ownerTurns are a ChatGPT chat (speakerless: the owner at a terminal) and
// a WhatsApp chat where import --owner named the owner "Siggi" and a
// paired friend speaks more often than the owner.
func ownerTurns(t *testing.T, state string) {
	t.Helper()
	promptImport(t, state,
		promptNode{"chatgpt", "chat1", "t001", "user", "owner", false, "", "", "", "Bike gears skipping", "2025-09-14T08:20:00Z", "I am vegetarian."},
		promptNode{"chatgpt", "chat1", "t002", "assistant", "", false, "", "", "", "Bike gears skipping", "2025-09-14T08:21:00Z", "Good to know."},
		promptNode{"whatsapp", "flat", "t001", "user", "owner", true, "wa-1", "Siggi", "", "Flat 3B", "2025-05-10T09:12:00Z", "I moved to Leeds."},
		promptNode{"whatsapp", "flat", "t002", "user", "paired", true, "wa-2", "Ben Okoro", "", "Flat 3B", "2025-05-10T09:13:00Z", "I am still in Sheffield."},
		promptNode{"whatsapp", "flat", "t003", "user", "paired", true, "wa-2", "Ben Okoro", "", "Flat 3B", "2025-05-10T09:14:00Z", "I work at the hospital."},
		promptNode{"whatsapp", "flat", "t004", "user", "paired", true, "wa-2", "Ben Okoro", "", "Flat 3B", "2025-05-10T09:15:00Z", "I have two cats."})
}

// TestWrite_OwnerNameLearned: the owner's facts from a speakerless chat
// are about the name the owner's own named turns carry, and are filed
// with them in people/<name>.md, never in people/owner.md as "the
// owner". A paired friend who speaks more is not the owner.
func TestWrite_OwnerNameLearned(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	ownerTurns(t, state)
	e := wtOpen(t, state, nil)
	got, err := writer.OwnerName(ctx, e)
	if err != nil || got.Name != "Siggi" || got.Source != writer.OwnerNameLearned || got.File != "topics/people/siggi.md" {
		t.Fatalf("OwnerName = %+v, %v; want Siggi, learned", got, err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	if _, ok := topics["topics/people/owner.md"]; ok {
		t.Errorf("people/owner.md was written:\n%s", topics["topics/people/owner.md"])
	}
	siggi := topics["topics/people/siggi.md"]
	for _, want := range []string{"Siggi is vegetarian", "Leeds"} {
		if !strings.Contains(siggi, want) {
			t.Errorf("people/siggi.md lacks %q:\n%s", want, siggi)
		}
	}
	for p, text := range topics {
		if strings.Contains(strings.ToLower(text), "the owner") {
			t.Errorf("%s calls the owner \"the owner\":\n%s", p, text)
		}
	}
}

// TestWrite_OwnerNameConfigured: config.toml's [owner] name wins over the
// learned one, for the speakerless chat and the owner's named turns alike.
func TestWrite_OwnerNameConfigured(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	ownerTurns(t, state)
	if err := os.WriteFile(workspace.ConfigPath(state), []byte("[owner]\nname = \"Sigrid Halvorsen\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	got, err := writer.OwnerName(ctx, e)
	if err != nil || got.Name != "Sigrid Halvorsen" || got.Source != writer.OwnerNameConfig || len(got.Learned) != 1 {
		t.Fatalf("OwnerName = %+v, %v", got, err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	sigrid := topics["topics/people/sigrid-halvorsen.md"]
	for _, want := range []string{"Sigrid Halvorsen is vegetarian", "Leeds"} {
		if !strings.Contains(sigrid, want) {
			t.Errorf("people/sigrid-halvorsen.md lacks %q:\n%s", want, sigrid)
		}
	}
	for _, p := range []string{"topics/people/owner.md", "topics/people/siggi.md"} {
		if _, ok := topics[p]; ok {
			t.Errorf("%s was written:\n%s", p, topics[p])
		}
	}
}

// TestWrite_OwnerNameNone: with no name anywhere the owner is "the owner"
// in people/owner.md, as before.
func TestWrite_OwnerNameNone(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state,
		promptNode{"chatgpt", "chat1", "t001", "user", "owner", false, "", "", "", "Food", "2025-09-14T08:20:00Z", "I am vegetarian."})
	e := wtOpen(t, state, nil)
	if got, err := writer.OwnerName(ctx, e); err != nil || got.Name != "" || got.Source != writer.OwnerNameNone {
		t.Fatalf("OwnerName = %+v, %v", got, err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if owner := wtTopics(t, state)["topics/people/owner.md"]; !strings.Contains(owner, "The owner is vegetarian") {
		t.Errorf("people/owner.md:\n%s", owner)
	}
}

// TestOwnerWording: "the owner" becomes the name outside quotes only.
func TestOwnerWording(t *testing.T) {
	w := writer.OwnerWording("Sigrid")
	for in, want := range map[string]string{
		"The owner prefers tea.[^e-1] ":                        "Sigrid prefers tea.[^e-1] ",
		"Explain it to the owner: the owner's bike is old.":    "Explain it to Sigrid: Sigrid's bike is old.",
		`The owner said: "the owner of the flat is Ben."`:      `Sigrid said: "the owner of the flat is Ben."`,
		"The owner said: “the owner pays” and the owner left.": "Sigrid said: “the owner pays” and Sigrid left.",
		"The owners' meeting; theowner":                        "The owners' meeting; theowner",
	} {
		if got := w(in); got != want {
			t.Errorf("OwnerWording(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedistill_OwnerName: redistilling the old writer's turn blocks of a
// speakerless chat files the owner's facts under the owner's name.
func TestRedistill_OwnerName(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state,
		promptNode{"chatgpt", "chat1", "t001", "user", "owner", false, "", "", "", "Work", "2025-09-14T08:20:00Z", "I work as a nurse at St Mary's hospital in Leeds."},
		promptNode{"chatgpt", "chat1", "t002", "assistant", "", false, "", "", "", "Work", "2025-09-14T08:21:00Z", "That sounds demanding."})
	e := wtOpen(t, state, nil)
	if _, err := writer.WriteTurnBlocks(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(workspace.ConfigPath(state), []byte("[owner]\nname = \"Sigrid\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e = wtOpen(t, state, nil)
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	if got := topics["topics/people/sigrid.md"]; !strings.Contains(got, "Sigrid works as a nurse") {
		t.Errorf("people/sigrid.md:\n%s\nall: %v", got, threadFilesOf(topics))
	}
	if _, ok := topics["topics/people/owner.md"]; ok {
		t.Errorf("people/owner.md was written:\n%s", topics["topics/people/owner.md"])
	}
}
