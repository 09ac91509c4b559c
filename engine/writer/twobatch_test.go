package writer_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine/writer"
	"scriptorium/workspace/topic"
)

// Rough edge: a session written in two batches (its turns imported, then
// more of them) kept only the last batch's threads/ block, and an untitled
// session got a second thread file named after the second batch's first
// words. Its one thread block says what the whole session was about and
// how it ended, citing both batches.
func TestWrite_ASessionInTwoBatchesKeepsOneWholeThreadBlock(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"trip","id":"m1","role":"user","content":"Help me plan a walking trip in Japan for April, I love long hikes.","time":"2026-01-01T10:00:00Z","tier":"owner"}
{"session":"trip","id":"m2","parent":"m1","role":"assistant","content":"Gladly. The Kumano Kodo and the Nakasendo are both good in April.","time":"2026-01-01T10:01:00Z","tier":"owner"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	importTurns(t, state, `{"session":"trip","id":"m3","parent":"m2","role":"user","content":"Thanks. Tell me more about the trails.","time":"2026-01-03T09:00:00Z","tier":"owner"}
{"session":"trip","id":"m4","parent":"m3","role":"assistant","content":"The Nakasendo links old post towns; the Kumano Kodo crosses forested mountains.","time":"2026-01-03T09:01:00Z","tier":"owner"}
{"session":"trip","id":"m5","parent":"m4","role":"user","content":"Let's go with the Nakasendo then, five days from Magome.","time":"2026-01-03T09:02:00Z","tier":"owner"}
`)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var threads []string
	for _, p := range v.TopicPaths() {
		if strings.HasPrefix(p, "topics/threads/") {
			threads = append(threads, p)
		}
	}
	if len(threads) != 1 {
		t.Fatalf("thread files %q; want one for the session", threads)
	}
	_, f, _ := v.Topic(threads[0])
	blocks := f.Blocks()
	if len(blocks) != 1 {
		t.Fatalf("%s has %d blocks; want the session's one", threads[0], len(blocks))
	}
	text := topic.BlockText(blocks[0])
	if !strings.Contains(text, "Japan") || !strings.Contains(text, "Nakasendo") {
		t.Errorf("the thread block should say what the session was about (Japan) and how it ended (Nakasendo): %q", text)
	}
	cited := map[string]bool{}
	for _, r := range blocks[0].Refs {
		for _, s := range f.Definitions()[r.Label].Sources {
			cited[s.SourceID] = true
		}
	}
	var first, last bool
	for ref := range cited {
		first = first || strings.HasSuffix(ref, "/m1")
		last = last || strings.HasSuffix(ref, "/m5")
	}
	if !first || !last {
		t.Errorf("the thread block should cite the first batch's request and the second's decision: %v", cited)
	}
	ftVerifyClean(t, e)
}
