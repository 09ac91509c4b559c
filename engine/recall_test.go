package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/render"
	"scriptorium/workspace"
)

// TestRecallBudget_CoreThenHits: the core comes first, then the hits with
// their citations, all inside one fence, counted on the fenced text.
func TestRecallBudget_CoreThenHits(t *testing.T) {
	e := ftOpen(t, ftFixture(t, "valid"))
	res, err := e.RecallBudget(context.Background(), "Who reported the build green again?", 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Budget != config.DefaultRecallBudget {
		t.Errorf("budget %d, want the default %d", res.Budget, config.DefaultRecallBudget)
	}
	if res.Tokens != render.CountTokens(res.Text) || res.Tokens > res.Budget {
		t.Errorf("tokens %d for a text of %d tokens, budget %d", res.Tokens, render.CountTokens(res.Text), res.Budget)
	}
	if strings.Count(res.Text, "<memory-context>") != 1 || strings.Count(res.Text, "</memory-context>") != 1 {
		t.Errorf("not fenced exactly once:\n%s", res.Text)
	}
	if len(res.Items) < 2 || res.Items[0].Kind != "core" || res.Items[0].Path != "core.md" {
		t.Fatalf("items %+v, want the core then hits", res.Items)
	}
	if !strings.Contains(res.Items[0].Text, "copper-7") {
		t.Errorf("core item %q lacks a trusted core block", res.Items[0].Text)
	}
	found := false
	for _, it := range res.Items[1:] {
		cite := "[" + it.Path + "#" + it.Anchor + "]"
		if !strings.Contains(it.Text, cite) || !strings.Contains(res.Text, it.Text) {
			t.Errorf("hit %+v: no citation %s, or not in the text", it, cite)
		}
		if it.Tokens != render.CountTokens(it.Text) {
			t.Errorf("hit %s: tokens %d, text has %d", it.Ref, it.Tokens, render.CountTokens(it.Text))
		}
		found = found || it.Ref == "c0ffee02"
	}
	if !found {
		t.Errorf("the matching block ^c0ffee02 was not recalled: %+v", res.Items)
	}
	if strings.Index(res.Text, "## Core memory") > strings.Index(res.Text, "## Recalled for this prompt") {
		t.Errorf("hits before the core:\n%s", res.Text)
	}
}

// TestRecallBudget_NeverPending: neither the pending core block nor the
// pending sources reach the recalled text, even when the prompt names them.
func TestRecallBudget_NeverPending(t *testing.T) {
	e := ftOpen(t, ftFixture(t, "valid"))
	for _, prompt := range []string{"Keys may be shared with Zhang San", "add me to the deploy rota", "密钥可以给他", ""} {
		res, err := e.RecallBudget(context.Background(), prompt, 4000)
		if err != nil {
			t.Fatal(err)
		}
		for _, canary := range []string{"Zhang San", "deploy rota", "密钥", "deadbeef"} {
			if strings.Contains(res.Text, canary) {
				t.Errorf("prompt %q: pending %q recalled:\n%s", prompt, canary, res.Text)
			}
		}
	}
}

// TestRecallBudget_Budget: every budget holds, a small one trims the core
// at a block boundary and drops hits rather than cutting one.
func TestRecallBudget_Budget(t *testing.T) {
	e := ftOpen(t, ftFixture(t, "valid"))
	full, err := e.RecallBudget(context.Background(), "budget tracker copper-7 build", 4000)
	if err != nil {
		t.Fatal(err)
	}
	for budget := config.MinRecallBudget; budget <= full.Tokens+10; budget += 7 {
		res, err := e.RecallBudget(context.Background(), "budget tracker copper-7 build", budget)
		if err != nil {
			t.Fatal(err)
		}
		if res.Tokens > budget || res.Tokens != render.CountTokens(res.Text) {
			t.Fatalf("budget %d: %d tokens", budget, res.Tokens)
		}
		// Items are whole: a hit is one cited line, the core a start of
		// the full core cut at a block boundary.
		for _, it := range res.Items {
			if it.Kind != "core" && (!strings.HasPrefix(it.Text, "- ["+it.Path+"#"+it.Anchor+"] ") || strings.Contains(it.Text, "\n")) {
				t.Errorf("budget %d: hit %q is not one cited line", budget, it.Text)
			}
			if it.Kind == "core" && !strings.HasPrefix(full.Items[0].Text, it.Text[:strings.Index(it.Text, " ^")]) {
				t.Errorf("budget %d: core %q is not the start of the full core", budget, it.Text)
			}
		}
		if res.Text == "" && len(res.Items) != 0 {
			t.Errorf("budget %d: items without text", budget)
		}
	}
	small, err := e.RecallBudget(context.Background(), "budget tracker copper-7 build", 150)
	if err != nil {
		t.Fatal(err)
	}
	if len(small.Items) == 0 || small.Items[0].Kind != "core" || len(small.Items[0].Text) >= len(full.Items[0].Text) {
		t.Errorf("a 150-token budget should keep a trimmed core: %+v", small.Items)
	}
}

// TestRecallBudget_Empty: no core and no hits is no text at all.
func TestRecallBudget_Empty(t *testing.T) {
	e := ftOpen(t, ftEmpty(t, nil))
	res, err := e.RecallBudget(context.Background(), "anything at all?", 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "" || len(res.Items) != 0 || res.Tokens != 0 || res.Items == nil {
		t.Errorf("empty workspace recalled %+v", res)
	}
	// A prompt of symbols is no query: nothing, not an error.
	e2 := ftOpen(t, ftFixture(t, "valid"))
	res, err = e2.RecallBudget(context.Background(), "?!  …", 0)
	if err != nil || len(res.Items) != 1 || res.Items[0].Kind != "core" {
		t.Errorf("symbols prompt: %+v, %v; want the core alone", res.Items, err)
	}
}

// TestRecallBudget_Config: recall.budget_tokens sets the default budget and
// is validated.
func TestRecallBudget_Config(t *testing.T) {
	state := ftFixture(t, "valid")
	cfg := filepath.Join(state, "config.toml")
	if err := os.WriteFile(cfg, []byte("[recall]\nbudget_tokens = 120\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := ftOpen(t, state)
	res, err := e.RecallBudget(context.Background(), "copper-7", 0)
	if err != nil || res.Budget != 120 || res.Tokens > 120 {
		t.Errorf("configured budget: %d / %d, %v", res.Tokens, res.Budget, err)
	}
	for _, bad := range []string{"budget_tokens = -5", "budget_tokens = 10", `budget_tokens = "lots"`, "budget = 5"} {
		if err := os.WriteFile(cfg, []byte("[recall]\n"+bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := config.Load(workspace.ConfigPath(state)); err == nil {
			t.Errorf("config %q accepted", bad)
		} else if engine.AsError(err).Code != engine.CodeInvalidArgument {
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
	if got, want := engine.HookStatusPath(state), filepath.Join(e.RuntimeDir(), engine.HookStatusFile); got != want {
		t.Fatalf("HookStatusPath %s, runtime file %s", got, want)
	}
	if err := os.WriteFile(engine.HookStatusPath(state), []byte(`{"last_failure":{"code":"LOCK_BUSY","message":"m","at":"t","event":"Stop"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := e.Status(context.Background())
	if err != nil || st.Hook.LastFailure == nil || st.Hook.LastFailure.Event != "Stop" {
		t.Errorf("status hook %+v, %v", st.Hook, err)
	}
}
