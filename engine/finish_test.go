package engine_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// flakyFinisher fails until ok is set, recording the payloads it saw.
type flakyFinisher struct {
	mu    sync.Mutex
	ok    bool
	calls []string
}

func (f *flakyFinisher) run(_ context.Context, _ *engine.Tx, _ int64, payload []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, string(payload))
	if !f.ok {
		return errors.New("not yet")
	}
	return nil
}

func (f *flakyFinisher) state() (int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls), f.ok
}

// TestFinish_OwedStepRunsBeforeALongLivedRead: an install's finish step
// that its service never ran (as after a kill) is run by a long-lived
// engine before its next read; after a failure reads leave it alone for
// a while and writers retry it; once done, never again.
func TestFinish_OwedStepRunsBeforeALongLivedRead(t *testing.T) {
	ctx := context.Background()
	f := &flakyFinisher{}
	engine.RegisterFinisher("test-flaky", f.run)
	state := ftFixture(t, "valid")
	e := ftOpen(t, state, func(o *engine.Options) { o.LongLived = true })
	if _, err := e.Install(ctx, engine.Change{Kind: "update", Edits: []result.Edit{ftCreate("topics/z.md", "# Z\n\nZeta. ^e000000a\n")},
		Finish: &engine.Finish{Service: "test-flaky", Payload: []byte(`{"n":1}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.View(ctx); err != nil {
		t.Fatal(err)
	}
	n, _ := f.state()
	if n == 0 {
		t.Fatal("the owed step did not run before the read")
	}
	if _, err := e.View(ctx); err != nil { // failed: reads back off
		t.Fatal(err)
	}
	if again, _ := f.state(); again != n {
		t.Fatalf("a read retried a failed step at once: %d calls", again)
	}
	// A writer taking the lock tries again.
	if _, err := e.Update(ctx, ftTx(1, ftCreate("topics/y.md", "# Y\n\nYpsilon. ^e000000b\n"))); err != nil {
		t.Fatal(err)
	}
	if again, _ := f.state(); again <= n {
		t.Fatalf("a failed step was not retried by a writer: %d calls", again)
	}
	f.mu.Lock()
	f.ok = true
	f.mu.Unlock()
	if _, err := e.Update(ctx, ftTx(2, ftCreate("topics/x.md", "# X\n\nXi. ^e000000c\n"))); err != nil {
		t.Fatal(err)
	}
	done, _ := f.state()
	if _, err := e.View(ctx); err != nil {
		t.Fatal(err)
	}
	if after, _ := f.state(); after != done {
		t.Errorf("a finished step ran again: %d calls after %d", after, done)
	}
	f.mu.Lock()
	last := f.calls[len(f.calls)-1]
	f.mu.Unlock()
	if last != `{"n":1}` {
		t.Errorf("payload %q", last)
	}
}

// TestFinish_UnknownServiceNeverBlocksOpen: a step of a service this
// program does not link stays owed, and the workspace opens and installs.
func TestFinish_UnknownServiceNeverBlocksOpen(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	if _, err := e.Install(ctx, engine.Change{Kind: "update", Edits: []result.Edit{ftCreate("topics/z.md", "# Z\n\nZeta. ^e000000a\n")},
		Finish: &engine.Finish{Service: "not-linked-here", Payload: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e2 := ftOpen(t, state, func(o *engine.Options) { o.LongLived = true })
	if _, err := e2.Update(ctx, ftTx(1, ftCreate("topics/y.md", "# Y\n\nYpsilon. ^e000000b\n"))); err != nil {
		t.Fatal(err)
	}
	if rev, _ := e2.Revision(); rev != 2 {
		t.Errorf("revision %d, want 2", rev)
	}
}
