package forget_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/viewcache"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// TestForget_DistilledBlockOfTwoTurns: the writer's session block joins
// two turns' facts; forgetting one turn removes that block (it held words
// only the forgotten turn held), while a fact restated in two sessions
// keeps its block when one of them is forgotten (the other still says it).
func TestForget_DistilledBlockOfTwoTurns(t *testing.T) {
	ctx := context.Background()
	state := ftEmpty(t, nil)
	e := ftOpen(t, state)
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Import(strings.NewReader(`{"session":"chat","id":"c1","role":"user","content":"My sister Ines lives in Porto.","time":"2026-08-12T12:00:00Z"}
{"session":"chat","id":"c2","parent":"c1","role":"user","content":"My home alarm code is walrus-8812.","time":"2026-08-12T12:01:00Z"}
{"session":"again","id":"d1","role":"user","content":"My sister Ines lives in Porto.","time":"2026-08-13T12:00:00Z"}
`))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if h := holders(t, state+"/memory/topics", "walrus-8812"); len(h) < 2 {
		t.Fatalf("fixture: the code is not in a fact and the session's block: %v", h)
	}
	cache := filepath.Join(e.RuntimeDir(), viewcache.Name)
	if data, err := os.ReadFile(cache); err != nil || !strings.Contains(string(data), "walrus-8812") {
		t.Fatalf("fixture: the views cache does not hold the code (%v)", err)
	}
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{"openprogram/chat/c2"}}, false); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(cache); err == nil && strings.Contains(string(data), "walrus-8812") {
		t.Error("the views cache still holds the forgotten words")
	}
	if h := holders(t, state+"/memory/topics", "walrus-8812"); len(h) > 0 {
		t.Errorf("the forgotten turn's words are still in %v", h)
	}
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{"openprogram/again/d1"}}, false); err != nil {
		t.Fatal(err)
	}
	if h := holders(t, state+"/memory/topics", "Ines lives in Porto"); len(h) == 0 {
		t.Error("forgetting one of two turns that state a fact removed the fact")
	}
	ftVerifyClean(t, e)
}
