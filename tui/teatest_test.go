package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// The end-to-end flows run the real program (real commands, real timers)
// and wait for text on the terminal, then check the final model's view.

func startProgram(t *testing.T, f *fakeBackend) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, New(f, Options{NoColor: true}), teatest.WithInitialTermSize(100, 30))
	t.Cleanup(func() { _ = tm.Quit() })
	return tm
}

// flowWait bounds each wait of these flows. A passing flow waits only as
// long as its engine work takes; the bound is for a failing one, and is
// wide because CI and busy machines (load 10+ on 2 cores) made 10 s flaky.
const flowWait = 60 * time.Second

// waitFor waits until all texts have been drawn since the previous wait
// (each wait consumes the output it has read).
func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(flowWait), teatest.WithCheckInterval(20*time.Millisecond))
}

func send(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	send(tm, "q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(flowWait))
	m, ok := fm.(Model)
	if !ok {
		t.Fatalf("final model is %T", fm)
	}
	return ansi.Strip(m.View())
}

func TestFlow_PromoteWithConfirm(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "space", "space", "p")
	waitFor(t, tm, "Promote 2 sources from telegram/group-42?")
	send(tm, "y")
	waitFor(t, tm, "promoted 2 sources from telegram/group-42", "2 sources in 2 threads")
	v := finalView(t, tm)
	mustContain(t, v, "[1 Pending 2]", "✓ promoted 2 sources from telegram/group-42, now trusted and searchable")
	mustNotContain(t, v, "Carol (u789)")
}

func TestFlow_FootnoteDrillDownAndBack(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "2")
	waitFor(t, tm, "Blocks  topics/core.md")
	send(tm, "down")
	waitFor(t, tm, "Blocks  topics/people/craig.md")
	send(tm, "enter", "enter", "down", "enter")
	waitFor(t, tm, "◀ cited", "speaker Craig (u100) — identity verified")
	send(tm, "esc")
	waitFor(t, tm, "Footnotes", "› openprogram/sess-7f2a/msg_2f9b")
	v := finalView(t, tm)
	mustContain(t, v, "[2 Topics]", "Blocks  topics/people/craig.md", "• ^f888f60e", "› openprogram/sess-7f2a/msg_2f9b")
	mustNotContain(t, v, "› source")
}

func TestFlow_CoreReorder(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "3")
	waitFor(t, tm, "75 / 120 tokens")
	send(tm, "down", "down", "K")
	waitFor(t, tm, "Move block ^c0ffee03 up")
	send(tm, "y")
	waitFor(t, tm, "90 / 120 tokens", "now included")
	v := finalView(t, tm)
	mustContain(t, v, "moved ^c0ffee03: ^c0ffee03 now included, ^c0ffee02 now excluded", "90 / 120 tokens")
	if strings.Index(v, "^c0ffee03  Deploys") > strings.Index(v, "^c0ffee02  Current") {
		t.Errorf("block not moved up:\n%s", v)
	}
}

func TestFlow_RunSleep(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "4")
	waitFor(t, tm, "2 passes, newest first")
	send(tm, "S")
	waitFor(t, tm, "Run a sleep pass now?")
	send(tm, "y")
	waitFor(t, tm, "3 passes, newest first", "+# Release")
	v := finalView(t, tm)
	mustContain(t, v, "› #3 2026-08-12 03:00 offline · 1 file changed", "+# Release", "-# release")
}

func TestFlow_OtherProcessChangesRefresh(t *testing.T) {
	f := newFakeBackend()
	f.changes = make(chan struct{}, 1)
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	f.addPending("telegram/group-42/m200", "is the checklist ready?")
	f.changes <- struct{}{}
	waitFor(t, tm, "5 sources in 2 threads")
	// The watcher was re-armed: a second change is seen too.
	f.addPending("telegram/group-42/m201", "ping")
	f.changes <- struct{}{}
	waitFor(t, tm, "6 sources in 2 threads")
	v := finalView(t, tm)
	mustContain(t, v, "[1 Pending 6]", "telegram/group-42 (5)")
}

func TestFlow_CtrlCQuitsFromAnInput(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "5", "/")
	tm.Type("q")
	waitFor(t, tm, "query   q")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(flowWait))
}

func TestFlow_ProposalAcceptFileThenDeclineRest(t *testing.T) {
	f := newFakeBackend()
	f.proposals = append(f.proposals, fakeProposal())
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "4")
	waitFor(t, tm, "1 proposal waiting", "file 1/2")
	send(tm, "a")
	waitFor(t, tm, "Accept topics/projects/release.md of the sleep proposal")
	send(tm, "y")
	waitFor(t, tm, "accepted topics/projects/release.md of proposal")
	send(tm, "X")
	waitFor(t, tm, "Decline the whole proposal p-20260812-030000-a1b2c3 (1 file)?")
	send(tm, "y")
	waitFor(t, tm, "declined proposal p-20260812-030000-a1b2c3")
	v := finalView(t, tm)
	if strings.Contains(v, "proposal waiting") {
		t.Errorf("the proposal is still listed after accept and decline:\n%s", v)
	}
	if f.count("Accept") != 1 || f.count("Decline") != 1 {
		t.Errorf("accept called %d times, decline %d", f.count("Accept"), f.count("Decline"))
	}
}

func TestFlow_RevertShowsDiffThenConfirms(t *testing.T) {
	f := newFakeBackend()
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "4")
	waitFor(t, tm, "2 passes, newest first")
	send(tm, "R")
	waitFor(t, tm, "revert of revision 40", "Revert revision 40?")
	send(tm, "n") // cancelled: nothing reverted
	waitFor(t, tm, "R revert pass")
	send(tm, "R")
	waitFor(t, tm, "Revert revision 40?")
	send(tm, "y")
	waitFor(t, tm, "reverted revision 40 as revision")
	finalView(t, tm)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reverted) != 1 || f.reverted[0] != 40 {
		t.Errorf("reverted = %v, want [40] (the cancelled dialog must not revert)", f.reverted)
	}
}

// Rough edge: a lock held by another process showed a spinner without a
// reason that could not be cancelled. The status line names the holder
// and esc ends the wait; nothing is promoted.
func TestFlow_LockWaitNamesHolderAndEscCancels(t *testing.T) {
	f := newFakeBackend()
	f.lockHolder = "pid 4242 scriptorium sleep since 2026-08-12T03:00:00Z"
	f.block = map[string]chan struct{}{"Promote": make(chan struct{})}
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "space", "p")
	waitFor(t, tm, "y to confirm")
	send(tm, "y")
	waitFor(t, tm, "esc cancels · lock held by pid 4242")
	send(tm, "esc")
	waitFor(t, tm, "LOCK_BUSY")
	v := finalView(t, tm)
	if strings.Contains(v, "now trusted") {
		t.Errorf("the cancelled promotion reports success:\n%s", v)
	}
}
