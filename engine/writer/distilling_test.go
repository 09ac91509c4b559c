package writer_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/revert"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// TestWrite_DistilsNotCopies (issue 22 §1): the offline write keeps an
// owner's durable facts as third-person blocks under theme headings, the
// session as one block in threads/, and none of the greetings, thanks or
// narration; no block carries a role prefix; every turn it read is marked
// written, those that gave no fact too.
func TestWrite_DistilsNotCopies(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("",
		wtTurn{Session: "chat1", ID: "c1", Role: "user", Content: "Hi there!"},
		wtTurn{Session: "chat1", ID: "c2", Role: "assistant", Content: "Hello! How can I help you today?"},
		wtTurn{Session: "chat1", ID: "c3", Role: "user", Content: "I work as a nurse at St Mary's hospital in Leeds."},
		wtTurn{Session: "chat1", ID: "c4", Role: "assistant", Content: "Let me look at the rota options for you:"},
		wtTurn{Session: "chat1", ID: "c5", Role: "user", Content: "I'm allergic to penicillin."},
		wtTurn{Session: "chat1", ID: "c6", Role: "user", Content: "Thanks!"},
	)...)
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	owner := topics["topics/people/owner.md"]
	for _, want := range []string{"## Work", "The owner works as a nurse at St Mary's hospital in Leeds.", "## Health", "The owner is allergic to penicillin."} {
		if !strings.Contains(owner, want) {
			t.Errorf("people/owner.md lacks %q:\n%s", want, owner)
		}
	}
	threads := 0
	for p, c := range topics {
		for _, bad := range []string{"Hi there", "How can I help", "Let me look", "Thanks!", "user:", "assistant:"} {
			if strings.Contains(c, bad) {
				t.Errorf("%s keeps %q:\n%s", p, bad, c)
			}
		}
		if strings.HasPrefix(p, "topics/threads/") {
			threads++
			if strings.Contains(p, "chat1") {
				t.Errorf("thread file %s is named by the session id", p)
			}
			if !strings.HasPrefix(c, "# The owner, 2026-08-10\n") {
				t.Errorf("thread file %s's title:\n%s", p, c)
			}
		}
	}
	if threads != 1 {
		t.Errorf("%d thread files, want the session's one: %v", threads, topics)
	}
	if n := sessions.PendingTurnCount(workspace.SessionsDB(state), e.WorkspaceID()); n != 0 {
		t.Errorf("%d turns still pending: the turns without a fact were not marked written", n)
	}
	ftVerifyClean(t, e)
}

// TestWrite_MergesAcrossSessions (issue 22 §1, Merge): a fact restated in
// a later session adds its citation to the block already there; a changed
// value replaces the block's text, cites both turns, and revert brings
// the old text back.
func TestWrite_MergesAcrossSessions(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("", wtTurn{Session: "a", ID: "a1", Role: "user", Content: "I live in Sheffield with my partner."})...)
	e := wtOpen(t, state, nil)
	write := func() {
		t.Helper()
		if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	write()
	wtImport(t, state, wtTurn{Session: "b", ID: "b1", Role: "user", Content: "I live in Sheffield with my partner.", Time: wtTime(60)})
	write()
	owner := wtTopics(t, state)["topics/people/owner.md"]
	if n := strings.Count(owner, "The owner lives in Sheffield"); n != 1 {
		t.Fatalf("the restated fact is in %d blocks, want 1:\n%s", n, owner)
	}
	cites := wtCitations(t, state)
	if cites["openprogram/a/a1"] == 0 || cites["openprogram/b/b1"] == 0 {
		t.Fatalf("the block does not cite both turns: %v\n%s", cites, owner)
	}
	rev := ftRevision(t, e)
	wtImport(t, state, wtTurn{Session: "c", ID: "c1", Role: "user", Content: "I moved to York in March.", Time: wtTime(120)})
	write()
	owner = wtTopics(t, state)["topics/people/owner.md"]
	if strings.Contains(owner, "Sheffield") || !strings.Contains(owner, "York") {
		t.Fatalf("the move did not replace the home:\n%s", owner)
	}
	if cites := wtCitations(t, state); cites["openprogram/a/a1"] == 0 || cites["openprogram/c/c1"] == 0 {
		t.Errorf("the replaced block does not cite the old and the new turn: %v", cites)
	}
	if _, err := revert.Revert(ctx, e, rev+1, false); err != nil {
		t.Fatal(err)
	}
	if owner := wtTopics(t, state)["topics/people/owner.md"]; !strings.Contains(owner, "The owner lives in Sheffield") {
		t.Errorf("revert did not bring the old text back:\n%s", owner)
	}
	ftVerifyClean(t, e)
}

// TestWrite_CJKSpeakerFile: a topic file for a speaker whose name starts
// with a multi-byte letter gets a valid title (its first letter was cut in
// half: invalid UTF-8, the whole session refused).
func TestWrite_CJKSpeakerFile(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("",
		wtTurn{Session: "wx", Provider: "wechat", ID: "w1", Role: "user", SpeakerID: "u1", SpeakerDisplay: "张敏", Tier: "paired", Content: "I work as a nurse in Shanghai."},
		wtTurn{Session: "wx", Provider: "wechat", ID: "w2", Role: "user", SpeakerID: "u2", SpeakerDisplay: "Owner Person", Tier: "owner", Content: "Nice!"},
	)...)
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	found := false
	for p, c := range wtTopics(t, state) {
		if strings.HasPrefix(c, "# 张敏\n") {
			found = true
			if !strings.Contains(c, "张敏 works as a nurse in Shanghai.") {
				t.Errorf("%s:\n%s", p, c)
			}
		}
	}
	if !found {
		t.Errorf("no file titled 张敏: %v", wtTopics(t, state))
	}
	ftVerifyClean(t, e)
}

// TestWrite_NamesFilesByWhatTheyHold (issue 22 §1, Organise): a ChatGPT
// conversation's thread file is named and titled by its title, never by
// its UUID; a coding session's facts go to projects/<folder>.md from the
// transcript's working directory.
func TestWrite_NamesFilesByWhatTheyHold(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state) // creates sessions.db
	st := wtStore(t, state)
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	const uuid = "6f1c2a9e-3b7d-4e21-9a0c-5d8e7f6a1b2c"
	nodes := []sessions.Node{
		{Provider: "chatgpt", Session: uuid, ID: "m1", Role: "user", Time: at, Tier: "owner",
			Content: "I'm vegetarian and I cook for two.", Metadata: json.RawMessage(`{"title":"Weeknight dinners"}`)},
		{Provider: "claude-code", Session: "cc1", ID: "k1", Role: "user", Time: at.Add(time.Hour), Tier: "owner",
			Content: "Run the tests with make test-all before every commit, always.", Metadata: json.RawMessage(`{"project":"/home/nadia/src/ledgerline"}`)},
		{Provider: "claude-code", Session: "cc1", ID: "k2", Parent: "k1", Role: "assistant", Time: at.Add(time.Hour + time.Minute), Tier: "owner",
			Content: "Let me look at the Makefile first:", Metadata: json.RawMessage(`{"project":"/home/nadia/src/ledgerline"}`)},
	}
	b := st.BeginImport(ctx)
	if err := b.AddNodes(nodes); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	if c := topics["topics/threads/weeknight-dinners.md"]; !strings.HasPrefix(c, "# Weeknight dinners\n") {
		t.Errorf("no thread file named and titled by the conversation's title: %v", topics)
	}
	if c := topics["topics/projects/ledgerline.md"]; !strings.Contains(c, "make test-all") || strings.Contains(c, "Let me look") {
		t.Errorf("projects/ledgerline.md:\n%s", c)
	}
	for p := range topics {
		if strings.Contains(p, uuid) {
			t.Errorf("%s is named by the conversation's UUID", p)
		}
	}
	ftVerifyClean(t, e)
}
