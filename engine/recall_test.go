package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/engine/config"
	"scriptorium/engine/runstatus"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// TestRecallConfig: recall.budget_tokens is validated (engine/recall
// tests that it sets the default budget).
func TestRecallConfig(t *testing.T) {
	state := ftFixture(t, "valid")
	cfg := filepath.Join(state, "config.toml")
	for _, bad := range []string{"budget_tokens = -5", "budget_tokens = 10", `budget_tokens = "lots"`, "budget = 5"} {
		if err := os.WriteFile(cfg, []byte("[recall]\n"+bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := config.Load(workspace.ConfigPath(state)); err == nil {
			t.Errorf("config %q accepted", bad)
		} else if errcode.As(err).Code != errcode.InvalidArgument {
			t.Errorf("config %q: %v, want INVALID_ARGUMENT", bad, err)
		}
	}
	if config.Default().Recall.BudgetTokens != config.DefaultRecallBudget {
		t.Errorf("default config budget %d", config.Default().Recall.BudgetTokens)
	}
}

// TestHookStatusPath: the path the hook writes without an engine is the
// file status reads.
func TestHookStatusPath(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	if got, want := runstatus.HookPath(state), filepath.Join(e.RuntimeDir(), runstatus.HookFile); got != want {
		t.Fatalf("HookStatusPath %s, runtime file %s", got, want)
	}
	if err := os.WriteFile(runstatus.HookPath(state), []byte(`{"last_failure":{"code":"LOCK_BUSY","message":"m","at":"t","event":"Stop"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := e.Status(context.Background())
	if err != nil || st.Hook.LastFailure == nil || st.Hook.LastFailure.Event != "Stop" {
		t.Errorf("status hook %+v, %v", st.Hook, err)
	}
}
