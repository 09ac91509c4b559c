package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

// session runs the real TUI model in a real Bubble Tea program (so
// batches, sequences and timers behave as in the terminal) without a
// terminal: no input, no renderer. A recorder around the model keeps the
// view after every update, which is what the waits look at.
type session struct {
	p    *tea.Program
	w, h int
	done chan error

	mu      sync.Mutex
	view    string
	changed time.Time // when the view last changed
	input   time.Time // when the last key was sent
}

// recorder wraps the TUI model and publishes its view after each update.
type recorder struct {
	m tea.Model
	s *session
}

func (r recorder) Init() tea.Cmd { return r.m.Init() }

func (r recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := r.m.Update(msg)
	r.m = next
	r.s.publish(next.View())
	return r, cmd
}

func (r recorder) View() string { return r.m.View() }

func (s *session) publish(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v != s.view {
		s.view, s.changed = v, time.Now()
	}
}

// snapshot returns the view and when it was last changed or sent input,
// whichever is later: a key that has been sent but not yet handled must
// not let the previous screen count as settled.
func (s *session) snapshot() (string, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.input.After(s.changed) {
		return s.view, s.input
	}
	return s.view, s.changed
}

// send delivers a message to the program and notes the time of input.
func (s *session) send(msg tea.Msg) {
	s.p.Send(msg)
	s.mu.Lock()
	s.input = time.Now()
	s.mu.Unlock()
}

// start runs m and gives it a w×h window.
func start(ctx context.Context, m tea.Model, w, h int) *session {
	s := &session{w: w, h: h, done: make(chan error, 1), changed: time.Now()}
	s.p = tea.NewProgram(recorder{m: m, s: s},
		tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithoutRenderer(), tea.WithoutSignalHandler())
	go func() {
		_, err := s.p.Run()
		s.done <- err
	}()
	s.send(tea.WindowSizeMsg{Width: w, Height: h})
	return s
}

// stop quits the program and waits for it.
func (s *session) stop() error {
	s.p.Quit()
	select {
	case err := <-s.done:
		if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("tui program: %w", err)
		}
	case <-time.After(10 * time.Second):
		s.p.Kill()
		return errors.New("tui program did not stop")
	}
	return nil
}

// press sends key presses by name, as the keymap spells them.
func (s *session) press(keys ...string) {
	for _, k := range keys {
		s.send(keyMsg(k))
	}
}

// typeText types runes one key at a time, as a terminal delivers them.
func (s *session) typeText(text string) {
	for _, r := range text {
		s.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func keyMsg(name string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"backspace": tea.KeyBackspace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft,
		"right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	}
	if t, ok := named[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// settle is how long the view must stay unchanged to count as finished:
// loads answer in milliseconds, glamour renders in tens of them.
const settle = 400 * time.Millisecond

// busyMarks are texts the TUI shows while work runs.
var busyMarks = append([]string{"loading…", "searching…", "running…"}, spinner.MiniDot.Frames...)

// waitFor waits until the view satisfies ok, shows no work under way and
// has stopped changing; it returns the view (ANSI) and its plain text.
func (s *session) waitFor(what string, timeout time.Duration, ok func(plain string) bool) (ansiView, plain string, err error) {
	deadline := time.Now().Add(timeout)
	for {
		v, changed := s.snapshot()
		plain = Parse(v, s.w, s.h).Plain()
		if ok(plain) && !busy(plain) && time.Since(changed) >= settle {
			return v, plain, nil
		}
		if time.Now().After(deadline) {
			return v, plain, fmt.Errorf("waiting for %s: timed out; the screen was:\n%s", what, plain)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func busy(plain string) bool {
	for _, m := range busyMarks {
		if strings.Contains(plain, m) {
			return true
		}
	}
	return false
}

// contains is a wait condition: every text is on the screen.
func contains(texts ...string) func(string) bool {
	return func(plain string) bool {
		for _, t := range texts {
			if !strings.Contains(plain, t) {
				return false
			}
		}
		return true
	}
}
