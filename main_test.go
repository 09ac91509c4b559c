package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"scriptorium/workspace/treetest"
	"strings"
	"sync"
	"testing"

	// golden owns the -update flag (STYLE.md); the fixture tests here read
	// it to rewrite their expected files.
	_ "github.com/charmbracelet/x/exp/golden"
)

// binDir holds the real binary, built once by scriptoriumBinary for the
// tests that must run (and kill) a separate process.
var binDir string

func TestMain(m *testing.M) {
	// The tests never read the caller's state directory.
	os.Unsetenv("SCRIPTORIUM_STATE")
	os.Unsetenv("SCRIPTORIUM_TEST_CRASH_AT")
	dir, err := os.MkdirTemp("", "scriptorium-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildErr  error
)

// scriptoriumBinary builds the real program once per test run and returns
// its path.
func scriptoriumBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "scriptorium")
	buildOnce.Do(func() {
		cmd := exec.Command("go", "build", "-o", bin, ".")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
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

// oneJSON decodes stdout as exactly one JSON document and fails otherwise.
func oneJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, stdout)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		t.Fatalf("stdout holds more than one JSON document (next: %v, %v):\n%s", extra, err, stdout)
	}
	return doc
}

// fixtureState copies testdata/ws/<name>/state into a temp dir (opening a
// workspace creates .scriptorium/, and tests must never change testdata)
// and returns the copy's path.
func fixtureState(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "state")
	if err := copyTree(filepath.Join("testdata", "ws", name, "state"), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

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
