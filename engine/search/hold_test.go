package search

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// holdLonger keeps a writable handle for the whole test, so that only the
// intents can make the holder let go.
func holdLonger(t *testing.T) {
	old := holdIdle
	holdIdle = time.Hour
	t.Cleanup(func() { holdIdle = old })
}

// appendFact appends one block to topics/facts.md through e.
func appendFact(t *testing.T, e *engine.Engine, text, id string) {
	t.Helper()
	ctx := context.Background()
	rev, err := e.Revision()
	if err != nil {
		t.Fatal(err)
	}
	content := "\n" + text + " ^" + id + "\n"
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "append", Path: "topics/facts.md", Content: &content}}}); err != nil {
		t.Fatal(err)
	}
}

// TestHold_InstallsShareOneOpen: the installs of one engine in a row open
// the index for writing once, and every one of them is searchable at once.
func TestHold_InstallsShareOneOpen(t *testing.T) {
	holdLonger(t)
	state := coldFacts(t)
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for i := range 4 {
		appendFact(t, e, fmt.Sprintf("The owner bought lamp%d today.", i), fmt.Sprintf("000001%02x", i))
		if _, err := e.Status(context.Background()); err != nil { // a writable use between installs
			t.Fatal(err)
		}
	}
	st := stateOf(e)
	st.hold.mu.Lock()
	opens, held := st.hold.opens, st.hold.ix != nil
	st.hold.mu.Unlock()
	if opens != 1 || !held {
		t.Fatalf("4 installs: %d writable opens (want 1), handle kept %v", opens, held)
	}
	for i := range 4 {
		got, _ := coldSearch(t, state, fmt.Sprintf("lamp%d", i))
		if want := []string{fmt.Sprintf("topics/facts.md#^000001%02x", i)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("lamp%d: %v, want %v", i, got, want)
		}
	}
}

// TestHold_OtherEngineGetsIn: while one engine keeps the writable handle,
// another (another process: bleve's lock is per open file) asks for it and
// gets it, reading and writing, and the holder takes it back for its next
// install. Without the intents, the other engine's search waited out its
// lock timeouts and answered from a stale index, or failed.
func TestHold_OtherEngineGetsIn(t *testing.T) {
	holdLonger(t)
	old := staleWait
	staleWait = 2 * time.Second
	t.Cleanup(func() { staleWait = old })
	state := coldFacts(t)
	ctx := context.Background()
	a, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	appendFact(t, a, "The owner repaired the kettle.", "00000201")
	// A cold reader (the prompt hook's way: a read-only open).
	got, fast := coldSearch(t, state, "kettle")
	if want := []string{"topics/facts.md#^00000201"}; !reflect.DeepEqual(got, want) || !fast {
		t.Fatalf("a reader beside the holder: %v (fresh index used: %v), want %v", got, fast, want)
	}
	// A writer in another engine: an install, searchable from both.
	b, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	appendFact(t, b, "The owner painted the fence.", "00000202")
	b.Close()
	appendFact(t, a, "The owner fixed the bicycle.", "00000203")
	for word, id := range map[string]string{"fence": "00000202", "bicycle": "00000203", "kettle": "00000201"} {
		c, err := engine.Open(ctx, engine.Options{StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Search(ctx, result.SearchQuery{Text: word})
		stale := StatsOf(c).Stale
		c.Close()
		if err != nil || len(res) != 1 || res[0].Anchor != "^"+id || stale != 0 {
			t.Fatalf("%s: %v %v (stale answers %d), want ^%s", word, res, err, stale, id)
		}
	}
	if n := stateOf(a).hold.opens; n != 2 {
		t.Fatalf("the holder opened the index %d times, want 2 (once before the others came, once after)", n)
	}
}
