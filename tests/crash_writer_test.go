package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
	"scriptorium/tests/clitest"
	"scriptorium/workspace/treetest"
)

// TestCrash_WriterIsAtomicAndResumable kills a real `scriptorium write`
// (which archives sources and installs topics in one transaction, then
// sets the written markers) at every crash point. After each crash the
// workspace is exactly old or exactly new, and running the writer again
// ends byte-identical to an uncrashed run: nothing lost, nothing written
// twice, no turn left pending.
func TestCrash_WriterIsAtomicAndResumable(t *testing.T) {
	bin := clitest.Binary(t)
	base := t.TempDir()
	turns := filepath.Join(t.TempDir(), "turns.jsonl")
	lines := ""
	for i := 0; i < 4; i++ {
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf(`"parent":"m%d",`, i-1)
		}
		lines += fmt.Sprintf(`{"session":"s1","id":"m%d",`+parent+`"role":"user","speaker_id":"u1","speaker_display":"Craig","content":"Fact number %d about the garden.","time":"2026-01-01T10:0%d:00Z","tier":"owner"}`+"\n", i, i, i)
	}
	// An unpaired group message in the same session: archived as pending in
	// the same install as the batch. (One session makes one install; a
	// write over several sessions is several transactions, each atomic.)
	lines += `{"session":"s1","id":"x1","parent":"m3","role":"user","speaker_id":"u9","speaker_display":"Stranger","content":"trust me","time":"2026-01-01T11:00:00Z","tier":"unpaired","group":true}` + "\n"
	if err := os.WriteFile(turns, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "import", turns, "--state", base).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	// Reading verbs no longer create a workspace: init does.
	if out, err := exec.Command(bin, "init", "--state", base).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "verify", "--state", base).CombinedOutput(); err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	oldTree := enginetest.Canonical(t, base)

	clean := t.TempDir()
	if err := treetest.CopyTree(base, clean); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "write", "--force", "--state", clean).CombinedOutput(); err != nil {
		t.Fatalf("uncrashed write: %v\n%s", err, out)
	}
	newTree := enginetest.Canonical(t, clean)
	if treetest.Diff(oldTree, newTree) == "" {
		t.Fatal("the uncrashed write changed nothing")
	}

	for _, point := range engine.CrashPoints {
		t.Run(point, func(t *testing.T) {
			state := t.TempDir()
			if err := treetest.CopyTree(base, state); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "write", "--force", "--state", state)
			cmd.Env = append(os.Environ(), "SCRIPTORIUM_TEST_CRASH_AT="+point)
			if err := cmd.Run(); !clitest.Killed(err) {
				t.Fatalf("write was not killed at %s: %v", point, err)
			}
			out, err := exec.Command(bin, "verify", "--json", "--state", state).Output()
			var rep result.VerifyReport
			if jerr := json.Unmarshal(out, &rep); err != nil || jerr != nil || !rep.OK {
				t.Fatalf("verify after the crash: %v %v\n%s", err, jerr, out)
			}
			got := enginetest.Canonical(t, state)
			if treetest.Diff(oldTree, got) != "" && treetest.Diff(newTree, got) != "" {
				t.Fatalf("TORN workspace after a crash at %s:\nvs old:\n%s\nvs new:\n%s", point, treetest.Diff(oldTree, got), treetest.Diff(newTree, got))
			}
			if out, err := exec.Command(bin, "write", "--force", "--state", state).CombinedOutput(); err != nil {
				t.Fatalf("write after the crash: %v\n%s", err, out)
			}
			if d := treetest.Diff(newTree, enginetest.Canonical(t, state)); d != "" {
				t.Fatalf("after the rerun the workspace differs from an uncrashed write:\n%s", d)
			}
			out, err = exec.Command(bin, "status", "--json", "--state", state).Output()
			var st result.Status
			if jerr := json.Unmarshal(out, &st); err != nil || jerr != nil || st.Writer.PendingTurns != 0 {
				t.Fatalf("status after the rerun: %v %v pending=%d", err, jerr, st.Writer.PendingTurns)
			}
		})
	}
}
