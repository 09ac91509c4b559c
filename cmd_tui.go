package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"scriptorium/demo"
	"scriptorium/engine/config"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// tuiDetails is `demo --help`'s note on where the TUI comes from.
const tuiDetails = `The TUI (this command, and scriptorium with no command) is its own binary,
scriptorium-tui, so that the other commands start without loading it. It is
run from the directory scriptorium is in, else from $PATH; without either,
a scriptorium built from a source tree (go run . demo, a lone go build -o
scriptorium .) builds it from that tree with go, into the user cache dir.
To install both:

  go build -o DIR/ . && go build -o DIR/ ./cmd/scriptorium-tui`

func runTUI(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	return openTUI(inv, dir)
}

// openTUI runs the TUI on a state dir. The TUI is its own binary,
// scriptorium-tui (tui_exec.go), so that no CLI verb pays for the TUI's
// package initialisation; what the CLI still does itself is refuse --json
// and ask before a workspace is created.
func openTUI(inv *invocation, dir string) error {
	if inv.json {
		return usagef("the TUI has no JSON output; use a verb")
	}
	if err := inv.offerWorkspace(dir); err != nil {
		return err
	}
	return inv.execTUI(dir)
}

func runDemo(inv *invocation) error {
	if err := inv.wantArgs(0, 1); err != nil {
		return err
	}
	dir := filepath.Join(os.TempDir(), "scriptorium-demo")
	if len(inv.positional) == 1 {
		dir = inv.positional[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usagef("demo directory %q: %v", dir, err)
	}
	if !demo.Exists(abs) {
		ctx, cancel := signalContext()
		defer cancel()
		if !inv.json {
			fmt.Fprintf(inv.stderr, "writing the demo state dir %s …\n", abs)
		}
		if err := demo.Write(ctx, abs); err != nil {
			return err
		}
	}
	if inv.bool("no-tui") || inv.json {
		return inv.emit(map[string]string{"state": abs}, func(w io.Writer) {
			fmt.Fprintf(w, "demo state dir: %s\nopen it with: scriptorium --state %s\n", abs, abs)
		})
	}
	return openTUI(inv, abs)
}

// offerWorkspace asks, on a terminal, before the TUI creates a workspace
// that does not exist yet; elsewhere a missing workspace is NOT_FOUND. A
// bare `scriptorium` must never leave ~/.openprogram behind by accident.
func (inv *invocation) offerWorkspace(dir string) error {
	mem := workspace.MemoryDir(dir)
	if fi, err := os.Stat(mem); err == nil && fi.IsDir() {
		return nil
	}
	if cfg, err := config.Load(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
		return nil // the engine answers MEMORY_DISABLED with its full-screen notice
	}
	if !inv.isTerminal() {
		return errcode.Errorf(errcode.NotFound, "no workspace at %s (check --state; `scriptorium init %s` creates one)", mem, dir)
	}
	if !inv.confirm(fmt.Sprintf("There is no workspace at %s. Create it? [y/N] ", mem)) {
		return errcode.Errorf(errcode.NotFound, "no workspace at %s; nothing created", mem)
	}
	// The TUI opens existing workspaces only: the owner said yes here.
	ctx, cancel := signalContext()
	defer cancel()
	_, err := initWorkspace(ctx, dir)
	return err
}
