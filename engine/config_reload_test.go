package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine/browse"
	"scriptorium/workspace"
)

// Rough edge: a running TUI rendered core.md under the old budget after
// config.toml changed. A long-lived engine reads the file again, and the
// watcher says so, so the file, the report and the gauge agree.
func TestConfig_FollowedByALongLivedEngine(t *testing.T) {
	ctx := context.Background()
	state := ftEmpty(t, map[string]string{"topics/core.md": "# Core\n\n" +
		"Alpha: the owner prefers short answers in English. ^c0000001\n\n" +
		"Beta: the home server is called atlas and runs Proxmox. ^c0000002\n"})
	e := ftOpen(t, state)
	changes, err := workspace.Watch(ctx, e.Root(), e.StateDir(), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	before, err := browse.CoreView(ctx, e)
	if err != nil || before.Report.Budget != 2000 || len(before.Report.Excluded) != 0 {
		t.Fatalf("before: %+v, %v", before.Report, err)
	}
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[memory.core]\nbudget = 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not report the config change")
	}
	after, err := browse.CoreView(ctx, e)
	if err != nil || after.Report.Budget != 20 || len(after.Report.Excluded) == 0 {
		t.Fatalf("after the budget changed to 20: %+v, %v", after.Report, err)
	}
	rep, err := e.Core(ctx)
	if err != nil || rep.Budget != 20 {
		t.Fatalf("core render = %+v, %v", rep, err)
	}
	data, _ := os.ReadFile(filepath.Join(state, "memory", "core.md"))
	if len(data) != 0 && rep.Tokens > 20 {
		t.Errorf("core.md holds %d tokens over the new budget", rep.Tokens)
	}
	st, err := e.Status(ctx)
	if err != nil || st.Core.Budget != 20 {
		t.Errorf("status core budget = %d, %v", st.Core.Budget, err)
	}
	// A broken edit keeps the last valid configuration.
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[memory.core]\nbudget = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := e.Config(); c.Memory.Core.Budget != 20 {
		t.Errorf("a broken config.toml changed the budget to %d", c.Memory.Core.Budget)
	}
}
