package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
	"scriptorium/tests/clitest"
	"scriptorium/workspace/treetest"
)

// crashBase prepares the "valid" fixture at revision 1 (one install that
// creates topics/tmp.md) and writes the multi-file transaction the crash
// tests install on top of it. It returns the state dir and the
// transaction file.
func crashBase(t *testing.T, bin string) (state, txFile string) {
	t.Helper()
	state = enginetest.Fixture(t, "valid")
	dir := t.TempDir()
	setup := filepath.Join(dir, "setup.json")
	clitest.WriteTx(t, setup, 0, map[string]any{"op": "create", "path": "topics/tmp.md", "content": "# Tmp\n\nTemporary note. ^e0000001\n"})
	if out, err := exec.Command(bin, "update", setup, "--state", state).CombinedOutput(); err != nil {
		t.Fatalf("setup update: %v\n%s", err, out)
	}
	craig, err := os.ReadFile(filepath.Join(state, "memory", "topics", "people", "craig.md"))
	if err != nil {
		t.Fatal(err)
	}
	newCraig := strings.Replace(string(craig), "](../projects/legacy.md#^b1ab1ab1)", "](../archive/legacy.md#^b1ab1ab1)", 1) +
		"\nCraig moved the legacy notes. ^e0000002\n"
	txFile = filepath.Join(dir, "tx.json")
	clitest.WriteTx(t, txFile, 1,
		map[string]any{"op": "append", "path": "topics/core.md", "content": "A new core fact. ^e0000003\n"},
		map[string]any{"op": "replace", "path": "topics/people/craig.md", "content": newCraig},
		map[string]any{"op": "move", "path": "topics/projects/legacy.md", "to": "topics/archive/legacy.md"},
		map[string]any{"op": "create", "path": "topics/new/deep/b.md", "content": "# B\n\nDeep new file. ^e0000004\n"},
		map[string]any{"op": "create", "path": "topics/a.md", "content": "# A\n\nAnother new file. ^e0000005\n"},
		map[string]any{"op": "delete", "path": "topics/tmp.md"},
	)
	return state, txFile
}

// derived is the state of the derived views of a workspace.
func derived(t *testing.T, state string) map[string]string {
	t.Helper()
	st, err := treetest.State(filepath.Join(state, "memory"), "topics", "sources", ".scriptorium")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// crashOutcome inspects a workspace after a crash and reports whether it
// holds the old or the new state; anything else fails the test. Reopening
// recovers: with viaCLI the real binary's verify does it, otherwise the
// engine opened in this process (much cheaper, for the many random kills).
func crashOutcome(t *testing.T, bin, state string, oldTree, newTree map[string]string, oldDerived, newDerived map[string]string, what string, viaCLI bool) string {
	t.Helper()
	if viaCLI {
		out, err := exec.Command(bin, "verify", "--json", "--state", state).Output()
		var rep result.VerifyReport
		if jerr := json.Unmarshal(out, &rep); jerr != nil || err != nil || !rep.OK {
			t.Fatalf("%s: verify after the crash: %v %v\n%s", what, err, jerr, out)
		}
	}
	ctx := context.Background()
	e, err := app.Open(ctx, state, app.Verb, app.Options{})
	if err != nil {
		t.Fatalf("%s: reopen: %v", what, err)
	}
	defer e.Close()
	if rep, err := e.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("%s: verify after the crash: %v %+v", what, err, rep)
	}
	got := enginetest.Canonical(t, state)
	which := ""
	switch {
	case treetest.Diff(oldTree, got) == "":
		which = "old"
	case treetest.Diff(newTree, got) == "":
		which = "new"
	default:
		t.Fatalf("%s: TORN workspace: neither old nor new\nvs old:\n%s\nvs new:\n%s", what, treetest.Diff(oldTree, got), treetest.Diff(newTree, got))
	}
	// The derived views match the state too: an install whose render was
	// cut short is rendered again when the workspace is reopened.
	wantDerived := map[string]map[string]string{"old": oldDerived, "new": newDerived}[which]
	if d := treetest.Diff(wantDerived, derived(t, state)); d != "" {
		t.Fatalf("%s: %s state but derived views differ from it:\n%s", what, which, d)
	}
	wantRev := map[string]int64{"old": 1, "new": 2}[which]
	st, err := e.Status(ctx)
	if err != nil || st.Revision != wantRev {
		t.Fatalf("%s: %s state but revision %d (%v)", what, which, st.Revision, err)
	}
	hist, err := e.History(ctx, 0)
	if err != nil || len(hist) != int(wantRev) || hist[0].Revision != wantRev {
		t.Fatalf("%s: %s state but history %+v (%v)", what, which, hist, err)
	}
	if which == "new" && len(hist[0].Changed) != 7 {
		t.Fatalf("%s: history row of the install lists %v", what, hist[0].Changed)
	}
	runtime, _ := os.ReadDir(filepath.Join(state, "memory", ".scriptorium", "runtime"))
	for _, ent := range runtime {
		if strings.HasPrefix(ent.Name(), "tx-") {
			t.Fatalf("%s: stage %s left after recovery", what, ent.Name())
		}
	}
	return which
}

// TestCrash_InstallIsAtomic kills a real `scriptorium update` of a
// multi-file transaction at every crash point of the install
// (SCRIPTORIUM_TEST_CRASH_AT makes the process SIGKILL itself there), then
// at seeded random moments, and checks after each crash that reopening the
// workspace leaves every canonical file exactly old or exactly new, with
// the revision and history to match. Derived views are rebuilt by the next
// render and compared with an uncrashed run.
func TestCrash_InstallIsAtomic(t *testing.T) {
	bin := clitest.Binary(t)

	// The reference run without a crash gives the new state.
	ref, refTx := crashBase(t, bin)
	oldTree := enginetest.Canonical(t, ref)
	start := time.Now()
	if out, err := exec.Command(bin, "update", refTx, "--state", ref).CombinedOutput(); err != nil {
		t.Fatalf("reference update: %v\n%s", err, out)
	}
	runTime := time.Since(start)
	newTree := enginetest.Canonical(t, ref)
	if d := treetest.Diff(oldTree, newTree); strings.Count(d, "\n")+1 != 7 {
		t.Fatalf("the transaction should change 7 files:\n%s", d)
	}
	newDerived := derived(t, ref)

	// base is copied for every crash so each one starts from revision 1.
	base, txFile := crashBase(t, bin)
	oldDerived := derived(t, base)
	if treetest.Diff(oldDerived, newDerived) == "" || len(newDerived) < 4 {
		t.Fatalf("the transaction should change the derived views: %v", newDerived)
	}
	fresh := func(t *testing.T) string {
		dst := filepath.Join(t.TempDir(), "state")
		if err := treetest.CopyTree(base, dst); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	wantOutcome := map[string]string{"staged": "old", "journal-written": "new", "renamed-first": "new",
		"renamed-all": "new", "revision-bumped": "new", "history-recorded": "new"}
	for _, point := range engine.CrashPoints {
		t.Run(point, func(t *testing.T) {
			state := fresh(t)
			cmd := exec.Command(bin, "update", txFile, "--state", state)
			cmd.Env = append(os.Environ(), "SCRIPTORIUM_TEST_CRASH_AT="+point)
			out, err := cmd.CombinedOutput()
			if !clitest.Killed(err) {
				t.Fatalf("update with crash point %s was not killed: %v\n%s", point, err, out)
			}
			if point == "renamed-first" {
				// Recovery itself may be killed half-way through rolling
				// forward; the next open must still finish the job.
				rng := rand.New(rand.NewSource(7))
				for i := 0; i < 4; i++ {
					cmd := exec.Command(bin, "verify", "--state", state)
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					time.Sleep(time.Duration(rng.Int63n(int64(runTime)/2 + 1)))
					_ = cmd.Process.Signal(syscall.SIGKILL)
					_ = cmd.Wait()
				}
			}
			got := crashOutcome(t, bin, state, oldTree, newTree, oldDerived, newDerived, "crash at "+point, true)
			if want, ok := wantOutcome[point]; ok && got != want {
				t.Errorf("crash at %s left the %s state, want %s", point, got, want)
			}
		})
	}
	if len(engine.CrashPoints) < 5 {
		t.Errorf("only %d crash points", len(engine.CrashPoints))
	}

	// Random kills: sleep a seeded random part of an uncrashed run's time,
	// then SIGKILL. Each outcome must still be old or new.
	rng := rand.New(rand.NewSource(6))
	budget := 10 * time.Second
	if testing.Short() {
		budget = 4 * time.Second
	}
	deadline := time.Now().Add(budget)
	counts := map[string]int{}
	for i := 0; i < 30 && time.Now().Before(deadline); i++ {
		state := fresh(t)
		cmd := exec.Command(bin, "update", txFile, "--state", state)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int63n(int64(runTime) + 1)))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		outcome := crashOutcome(t, bin, state, oldTree, newTree, oldDerived, newDerived, fmt.Sprintf("random kill %d", i), false)
		if clitest.Killed(err) {
			counts["killed-"+outcome]++
		} else {
			counts["finished-"+outcome]++
			if outcome != "new" || err != nil {
				t.Fatalf("random kill %d: the update finished (%v) but left the %s state", i, err, outcome)
			}
		}
	}
	t.Logf("random kills: %v (uncrashed update took %v)", counts, runTime)
}
