package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	"scriptorium/demo"
	"scriptorium/engine"
	"scriptorium/engine/writer"
	"scriptorium/trust"
	"scriptorium/tui"
	"scriptorium/tui/enginebackend"
	"scriptorium/workspace"
)

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

// openTUI runs the TUI on a state dir. Library log output (bleve writes
// to the standard logger) goes to a log file, never onto the screen.
func openTUI(inv *invocation, dir string) error {
	if inv.json {
		return usagef("the TUI has no JSON output; use a verb")
	}
	ctx, cancel := signalContext()
	defer cancel()
	if err := inv.offerWorkspace(dir); err != nil {
		return err
	}
	e, err := engine.Open(ctx, engine.Options{StateDir: dir, Tier: trust.Owner, Interactive: true, Distiller: writer.Distiller{}})
	if err != nil {
		if engine.AsError(err).Code == engine.CodeMemoryDisabled {
			_ = tui.RunError(err, tui.Options{}) // full-screen notice; any key quits
		}
		return err
	}
	defer e.Close()
	if logf, err := os.OpenFile(filepath.Join(e.Root(), ".scriptorium", "runtime", "tui.log"),
		os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		log.SetOutput(logf)
		defer logf.Close()
	} else {
		log.SetOutput(io.Discard)
	}
	changes, err := e.Watch(ctx, 300*time.Millisecond)
	if err != nil {
		return err
	}
	if err := tui.Run(enginebackend.New(e, changes), tui.Options{}); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
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
	if cfg, err := engine.LoadConfig(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
		return nil // the engine answers MEMORY_DISABLED with its full-screen notice
	}
	if !inv.isTerminal() {
		return engine.Errorf(engine.CodeNotFound, "no workspace at %s (check --state; `scriptorium init %s` creates one)", mem, dir)
	}
	if !inv.confirm(fmt.Sprintf("There is no workspace at %s. Create it? [y/N] ", mem)) {
		return engine.Errorf(engine.CodeNotFound, "no workspace at %s; nothing created", mem)
	}
	return nil
}
