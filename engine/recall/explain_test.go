package recall_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// explainSetup opens a workspace whose topics/core.md holds four blocks
// and a budget that fits about two of them.
func explainSetup(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	core := "# Core\n\n" +
		"Alpha: the owner prefers short answers in English. ^c0000001\n\n" +
		"Beta: the home server is called atlas and runs Proxmox. ^c0000002\n\n" +
		"Gamma: the owner's daughter is learning the cello this year. ^c0000003\n\n" +
		"Delta: backups run every night at two in the morning. ^c0000004\n"
	state := enginetest.Empty(t, map[string]string{"topics/core.md": core, "topics/other.md": "# Other\n\nElsewhere. ^c0000009\n"})
	cfg := config.Default()
	cfg.Memory.Core.Budget = 40
	e := enginetest.Open(t, state, func(o *engine.Options) { o.Config = &cfg })
	return e, state
}

func TestExplainCore(t *testing.T) {
	ctx := context.Background()
	e, _ := explainSetup(t)
	first, err := recall.ExplainCore(ctx, e, "^c0000001")
	if err != nil {
		t.Fatal(err)
	}
	if first.State != "included" || first.Position != 1 || first.Blocks != 4 || first.RunningTotal == 0 ||
		first.RunningTotal > first.Budget || first.Tokens == 0 || first.Trust != "trusted" {
		t.Errorf("first block = %+v", first)
	}
	var states []string
	for _, id := range []string{"c0000001", "c0000002", "c0000003", "c0000004"} {
		x, err := recall.ExplainCore(ctx, e, id)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, x.State)
		if x.State == "excluded" && !strings.Contains(x.Reason, "budget") {
			t.Errorf("^%s excluded without naming the budget: %q", id, x.Reason)
		}
	}
	if states[0] != "included" || states[3] != "excluded" {
		t.Fatalf("states = %v: the budget of 40 should keep the first and drop the last", states)
	}
	other, err := recall.ExplainCore(ctx, e, "^c0000009")
	if err != nil || other.State != "not_in_core" || other.Position != 0 || !strings.Contains(other.Reason, "topics/other.md") {
		t.Errorf("a block outside topics/core.md = %+v, %v", other, err)
	}
	if _, err := recall.ExplainCore(ctx, e, "^deadbeef"); enginetest.Code(err) != errcode.NotFound {
		t.Errorf("unknown block: %v", err)
	}
	if _, err := recall.ExplainCore(ctx, e, "nope"); enginetest.Code(err) != errcode.InvalidArgument {
		t.Errorf("not an id: %v", err)
	}
}

func TestReorderCore(t *testing.T) {
	ctx := context.Background()
	e, state := explainSetup(t)
	last, _ := recall.ExplainCore(ctx, e, "c0000004")
	if last.State != "excluded" {
		t.Fatalf("the last block should start excluded: %+v", last)
	}
	res, err := recall.ReorderCore(ctx, e, "^c0000004", result.CoreMove{Top: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Position != 1 || res.Revision != enginetest.Revision(t, e) || !contains(res.After.Included, "c0000004") || contains(res.Before.Included, "c0000004") {
		t.Errorf("move to top = %+v", res)
	}
	// Pin the third block: a "## Pinned" section first in the file.
	res, err = recall.ReorderCore(ctx, e, "c0000003", result.CoreMove{Pin: true})
	if err != nil {
		t.Fatal(err)
	}
	got := enginetest.Read(t, state, "topics/core.md")
	if !res.Pinned || res.Position != 1 || !strings.HasPrefix(got, "# Core\n\n## Pinned\n\nGamma:") || !strings.Contains(got, "\n## Core\n") {
		t.Errorf("pin = %+v\n%s", res, got)
	}
	if x, _ := recall.ExplainCore(ctx, e, "c0000003"); !x.Pinned || x.State != "included" {
		t.Errorf("a pinned block explains as %+v", x)
	}
	// Moving to the top now lands after the pinned block.
	res, err = recall.ReorderCore(ctx, e, "c0000002", result.CoreMove{Top: true})
	if err != nil || res.Position != 2 || res.Pinned {
		t.Errorf("top under a pin = %+v, %v", res, err)
	}
	res, err = recall.ReorderCore(ctx, e, "c0000003", result.CoreMove{Unpin: true})
	if err != nil || res.Pinned {
		t.Errorf("unpin = %+v, %v", res, err)
	}
	res, err = recall.ReorderCore(ctx, e, "c0000001", result.CoreMove{To: 4})
	if err != nil || res.Position != 4 {
		t.Errorf("move to 4 = %+v, %v", res, err)
	}
	enginetest.VerifyClean(t, e)
	if _, err := recall.ReorderCore(ctx, e, "c0000009", result.CoreMove{Top: true}); enginetest.Code(err) != errcode.NotFound {
		t.Errorf("reorder of a block outside core: %v", err)
	}
	if _, err := recall.ReorderCore(ctx, enginetest.Open(t, state, enginetest.AsPaired), "c0000001", result.CoreMove{Top: true}); enginetest.Code(err) != errcode.Forbidden && enginetest.Code(err) != errcode.Rejected {
		t.Errorf("a paired reorder: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
