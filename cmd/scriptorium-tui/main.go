// Command scriptorium-tui is the terminal application: the TUI over one
// workspace. It is its own binary so that the CLI never links the TUI's
// packages, whose package initialisation (go-runewidth's width tables,
// chroma's lexers and styles, goldmark, bluemonday) cost every CLI verb
// tens of milliseconds before main. `scriptorium` (no verb) and
// `scriptorium demo` run this binary; it can also be run by hand:
//
//	scriptorium-tui [--state DIR | --profile NAME]
//
// The state dir resolves as for the CLI (--state, $SCRIPTORIUM_STATE,
// --profile, ~/.openprogram). It opens an existing workspace only: the CLI
// asks the owner before creating one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"scriptorium/app"
	"scriptorium/engine/config"
	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/tui"
	"scriptorium/tui/enginebackend"
	"scriptorium/workspace"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stderr))
}

// run is main without the process; its errors read as the CLI's do
// ("scriptorium: …", exit 1; a bad command line exits 2).
func run(args []string, getenv func(string) string, stderr io.Writer) int {
	dir, err := stateDir(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return errdoc.ExitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "scriptorium: %v\n", err)
		return errdoc.ExitUsage
	}
	if err := open(dir); err != nil {
		fmt.Fprintf(stderr, "scriptorium: %s\n", errcode.As(err).Error())
		return errdoc.ExitFailure
	}
	return errdoc.ExitOK
}

// stateDir parses the command line into the state dir.
func stateDir(args []string, getenv func(string) string, stderr io.Writer) (string, error) {
	fs := flag.NewFlagSet("scriptorium-tui", flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "", "state directory (default $SCRIPTORIUM_STATE or ~/.openprogram)")
	profile := fs.String("profile", "", "use ~/.openprogram-NAME")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected argument %q (usage: scriptorium-tui [--state DIR | --profile NAME])", fs.Arg(0))
	}
	home, _ := os.UserHomeDir()
	return workspace.ResolveStateDir(*state, *profile, getenv, home)
}

// open runs the TUI on the workspace of dir.
func open(dir string) error {
	defer routeLogs(dir)()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := requireWorkspace(dir); err != nil {
		return err
	}
	// A memory is private: a state dir open to other users is tightened,
	// and the status line says so.
	var notice string
	if cfg, err := config.Load(workspace.ConfigPath(dir)); err != nil || !cfg.Disabled() {
		n, terr := workspace.TightenStateDir(dir)
		if notice = n; terr != nil {
			notice = "could not make the state dir private: " + terr.Error()
		}
	}
	if notice != "" {
		log.Printf("notice: %s", notice)
	}
	e, err := app.Open(ctx, dir, app.TUI, app.Options{})
	if err != nil {
		if errcode.As(err).Code == errcode.MemoryDisabled {
			_ = tui.RunError(err, tui.Options{}) // full-screen notice; any key quits
		}
		return err
	}
	defer e.Close()
	changes, err := workspace.Watch(ctx, e.Root(), e.StateDir(), 300*time.Millisecond)
	if err != nil {
		return err
	}
	if err := tui.Run(enginebackend.New(e.Engine, changes), tui.Options{Notice: notice}); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}

// routeLogs sends Go's default logger, which bleve writes to, to
// .scriptorium/runtime/tui.log from before the engine opens until after it
// closes: a library line must never land on the screen the TUI owns.
func routeLogs(dir string) (restore func()) {
	prev := log.Writer()
	l := workspace.NewRuntimeLog(workspace.MemoryDir(dir), "tui.log")
	log.SetOutput(l)
	return func() {
		log.SetOutput(prev)
		_ = l.Close()
	}
}

// requireWorkspace refuses a state dir without memory/: creating one is
// the CLI's to ask about (`scriptorium` asks on a terminal, `scriptorium
// init` creates). A config that switches memory off opens anyway, so the
// engine's MEMORY_DISABLED gets its full-screen notice.
func requireWorkspace(dir string) error {
	if cfg, err := config.Load(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
		return nil
	}
	mem := workspace.MemoryDir(dir)
	if fi, err := os.Stat(mem); err == nil && fi.IsDir() {
		return nil
	}
	return errcode.Errorf(errcode.NotFound, "no workspace at %s (check --state; `scriptorium init %s` creates one)", mem, dir)
}
