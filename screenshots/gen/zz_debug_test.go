package main

import (
	"context"
	"io"
	"log"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"scriptorium/engine"
	"scriptorium/trust"
	"scriptorium/tui"
	"scriptorium/tui/enginebackend"
)

func TestDebugRapidDown(t *testing.T) {
	ctx := context.Background()
	log.SetOutput(io.Discard)
	dir := t.TempDir() + "/demo"
	if err := engine.WriteDemo(ctx, dir); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{StateDir: dir, Tier: trust.Owner, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	lipgloss.SetColorProfile(termenv.TrueColor); lipgloss.SetHasDarkBackground(true)
	s := start(ctx, tui.New(enginebackend.New(e, nil), tui.Options{MarkdownStyle: "dark"}), 120, 36)
	defer s.stop()
	if _, _, err := s.waitFor("topics", 30*time.Second, contains("sources in")); err != nil {
		t.Fatal(err)
	}
	s.press("2")
	if _, _, err := s.waitFor("topics", 30*time.Second, contains("Blocks  topics/core.md")); err != nil {
		t.Fatal(err)
	}
	n := 9
	if v := os.Getenv("NDOWN"); v != "" {
		n = len(v)
	}
	stopBurn := make(chan struct{})
	defer close(stopBurn)
	if os.Getenv("BURN") != "" {
		for range 4 {
			go func() {
				x := 0
				for {
					select {
					case <-stopBurn:
						return
					default:
						for i := range 100000 {
							x += i
						}
					}
				}
			}()
		}
	}
	for range 30 {
		for range n {
			s.press("down")
		}
		for range n {
			s.press("up")
		}
	}
	for range n {
		s.press("down")
	}
	_, plain, err := s.waitFor("settled", 20*time.Second, func(string) bool { return true })
	if err != nil {
		buf := make([]byte, 1<<20)
		k := runtime.Stack(buf, true)
		var keep []string
		for _, g := range strings.Split(string(buf[:k]), "\n\n") {
			if strings.Contains(g, "scriptorium/") {
				keep = append(keep, g)
			}
		}
		t.Fatalf("%v\n\nGOROUTINES:\n%s", err, strings.Join(keep, "\n\n"))
	}
	t.Log(plain)
}
