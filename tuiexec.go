package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"scriptorium/errcode"
	"scriptorium/termsafe"
)

// The TUI is the binary scriptorium-tui (cmd/scriptorium-tui), not a part
// of this one: Go runs the init of every linked package before main, and
// the TUI's packages (go-runewidth, chroma, glamour, bluemonday) cost each
// CLI verb tens of milliseconds that way. `scriptorium` (no verb) and
// `scriptorium demo` hand over to it.

// tuiName is the TUI binary's file name.
const tuiName = "scriptorium-tui"

// tuiBuildHint says how to build the TUI by hand into dir, the directory
// of this executable, for the error a CLI without one shows.
func tuiBuildHint(dir string) string {
	return fmt.Sprintf("build it next to scriptorium: `go build -o %s ./cmd/%s` in the scriptorium source tree", dir+string(filepath.Separator), tuiName)
}

// exitStatus ends the CLI with the TUI's own exit status; the TUI has
// already said on stderr what went wrong.
type exitStatus int

func (s exitStatus) Error() string   { return fmt.Sprintf("the TUI exited with status %d", int(s)) }
func (s exitStatus) ExitStatus() int { return int(s) }
func (s exitStatus) Reported() bool  { return true }

// execTUI runs the TUI on the state dir dir. When the CLI's streams are
// the process's own, the process becomes the TUI (exec): the terminal,
// signals and the exit status are the TUI's with nothing in between.
// Otherwise (tests calling run with their own streams) it runs as a child
// wired to those streams, and its exit status becomes the CLI's.
func (inv *invocation) execTUI(dir string) error {
	path, err := findTUI(inv.stderr)
	if err != nil {
		return err
	}
	args := []string{path, "--state", dir}
	if inv.stdin == io.Reader(os.Stdin) && inv.stdout == io.Writer(os.Stdout) && termsafe.Unwrap(inv.stderr) == io.Writer(os.Stderr) {
		err := syscall.Exec(path, args, os.Environ())
		return errcode.Wrap(errcode.IO, err, "run the TUI %s", path) // Exec returns only on failure
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inv.stdin, inv.stdout, termsafe.Unwrap(inv.stderr)
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() >= 0 {
		return exitStatus(exit.ExitCode())
	}
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "run the TUI %s", path)
	}
	return nil
}

// findTUI returns the TUI binary: next to this executable, else on $PATH,
// else built from the source tree this CLI was built from (`go run .`
// and a lone `go build -o scriptorium .` have no TUI binary beside them).
func findTUI(stderr io.Writer) (string, error) {
	self, _ := os.Executable()
	build := func(goCmd, src string) (string, error) {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", errcode.Errorf(errcode.NotFound, "the TUI binary %s is not installed and there is no cache dir to build it in (%v); %s",
				tuiName, err, tuiBuildHint(filepath.Dir(self)))
		}
		return buildTUI(goCmd, src, filepath.Join(cache, "scriptorium"), stderr)
	}
	return tuiFinder{self: self, lookPath: exec.LookPath, src: sourceDir(), build: build}.find()
}

// tuiFinder is findTUI's search with its inputs spelled out (tests vary them).
type tuiFinder struct {
	self     string                                  // this executable, "" if unknown
	lookPath func(string) (string, error)            // exec.LookPath
	src      string                                  // sourceDir()
	build    func(goCmd, src string) (string, error) // buildTUI
}

func (f tuiFinder) find() (string, error) {
	if p, ok := tuiBeside(f.self); ok {
		return p, nil
	}
	if p, err := f.lookPath(tuiName); err == nil {
		return p, nil
	}
	where := "DIR"
	if f.self != "" {
		where = filepath.Dir(f.self)
	}
	if f.src == "" {
		return "", errcode.Errorf(errcode.NotFound, "the TUI binary %s is neither in %s nor on $PATH; %s", tuiName, where, tuiBuildHint(where))
	}
	goCmd, err := f.lookPath("go")
	if err != nil {
		return "", errcode.Errorf(errcode.NotFound, "the TUI binary %s is neither in %s nor on $PATH, and there is no `go` to build it from %s; %s", tuiName, where, f.src, tuiBuildHint(where))
	}
	return f.build(goCmd, f.src)
}

// tuiBeside returns the TUI binary in the directory of the executable
// self, if there is one.
func tuiBeside(self string) (string, bool) {
	if self == "" {
		return "", false
	}
	p := filepath.Join(filepath.Dir(self), tuiName)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", false
	}
	return p, true
}

// sourceDir is the module root this CLI was compiled from, "" when it is
// unknown (built with -trimpath: the file name is then not a path on this
// machine) or no longer holds the scriptorium module with the TUI's main.
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(file)
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !isScriptoriumModule(mod) {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(dir, "cmd", tuiName, "main.go")); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return dir
}

// isScriptoriumModule reports whether a go.mod declares `module scriptorium`.
func isScriptoriumModule(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == "scriptorium" {
			return true
		}
	}
	return false
}

// buildTUI builds the TUI from the source tree src into dir (the user's
// cache dir's scriptorium/) and returns its path. It runs `go build` every time it is asked:
// when the binary is up to date that is a check of a fraction of a second
// that relinks nothing, and a TUI edited since the last run is rebuilt (a
// cache keyed by the CLI alone would keep an edited pane stale, as the
// CLI's own binary does not change with it). The file is named after the
// source tree, so two checkouts do not overwrite each other's binary; Go's
// work directory sits beside it, so the finished binary is renamed into
// place, never half-written where another start could run it.
func buildTUI(goCmd, src, dir string, stderr io.Writer) (string, error) {
	sum := sha256.Sum256([]byte(src))
	work := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", errcode.Wrap(errcode.IO, err, "create %s", work)
	}
	out := filepath.Join(dir, tuiName+"-"+hex.EncodeToString(sum[:6]))
	if _, err := os.Stat(out); err != nil {
		fmt.Fprintf(stderr, "building the TUI (first run): go build -o %s ./cmd/%s (in %s) …\n", out, tuiName, src)
	}
	cmd := exec.Command(goCmd, "build", "-o", out, "./cmd/"+tuiName)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOTMPDIR="+work)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return "", errcode.Errorf(errcode.IO, "build the TUI (go build -o %s ./cmd/%s in %s): %v", out, tuiName, src, err)
	}
	return out, nil
}
