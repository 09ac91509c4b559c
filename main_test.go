package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	// golden owns the -update flag (STYLE.md); the fixture tests here read
	// it to rewrite their expected files.
	_ "github.com/charmbracelet/x/exp/golden"

	"scriptorium/engine/enginetest"
	"scriptorium/tests/clitest"
	"scriptorium/workspace/treetest"
)

func TestMain(m *testing.M) {
	// The tests never read the caller's state directory.
	os.Unsetenv("SCRIPTORIUM_STATE")
	os.Unsetenv("SCRIPTORIUM_TEST_CRASH_AT")
	code := m.Run()
	clitest.RemoveBinary()
	os.Exit(code)
}

// updating reports whether the tests run with -update (golden's flag).
func updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, _ := g.Get().(bool)
	return b
}

// cliRun is one CLI run.
type cliRun struct {
	stdout, stderr string
	code           int
}

// runCLI runs the CLI in-process with the given stdin.
func runCLI(t *testing.T, stdin string, args ...string) cliRun {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return cliRun{stdout: out.String(), stderr: errb.String(), code: code}
}

// inProcess is runCLI as a clitest.Runner, for the shared fixtures.
func inProcess(t *testing.T, stdin string, args ...string) clitest.Result {
	t.Helper()
	r := runCLI(t, stdin, args...)
	return clitest.Result{Stdout: r.stdout, Stderr: r.stderr, Code: r.code}
}

// mustCLI runs args in-process and fails the test unless they exit 0.
func mustCLI(t *testing.T, args ...string) cliRun {
	t.Helper()
	r := clitest.Runner(inProcess).Must(t, args...)
	return cliRun{stdout: r.Stdout, stderr: r.Stderr, code: r.Code}
}

// oneJSON decodes stdout as exactly one JSON document and fails otherwise.
func oneJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	return clitest.OneJSON(t, stdout)
}

// fixtureState copies testdata/ws/<name>/state into a temp dir (opening a
// workspace creates .scriptorium/, and tests must never change testdata)
// and returns the copy's path.
func fixtureState(t *testing.T, name string) string { return enginetest.Fixture(t, name) }

// copyTree copies a directory tree; symlinks are copied as symlinks.
func copyTree(src, dst string) error { return treetest.CopyTree(src, dst) }

// treeState maps every file under dir to a digest of its bytes; skipped
// top-level names are not walked (".scriptorium" holds runtime state).
func treeState(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	st, err := treetest.State(dir, skip...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// diffTrees describes how two tree states differ, "" when equal.
func diffTrees(a, b map[string]string) string { return treetest.Diff(a, b) }

// canonicalJSON re-indents a JSON document so expected and actual outputs
// compare independently of formatting, with byte-exact strings.
func canonicalJSON(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkGolden compares got with the file at path, rewriting it under -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output:\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// checkGoldenJSON compares a JSON document with the file at path after
// canonical re-indentation; under -update it writes the canonical form.
func checkGoldenJSON(t *testing.T, path string, got []byte) {
	t.Helper()
	canon := canonicalJSON(t, got)
	if updating() {
		// The output as printed keeps the SPEC's field order, which reads
		// better than the sorted canonical form.
		checkGolden(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if w := canonicalJSON(t, want); w != canon {
		t.Errorf("%s differs from the output:\n--- want\n%s--- got\n%s", path, w, canon)
	}
}
