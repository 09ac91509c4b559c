// Command gen renders every pane of the real TUI on the demo workspace to
// screenshots/<pane>.png.
//
// It writes the demo state dir with demo.Write into a temporary
// directory, opens the engine, runs the real TUI model (true colour, dark
// background) in a Bubble Tea program at a fixed window size, drives it to
// each pane with key presses, waits until the pane shows its data, and
// paints View() — ANSI text — on a monospace grid with the Go Mono font.
//
// Run it from the module root:
//
//	go run ./screenshots/gen
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"scriptorium/app"
	"scriptorium/demo"
	"scriptorium/trust"
	"scriptorium/tui"
	"scriptorium/tui/enginebackend"
)

// config is what the flags set.
type config struct {
	out     string
	width   int
	height  int
	scale   int
	timeout time.Duration
	verbose bool
}

func main() {
	var cfg config
	flag.StringVar(&cfg.out, "out", "screenshots", "directory the PNGs are written to")
	flag.IntVar(&cfg.width, "width", 120, "terminal width in cells")
	flag.IntVar(&cfg.height, "height", 36, "terminal height in cells")
	flag.IntVar(&cfg.scale, "scale", 1, "pixel scale: 1 draws 8×16 px cells")
	flag.DurationVar(&cfg.timeout, "timeout", time.Minute, "how long one pane may take to show its data")
	flag.BoolVar(&cfg.verbose, "v", false, "print each captured screen as plain text")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if err := run(ctx, cfg, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, stderr io.Writer) (err error) {
	if cfg.width < 20 || cfg.height < 10 {
		return fmt.Errorf("window %d×%d is too small", cfg.width, cfg.height)
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	dir, cleanup, err := demoDir()
	if err != nil {
		return err
	}
	defer cleanup()

	// bleve logs to the standard logger; that must not reach the output.
	log.SetOutput(io.Discard)
	if err := demo.Write(ctx, dir); err != nil {
		return fmt.Errorf("write demo: %w", err)
	}
	e, err := app.Open(ctx, dir, app.Verb, app.Options{Tier: trust.Owner, Interactive: true})
	if err != nil {
		return fmt.Errorf("open demo: %w", err)
	}
	defer func() {
		if cerr := e.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close engine: %w", cerr)
		}
	}()

	// Screenshots show the palette as a true-colour terminal with a dark
	// background draws it, whatever terminal runs the generator.
	lipgloss.SetColorProfile(termenv.TrueColor)
	lipgloss.SetHasDarkBackground(true)
	model := tui.New(enginebackend.New(e.Engine, nil), tui.Options{MarkdownStyle: "dark"})

	painter, err := NewPainter(cfg.scale)
	if err != nil {
		return err
	}
	defer func() { _ = painter.Close() }()

	s := start(ctx, model, cfg.width, cfg.height)
	var errs []error
	for _, sh := range shots {
		view, err := sh.take(s, cfg.timeout)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sh.name, err))
			break // the later shots start from where this one should have left the TUI
		}
		if err := save(painter, view, cfg, sh.name, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	if err := s.stop(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// save paints one view and writes <name>.png, warning about a view that
// does not fit the window.
func save(p *Painter, view string, cfg config, name string, stderr io.Writer) error {
	g := Parse(view, cfg.width, cfg.height)
	if cfg.verbose {
		fmt.Fprintf(stderr, "── %s ──\n%s\n", name, g.Plain())
	}
	if g.Overflow.Cols > 0 || g.Overflow.Lines > 0 {
		fmt.Fprintf(stderr, "warning: %s: the view overflows the %d×%d window by %d columns and %d lines\n",
			name, cfg.width, cfg.height, g.Overflow.Cols, g.Overflow.Lines)
	}
	if n := strings.Count(view, "\n") + 1; n < cfg.height {
		fmt.Fprintf(stderr, "warning: %s: the view has %d lines for a %d-line window\n", name, n, cfg.height)
	}
	if missing := p.Missing(g); len(missing) > 0 {
		fmt.Fprintf(stderr, "note: %s: drawn as boxes, not in Go Mono: %s\n", name, string(missing))
	}
	path := filepath.Join(cfg.out, name+".png")
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := png.Encode(f, p.Paint(g)); err != nil {
		_ = f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	return nil
}

// demoDir returns a fresh directory for the demo at a fixed path, so the
// Status pane shows the same state dir on every run and the PNGs are
// reproducible. A leftover from an earlier run is removed; anything else
// at that path is left alone.
func demoDir() (dir string, cleanup func(), err error) {
	base := filepath.Join(os.TempDir(), "scriptorium-screenshots")
	dir = filepath.Join(base, "demo")
	if _, err := os.Lstat(base); err == nil {
		if !demo.Exists(dir) {
			return "", nil, fmt.Errorf("%s exists and is not a demo this command wrote; remove it", base)
		}
		if err := os.RemoveAll(base); err != nil {
			return "", nil, fmt.Errorf("remove the previous demo: %w", err)
		}
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", nil, fmt.Errorf("create %s: %w", base, err)
	}
	return dir, func() { _ = os.RemoveAll(base) }, nil
}
