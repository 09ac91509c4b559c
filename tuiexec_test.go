package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
)

func TestIsScriptoriumModule(t *testing.T) {
	for _, c := range []struct {
		gomod string
		want  bool
	}{
		{"module scriptorium\n\ngo 1.26\n", true},
		{"// comment\nmodule \"scriptorium\"\n", true},
		{"module scriptorium/other\n", false},
		{"module example.com/scriptorium\n", false},
		{"go 1.26\n", false},
	} {
		if got := isScriptoriumModule([]byte(c.gomod)); got != c.want {
			t.Errorf("isScriptoriumModule(%q) = %v, want %v", c.gomod, got, c.want)
		}
	}
}

// The tests are built from the source tree, so the CLI knows where it is.
func TestSourceDir_IsTheModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got := sourceDir(); got != wd {
		t.Errorf("sourceDir() = %q, want the package directory %q", got, wd)
	}
}

// writeExecutable writes a shell script with mode perm.
func writeExecutable(t *testing.T, path, script string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), perm); err != nil {
		t.Fatal(err)
	}
}

// The binary beside the CLI wins over $PATH, $PATH over a build; without
// either and without sources the error says how to build one.
func TestTUIFinder_Order(t *testing.T) {
	beside, onPath := t.TempDir(), t.TempDir()
	self := filepath.Join(beside, "scriptorium")
	writeExecutable(t, filepath.Join(onPath, tuiName), "exit 0\n", 0o755)
	lookPath := func(name string) (string, error) {
		if name == tuiName {
			return filepath.Join(onPath, tuiName), nil
		}
		return "", exec.ErrNotFound
	}
	noPath := func(string) (string, error) { return "", exec.ErrNotFound }
	goOnly := func(name string) (string, error) {
		if name == "go" {
			return "/usr/bin/go", nil
		}
		return "", exec.ErrNotFound
	}
	built := ""
	build := func(goCmd, src string) (string, error) { built = goCmd + " " + src; return "/cache/" + tuiName, nil }

	// A file that is not executable is not a TUI.
	writeExecutable(t, filepath.Join(beside, tuiName), "exit 0\n", 0o644)
	if p, err := (tuiFinder{self: self, lookPath: lookPath, build: build}).find(); err != nil || p != filepath.Join(onPath, tuiName) {
		t.Errorf("with a non-executable file beside: %q, %v; want the one on $PATH", p, err)
	}
	if err := os.Chmod(filepath.Join(beside, tuiName), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := (tuiFinder{self: self, lookPath: lookPath, build: build}).find(); err != nil || p != filepath.Join(beside, tuiName) {
		t.Errorf("with one beside: %q, %v", p, err)
	}
	other := filepath.Join(t.TempDir(), "scriptorium")
	if p, err := (tuiFinder{self: other, lookPath: goOnly, src: "/src", build: build}).find(); err != nil || p != "/cache/"+tuiName || built != "/usr/bin/go /src" {
		t.Errorf("with sources and go: %q, %v (built %q)", p, err, built)
	}
	for _, f := range []tuiFinder{{self: other, lookPath: goOnly}, {self: other, lookPath: noPath, src: "/src"}} {
		f.build = func(string, string) (string, error) { t.Error("built without sources or go"); return "", nil }
		_, err := f.find()
		want := "go build -o " + filepath.Dir(other) + "/ ./cmd/scriptorium-tui"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "scriptorium-tui") {
			t.Errorf("src %q: error %v, want one naming %q", f.src, err, want)
		}
	}
}

// fakeTUI puts a stand-in scriptorium-tui into dir that prints its
// arguments and exits 3, so a test sees what the CLI hands over.
func fakeTUI(t *testing.T, dir string) {
	t.Helper()
	writeExecutable(t, filepath.Join(dir, tuiName), "echo \"tui $*\"\necho \"tui stderr\" >&2\nexit 3\n", 0o755)
}

// In-process (the tests' own streams) the TUI runs as a child: its
// output reaches the caller's streams and its exit status is the CLI's.
func TestCLI_TUIRunsTheTUIBinary(t *testing.T) {
	bin := t.TempDir()
	fakeTUI(t, bin)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	state := fixtureState(t, "valid")
	r := runCLI(t, "", "--state", state)
	if r.code != 3 || r.stdout != "tui --state "+state+"\n" || r.stderr != "tui stderr\n" {
		t.Errorf("scriptorium --state: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "--state", state, "--json"); r.code != 2 || strings.Contains(r.stdout, "tui") {
		t.Errorf("--json: exit %d %s", r.code, r.stdout)
	}
}

// The real binary replaces itself with the TUI (exec): the TUI's exit
// status and output are the process's. demo writes its state dir first.
func TestCLI_ExecsTheTUIBesideIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	self := filepath.Join(dir, "scriptorium")
	if err := os.Link(clitest.Binary(t), self); err != nil {
		t.Skipf("hard link of the test binary: %v", err)
	}
	fakeTUI(t, dir)
	state := fixtureState(t, "valid")
	cmd := exec.Command(self, "--state", state)
	cmd.Env = append(os.Environ(), "PATH=/nonexistent")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || string(out) != "tui --state "+state+"\n" {
		t.Errorf("scriptorium --state: %v, stdout %q", err, out)
	}
}

// Without a TUI binary anywhere (`go run .`), the CLI builds the real one
// from its sources into the user's cache dir, and building again when it
// is up to date changes nothing.
func TestBuildTUI_BuildsTheRealTUI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the TUI")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on $PATH")
	}
	cache := t.TempDir()
	var progress strings.Builder
	bin, err := buildTUI(goCmd, sourceDir(), cache, &progress)
	if err != nil {
		t.Fatalf("buildTUI: %v\n%s", err, progress.String())
	}
	if !strings.Contains(progress.String(), "building the TUI") {
		t.Errorf("the first build said nothing: %q", progress.String())
	}
	progress.Reset()
	again, err := buildTUI(goCmd, sourceDir(), cache, &progress)
	if err != nil || again != bin || progress.Len() != 0 {
		t.Errorf("second build: %q, %v, said %q", again, err, progress.String())
	}
	missing := filepath.Join(t.TempDir(), "none")
	out, err := exec.Command(bin, "--state", missing).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "no workspace at") {
		t.Errorf("the built TUI on a missing workspace: %v\n%s", err, out)
	}
}
