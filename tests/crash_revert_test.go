package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/proposals"
	"scriptorium/tests/clitest"
	"scriptorium/workspace/treetest"
)

// crashInstall runs args killed at every crash point of the install they
// make, on a fresh copy of base each time, and checks that reopening leaves
// the canonical files exactly old or exactly new with the revision to
// match; then rerun (when set) must end in the uncrashed run's state.
func crashInstall(t *testing.T, bin, base string, args []string, rerun []string) {
	t.Helper()
	ref := clitest.CopyState(t, base)
	oldTree := enginetest.Canonical(t, ref)
	oldRev := clitest.Revision(t, clitest.Exec(bin), ref)
	if out, err := exec.Command(bin, append(args, "--state", ref)...).CombinedOutput(); err != nil {
		t.Fatalf("reference %v: %v\n%s", args, err, out)
	}
	newTree := enginetest.Canonical(t, ref)
	if treetest.Diff(oldTree, newTree) == "" {
		t.Fatalf("%v changes nothing: nothing to crash", args)
	}
	for _, point := range engine.CrashPoints {
		t.Run(point, func(t *testing.T) {
			state := clitest.CopyState(t, base)
			cmd := exec.Command(bin, append(args, "--state", state)...)
			cmd.Env = append(os.Environ(), "SCRIPTORIUM_TEST_CRASH_AT="+point)
			if out, err := cmd.CombinedOutput(); !clitest.Killed(err) {
				t.Fatalf("%v with crash point %s was not killed: %v\n%s", args, point, err, out)
			}
			ctx := context.Background()
			e, err := app.Open(ctx, state, app.Verb, app.Options{})
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			if rep, err := e.Verify(ctx); err != nil || !rep.OK {
				t.Fatalf("verify after the crash: %v %+v", err, rep)
			}
			rev, _ := e.Revision()
			e.Close()
			got := enginetest.Canonical(t, state)
			switch {
			case treetest.Diff(oldTree, got) == "" && rev == oldRev:
			case treetest.Diff(newTree, got) == "" && rev == oldRev+1:
			default:
				t.Fatalf("TORN after a crash at %s (revision %d):\nvs old:\n%s\nvs new:\n%s", point, rev,
					treetest.Diff(oldTree, got), treetest.Diff(newTree, got))
			}
			if rerun == nil {
				return
			}
			out, err := exec.Command(bin, append(rerun, "--state", state)...).CombinedOutput()
			if err != nil {
				t.Fatalf("rerun %v after a crash at %s: %v\n%s", rerun, point, err, out)
			}
			if d := treetest.Diff(newTree, enginetest.Canonical(t, state)); d != "" {
				t.Errorf("the rerun after a crash at %s does not end where an uncrashed run does:\n%s", point, d)
			}
		})
	}
}

// TestCrash_RevertIsAtomic kills `revert` of the crash tests' multi-file
// transaction (moves, creates, deletes) at every crash point.
func TestCrash_RevertIsAtomic(t *testing.T) {
	bin := clitest.Binary(t)
	base, txFile := crashBase(t, bin)
	if out, err := exec.Command(bin, "update", txFile, "--state", base).CombinedOutput(); err != nil {
		t.Fatalf("update: %v\n%s", err, out)
	}
	crashInstall(t, bin, base, []string{"revert", "2", "--yes"}, nil)
}

// TestCrash_AcceptIsAtomic kills `accept` of a proposed sleep pass at every
// crash point; accepting again afterwards ends where an uncrashed accept
// does, with the proposal gone.
func TestCrash_AcceptIsAtomic(t *testing.T) {
	bin := clitest.Binary(t)
	base := clitest.SleepState(t)
	out, err := exec.Command(bin, "sleep", "--propose", "--json", "--state", base).Output()
	if err != nil {
		t.Fatalf("sleep --propose: %v\n%s", err, out)
	}
	var p proposals.Summary
	if err := json.Unmarshal(out, &p); err != nil || p.ID == "" {
		t.Fatalf("proposal %s: %v", out, err)
	}
	crashInstall(t, bin, base, []string{"accept", p.ID}, []string{"accept", p.ID})
}
