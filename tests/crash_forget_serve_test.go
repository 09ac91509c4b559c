package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/tests/clitest"
)

// killedForget runs `forget --speaker u456 --yes` on state killed right
// after its install (before its clean-up), and then plants what a
// process that kept running could still write in the meantime: a log
// line and a status file naming the forgotten record next to its text. It
// returns the forgotten source-ids.
func killedForget(t *testing.T, state string) []string {
	t.Helper()
	var prev struct {
		Sources []string `json:"sources"`
	}
	r := mustCLI(t, "forget", "--speaker", "u456", "--dry-run", "--json", "--state", state)
	if err := json.Unmarshal([]byte(r.Stdout), &prev); err != nil || len(prev.Sources) == 0 {
		t.Fatalf("dry run: %v %s", err, r.Stdout)
	}
	cmd := exec.Command(clitest.Binary(t), "forget", "--speaker", "u456", "--yes", "--state", state)
	cmd.Env = append(os.Environ(), "SCRIPTORIUM_TEST_CRASH_AT="+engine.ForgetCleanupCrashPoint)
	if out, err := cmd.CombinedOutput(); !clitest.Killed(err) {
		t.Fatalf("not killed after the install: %v\n%s", err, out)
	}
	rt := filepath.Join(state, "memory", ".scriptorium", "runtime")
	id := prev.Sources[0]
	log := "08:00 search kept\n08:01 recall " + id + ": Bob's note: " + clitest.CanarySpeaker + "\n08:02 search kept\n"
	if err := os.WriteFile(filepath.Join(rt, "tui.log"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	status, _ := json.Marshal(map[string]any{"last": map[string]string{"source": id, "text": "Bob's note: " + clitest.CanarySpeaker}})
	if err := os.WriteFile(filepath.Join(rt, "hook-status.json"), status, 0o600); err != nil {
		t.Fatal(err)
	}
	return prev.Sources
}

// checkRuntimeScrubbed: the planted log keeps its other lines; nothing
// under state holds the canary.
func checkRuntimeScrubbed(t *testing.T, state string) {
	t.Helper()
	if h := clitest.CanaryHolders(t, state, clitest.CanarySpeaker); len(h) > 0 {
		t.Errorf("the canary is still in %v", h)
	}
	log, _ := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "runtime", "tui.log"))
	if got := string(log); got != "08:00 search kept\n08:02 search kept\n" {
		t.Errorf("tui.log after the scrub: %q", got)
	}
}

// TestCrash_ForgetKilledWhileServeRuns: a forget killed after its install
// while `serve` runs is finished by serve's long-lived engine at its next
// read, with no one-shot open: state.db, sessions.db, the index and the
// runtime files lose the text (issue 24 §12).
func TestCrash_ForgetKilledWhileServeRuns(t *testing.T) {
	state := clitest.CopyState(t, clitest.ForgetBase(t, clitest.Exec(clitest.Binary(t))))
	api := clitest.StartServe(t, clitest.Binary(t), state) + "/api/memory/"
	if code, doc := clitest.APIDo(t, "GET", api+"search?q=harbour", ""); code != 200 {
		t.Fatalf("search: %d %v", code, doc)
	}
	killedForget(t, state)
	if h := clitest.CanaryHolders(t, state, clitest.CanarySpeaker); !clitest.ContainsAll(h, "memory/.scriptorium/state.db") {
		t.Fatalf("the kill left no clean-up to do: %v", h)
	}
	code, doc := clitest.APIDo(t, "GET", api+"search?q="+strings.ReplaceAll("bob canary", " ", "+"), "")
	if code != 200 {
		t.Fatalf("search after the kill: %d %v", code, doc)
	}
	for _, ref := range clitest.RefsOf(doc) {
		if strings.Contains(ref, "u456") {
			t.Errorf("serve still finds the forgotten record %s", ref)
		}
	}
	checkRuntimeScrubbed(t, state)
}

// TestCrash_ForgetRecoveryScrubsRuntime: recovery after a killed forget
// knows only the ledger's ids, not the text; a runtime log line or status
// file naming a forgotten record still goes.
func TestCrash_ForgetRecoveryScrubsRuntime(t *testing.T) {
	state := clitest.CopyState(t, clitest.ForgetBase(t, clitest.Exec(clitest.Binary(t))))
	killedForget(t, state)
	e, err := app.Open(context.Background(), state, app.Verb, app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	checkRuntimeScrubbed(t, state)
}
