package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/writer"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// mmBlock is a block citing src, as a model writes one, and its footnote.
func mmBlock(text string, src wtSource) string {
	label, id := "e-"+wtHex("fn"+text+src.Ref, 10), wtHex("block"+text+src.Ref, 8)
	return fmt.Sprintf("\n%s[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: [%s](../../%s#%s)\n", text, label, id, label, src.Date, src.Ref, src.Path, src.Anchor)
}

// TestModelWriter_MergesRestatedFact: a model that adds a fact memory
// holds already, twice over, and a new one: the restatement becomes a
// citation on the block in memory (its id and text kept), the new fact
// is added, as the offline writer merges. Before, the model's answer was
// installed as written: three blocks, two of them the same fact.
func TestModelWriter_MergesRestatedFact(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state,
		promptNode{"chatgpt", "food", "t001", "user", "owner", false, "", "", "", "Food", "2026-01-05T18:30:00Z", "I am vegetarian."})
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	before := wtTopics(t, state)["topics/people/owner.md"]
	f, _ := topic.Parse([]byte(before))
	if len(f.Blocks()) != 1 || !strings.Contains(before, "The owner is vegetarian.") {
		t.Fatalf("the offline writer's owner.md:\n%s", before)
	}
	oldID := f.Blocks()[0].BlockID

	srv := wtNewServer(t, func(w http.ResponseWriter, _ *http.Request, req wtChatRequest) {
		srcs := wtSources(req.user())
		body := mmBlock("The owner is vegetarian.", srcs[0]) + mmBlock("The owner is a vegetarian.", srcs[0]) +
			mmBlock("The owner lives in Bergen.", srcs[1])
		ans, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "append", "path": "topics/people/owner.md", "content": body}}})
		wtAnswer(w, string(ans))
	})
	promptImport(t, state,
		promptNode{"chatgpt", "trip", "t001", "user", "owner", false, "", "", "", "Trip", "2026-02-07T09:00:00Z", "I'm vegetarian, remember."},
		promptNode{"chatgpt", "trip", "t002", "user", "owner", false, "", "", "", "Trip", "2026-02-07T09:01:00Z", "I live in Bergen."})
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	owner := wtTopics(t, state)["topics/people/owner.md"]
	f, _ = topic.Parse([]byte(owner))
	var texts []string
	for _, b := range f.Blocks() {
		texts = append(texts, topic.BlockText(b))
	}
	if len(texts) != 2 || strings.Count(owner, "vegetarian") != 1 || !strings.Contains(owner, "The owner lives in Bergen.") {
		t.Fatalf("owner.md after the model (%d blocks):\n%s", len(texts), owner)
	}
	b, _ := f.Block(oldID)
	text := topic.BlockText(b)
	if !strings.HasPrefix(text, "The owner is vegetarian.") || len(b.Refs) != 2 {
		t.Errorf("the block in memory should keep its text and cite both turns: %q", text)
	}
	for _, ref := range []string{"chatgpt/food/t001", "chatgpt/trip/t001"} {
		if !strings.Contains(owner, "["+ref+"]") {
			t.Errorf("owner.md does not cite %s:\n%s", ref, owner)
		}
	}
	ftVerifyClean(t, e)
}

// TestModelWriter_ChangedValueReplaces: a model that adds the owner's new
// job beside the old one: the block in memory takes the new text and
// cites both turns, as the offline writer replaces a changed value; the
// old text stays in history.
func TestModelWriter_ChangedValueReplaces(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	promptImport(t, state,
		promptNode{"chatgpt", "job1", "t001", "user", "owner", false, "", "", "", "Job", "2026-01-05T18:30:00Z", "I work as a nurse at St Mary's hospital."})
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	f, _ := topic.Parse([]byte(wtTopics(t, state)["topics/people/owner.md"]))
	if len(f.Blocks()) != 1 {
		t.Fatalf("the offline writer's owner.md: %+v", f.Blocks())
	}
	oldID := f.Blocks()[0].BlockID
	srv := wtNewServer(t, func(w http.ResponseWriter, _ *http.Request, req wtChatRequest) {
		srcs := wtSources(req.user())
		ans, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "append", "path": "topics/people/owner.md",
			"content": mmBlock("The owner works as a teacher at Leeds Grammar School.", srcs[0])}}})
		wtAnswer(w, string(ans))
	})
	promptImport(t, state,
		promptNode{"chatgpt", "job2", "t001", "user", "owner", false, "", "", "", "New job", "2026-03-01T09:00:00Z", "I work as a teacher at Leeds Grammar School now."})
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	owner := wtTopics(t, state)["topics/people/owner.md"]
	f, _ = topic.Parse([]byte(owner))
	b, ok := f.Block(oldID)
	if len(f.Blocks()) != 1 || !ok || !strings.HasPrefix(topic.BlockText(b), "The owner works as a teacher at Leeds Grammar School.") ||
		!strings.Contains(owner, "[chatgpt/job1/t001]") || !strings.Contains(owner, "[chatgpt/job2/t001]") {
		t.Errorf("owner.md:\n%s", owner)
	}
	ftVerifyClean(t, e)
}
