package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"scriptorium/engine/proposals"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// newChats are two ChatGPT conversations with the same title, on two
// days, each stating a fact of the owner.
var newChats = []promptNode{
	{"chatgpt", "chatA", "t001", "user", "owner", false, "", "", "", "New chat", "2026-01-05T18:30:00Z", "I work as a nurse at St Mary's hospital in Leeds."},
	{"chatgpt", "chatA", "t002", "assistant", "", false, "", "", "", "New chat", "2026-01-05T18:31:00Z", "That sounds demanding."},
	{"chatgpt", "chatB", "t001", "user", "owner", false, "", "", "", "New chat", "2026-02-07T09:00:00Z", "My sister Ines lives in Porto."},
	{"chatgpt", "chatB", "t002", "assistant", "", false, "", "", "", "New chat", "2026-02-07T09:01:00Z", "Porto is lovely."},
}

// threadFilesOf lists the thread files of the topics, sorted.
func threadFilesOf(topics map[string]string) []string {
	var out []string
	for p := range topics {
		if strings.HasPrefix(p, "topics/threads/") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// TestRedistill_SameTitleSessionsApart: two sessions titled "New chat"
// get one thread file each, the second named with its day, as the
// offline writer names them; before, redistill filed both summaries in
// new-chat.md.
func TestRedistill_SameTitleSessionsApart(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state, newChats...)
	e := wtOpen(t, state, nil)
	if _, err := writer.WriteTurnBlocks(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	topics := wtTopics(t, state)
	got := threadFilesOf(topics)
	want := []string{"topics/threads/new-chat-2026-02-07.md", "topics/threads/new-chat.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("thread files %v, want %v", got, want)
	}
	for _, p := range want {
		if n := strings.Count(topics[p], "[^"); n < 1 || strings.Contains(topics[p], "chatA") == strings.Contains(topics[p], "chatB") {
			t.Errorf("%s should hold one session's block:\n%s", p, topics[p])
		}
	}
}

// TestModelWriter_PromptSameTitleApart: the model writer is told the same
// thread file the offline writer would use for a session titled like one
// memory has: the title with the session's day, not the other session's
// file.
func TestModelWriter_PromptSameTitleApart(t *testing.T) {
	ctx := context.Background()
	srv := wtNewServer(t, wtGoodReply)
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state, newChats[:2]...)
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, ok := wtTopics(t, state)["topics/threads/new-chat.md"]; !ok {
		t.Fatalf("the offline writer did not write new-chat.md: %v", threadFilesOf(wtTopics(t, state)))
	}
	promptImport(t, state, newChats[2:]...)
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if got := promptLines[promptSession](t, reqs[0].user(), "SESSIONS")[0].ThreadFile; got != "topics/threads/new-chat-2026-02-07.md" {
		t.Errorf("thread_file %q, want new-chat-2026-02-07.md", got)
	}
}
