package clitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// ModuleRoot is the repository root, found from this file's path so the
// fixtures work from any package directory.
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Result is one CLI run.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Runner runs the CLI with the given stdin: in-process (the root
// package's tests) or as the real binary (Exec).
type Runner func(t *testing.T, stdin string, args ...string) Result

// Must runs args and fails the test unless they exit 0.
func (run Runner) Must(t *testing.T, args ...string) Result {
	t.Helper()
	r := run(t, "", args...)
	if r.Code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// Exec is a Runner for the real binary at bin. A run the binary could not
// even start fails the test; a panic is an exit code 2 with the trace on
// stderr, which callers check like any other answer.
func Exec(bin string) Runner {
	return func(t *testing.T, stdin string, args ...string) Result {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			t.Fatalf("%v: %v\n%s", args, err, errb.Bytes())
		}
		return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
	}
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// Binary builds the real program once per test process and returns its
// path; RemoveBinary (from TestMain) deletes it.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "scriptorium-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "scriptorium"), ".")
		cmd.Dir = ModuleRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "scriptorium")
}

// RemoveBinary deletes what Binary built, if anything.
func RemoveBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// NoRepeatedPrefix fails when an error message says the same thing twice
// in a row ("import: import: …", "open workspace: open workspace /x: …").
func NoRepeatedPrefix(t *testing.T, args []string, msg string) {
	t.Helper()
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if strings.HasPrefix(parts[i], parts[i-1]) {
			t.Errorf("%v: error text repeats %q: %s", args, parts[i], msg)
		}
	}
}

// OneJSON decodes stdout as exactly one JSON document and fails otherwise.
func OneJSON(t *testing.T, stdout string) map[string]any {
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
