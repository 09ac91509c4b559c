package tui

import (
	"os"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// harness drives the real root model synchronously: every command a
// message returns is run and its message fed back until nothing is left.
// Timers (spinner, notice expiry) are recorded instead of started, so the
// loop settles and tests involve no clock.
type harness struct {
	t      *testing.T
	f      *fakeBackend
	m      Model
	quit   bool
	seen   []tea.Msg
	timers []tea.Msg
}

func newHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	return newHarnessWith(t, newFakeBackend(), w, h)
}

func newHarnessWith(t *testing.T, f *fakeBackend, w, h int) *harness {
	t.Helper()
	hs := &harness{t: t, f: f}
	m := New(f, Options{NoColor: true})
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd {
		hs.timers = append(hs.timers, msg)
		return nil
	}
	hs.m = m
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// call runs one command. The deadline only catches a command that blocks
// forever (a bug); it is not a timing assertion.
func (h *harness) call(cmd tea.Cmd) tea.Msg {
	h.t.Helper()
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(20 * time.Second):
		h.t.Fatal("a command blocked")
		return nil
	}
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if cmd != nil {
		h.send(h.call(cmd))
	}
}

func (h *harness) send(msgs ...tea.Msg) {
	h.t.Helper()
	queue := append([]tea.Msg(nil), msgs...)
	for n := 0; len(queue) > 0; n++ {
		if n > 10000 {
			h.t.Fatal("the message loop does not settle")
		}
		msg := queue[0]
		queue = queue[1:]
		switch mm := msg.(type) {
		case nil:
			continue
		case tea.BatchMsg:
			for _, c := range mm {
				if c != nil {
					queue = append(queue, h.call(c))
				}
			}
			continue
		case tea.QuitMsg:
			h.quit = true
			continue
		}
		h.seen = append(h.seen, msg)
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		if cmd != nil {
			queue = append(queue, h.call(cmd))
		}
	}
}

// keyMsg builds the key message bubbletea sends for a key name.
func keyMsg(s string) tea.KeyMsg {
	named := map[string]tea.KeyMsg{
		"enter":     {Type: tea.KeyEnter},
		"esc":       {Type: tea.KeyEsc},
		"tab":       {Type: tea.KeyTab},
		"shift+tab": {Type: tea.KeyShiftTab},
		"space":     {Type: tea.KeySpace, Runes: []rune{' '}},
		"backspace": {Type: tea.KeyBackspace},
		"up":        {Type: tea.KeyUp},
		"down":      {Type: tea.KeyDown},
		"pgdown":    {Type: tea.KeyPgDown},
		"pgup":      {Type: tea.KeyPgUp},
		"ctrl+c":    {Type: tea.KeyCtrlC},
		"ctrl+d":    {Type: tea.KeyCtrlD},
		"ctrl+u":    {Type: tea.KeyCtrlU},
		"alt+up":    {Type: tea.KeyUp, Alt: true},
		"alt+down":  {Type: tea.KeyDown, Alt: true},
	}
	if k, ok := named[s]; ok {
		return k
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (h *harness) view() string { return ansi.Strip(h.m.View()) }

// step hands msgs to Update one at a time and returns what their commands
// produce (batches flattened) without feeding it back, so a test can
// deliver messages in an order of its choosing.
func (h *harness) step(msgs ...tea.Msg) []tea.Msg {
	h.t.Helper()
	var out []tea.Msg
	for _, msg := range msgs {
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		out = append(out, h.flatten(cmd)...)
	}
	return out
}

// flatten runs cmd and every command of a batch it returns.
func (h *harness) flatten(cmd tea.Cmd) []tea.Msg {
	h.t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := h.call(cmd).(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, h.flatten(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}
