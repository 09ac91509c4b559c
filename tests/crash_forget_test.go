package tests

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/tests/clitest"
)

// TestCrash_ForgetIsAtomic kills `forget --yes` at every crash point of its
// install: the canonical files are exactly old or exactly new. Whenever
// the new state stands, reopening the workspace finishes the forget's
// clean-up, so no copy of the text survives anywhere in the state dir;
// with the old state, a rerun forgets as an uncrashed run does. The
// vectors of the forgotten text (keyed by its SHA-256) go too.
func TestCrash_ForgetIsAtomic(t *testing.T) {
	bin := clitest.Binary(t)
	base := clitest.ForgetBase(t, clitest.Exec(clitest.Binary(t)))
	keys := withVectors(t, base, clitest.CanarySpeaker)
	args := []string{"forget", "--speaker", "u456", "--yes"}
	crashInstall(t, bin, base, args, nil)

	oldRev := clitest.Revision(t, clitest.Exec(bin), base)
	for _, point := range append(append([]string{}, engine.CrashPoints...), engine.ForgetCleanupCrashPoint) {
		t.Run("cleanup after "+point, func(t *testing.T) {
			state := clitest.CopyState(t, base)
			cmd := exec.Command(bin, append(args, "--state", state)...)
			cmd.Env = append(os.Environ(), "SCRIPTORIUM_TEST_CRASH_AT="+point)
			if out, err := cmd.CombinedOutput(); !clitest.Killed(err) {
				t.Fatalf("not killed at %s: %v\n%s", point, err, out)
			}
			e, err := app.Open(context.Background(), state, app.Verb, app.Options{})
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			rev, _ := e.Revision()
			e.Close()
			if rev == oldRev {
				// The old state: the forget never happened; run it again.
				if out, err := exec.Command(bin, append(args, "--state", state)...).CombinedOutput(); err != nil {
					t.Fatalf("rerun after a crash at %s: %v\n%s", point, err, out)
				}
			}
			if h := clitest.CanaryHolders(t, state, clitest.CanarySpeaker); len(h) > 0 {
				t.Errorf("after a crash at %s and a reopen the canary is still in %v", point, h)
			}
			if n := vectorKeysIn(t, state, keys); n > 0 {
				t.Errorf("after a crash at %s and a reopen embeddings.db still holds %d vector key(s) of the canary", point, n)
			}
			if r := runCLI(t, "", "verify", "--state", state); r.Code != 0 {
				t.Errorf("verify: %s", r.Stdout)
			}
		})
	}
}
