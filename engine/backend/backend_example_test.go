package backend_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/backend"
	"scriptorium/engine/sessions"
	"scriptorium/workspace"
)

// A host embeds the engine: it stores turns in sessions.db, tells the
// backend when a session ends, and recalls memory for the next message.
func Example() {
	state, _ := os.MkdirTemp("", "scriptorium-example")
	defer os.RemoveAll(state)
	ctx := context.Background()

	store, _ := sessions.Open(workspace.SessionsDB(state), nil)
	_, _ = store.Import(strings.NewReader(
		`{"session":"s1","id":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig",` +
			`"content":"I am building a budget tracker in Flask.","time":"2024-03-15T10:00:00Z","tier":"owner"}` + "\n"))
	store.Close()

	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	b := backend.NewLocal(e)
	if err := b.OnSessionEnd(ctx, "s1"); err != nil {
		fmt.Println(err)
		return
	}
	recalled, _ := b.Recall(ctx, "what is Craig building in flask?")
	fmt.Println(strings.Count(recalled, "<memory-context>"), "fence")
	fmt.Println(strings.Contains(recalled, "budget tracker"))
	// Output:
	// 1 fence
	// true
}
