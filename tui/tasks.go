package tui

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/views"
)

// noticeTTL is how long a success message stays in the status line.
const noticeTTL = 6 * time.Second

// spinTickMsg advances the spinner; it is only re-armed while a task runs.
type spinTickMsg struct{}

// clearNoticeMsg clears the status line if it still shows notice id.
type clearNoticeMsg struct{ id int }

// taskRegistry tracks engine work under way (gh-dash's task list): one
// spinner for all of it, and the label of the newest task in the status line.
type taskRegistry struct {
	next     int
	running  map[int]string
	mutation int // the running promote / move / sleep, 0 if none
	// cancel ends the running mutation's wait (esc): a write lock held by
	// another process must not trap the owner behind a spinner.
	cancel   context.CancelFunc
	base     map[int]string // labels as started, before a lock-wait note
	spinning bool
	frame    int
}

func newTaskRegistry() *taskRegistry {
	return &taskRegistry{running: map[int]string{}, base: map[int]string{}}
}

// start registers a task and reports whether the spinner must be started.
func (r *taskRegistry) start(label string) (id int, startSpinner bool) {
	r.next++
	r.running[r.next] = label
	r.base[r.next] = label
	if !r.spinning {
		r.spinning = true
		return r.next, true
	}
	return r.next, false
}

func (r *taskRegistry) finish(id int) {
	delete(r.running, id)
	delete(r.base, id)
	if r.mutation == id {
		r.mutation = 0
		r.cancel = nil
	}
}

// busy returns the label of the newest running task and how many others run.
func (r *taskRegistry) busy() (string, int) {
	if len(r.running) == 0 {
		return "", 0
	}
	ids := make([]int, 0, len(r.running))
	for id := range r.running {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return r.running[ids[len(ids)-1]], len(ids) - 1
}

// statusLine is the line above the help footer: results and errors.
type statusLine struct {
	text string
	err  bool
	id   int
}

// setNotice shows a success message that clears itself after a while.
func (m *Model) setNotice(text string) tea.Cmd {
	m.status.id++
	m.status.text, m.status.err = text, false
	return m.after(noticeTTL, clearNoticeMsg{id: m.status.id})
}

// setError shows an error; it stays until the next key.
func (m *Model) setError(text string) {
	m.status.id++
	m.status.text, m.status.err = text, true
}

func (m *Model) spinTick() tea.Cmd {
	return m.after(spinner.MiniDot.FPS, spinTickMsg{})
}

// onSpinTick advances the spinner while work runs and lets it stop when
// nothing does, so an idle TUI wakes up for nothing.
func (m *Model) onSpinTick() tea.Cmd {
	if len(m.tasks.running) == 0 {
		m.tasks.spinning = false
		return nil
	}
	m.tasks.frame = (m.tasks.frame + 1) % len(spinner.MiniDot.Frames)
	return m.spinTick()
}

func (m Model) statusView(w int) string {
	st := m.styles
	right := ""
	if s, ok := m.statusPane.Data(); ok {
		right = fmt.Sprintf("rev %d", s.Revision)
	}
	if n := m.passes.Waiting(); n > 0 {
		word := "proposals"
		if n == 1 {
			word = "proposal"
		}
		right = strings.TrimSuffix(fmt.Sprintf("%d %s waiting · %s", n, word, right), " · ")
	}
	// An error outranks the spinner: it is what the owner must read.
	var left string
	label, more := m.tasks.busy()
	switch {
	case m.status.err:
		left = st.StatusError.Render("✗ " + views.OneLine(m.status.text))
	case label != "":
		left = st.StatusBusy.Render(spinner.MiniDot.Frames[m.tasks.frame] + " " + views.OneLine(label) + "…")
		if more > 0 {
			left += st.Faint.Render(fmt.Sprintf(" (+%d)", more))
		}
	case m.status.text != "":
		left = st.StatusInfo.Render("✓ " + views.OneLine(m.status.text))
	}
	rw := len(right)
	if rw+1 >= w {
		return views.Truncate(left, w)
	}
	return views.PadRight(left, w-rw-1) + " " + st.Faint.Render(right)
}

// flatten turns a multi-line error (a rejection lists its violations) into
// one status line.
func flatten(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// lockWaitAfter is how long a change may run before the status line says
// whether it waits for the write lock, and for whom.
const lockWaitAfter = time.Second

// lockCheckMsg asks, once a change has run lockWaitAfter, who holds the
// write lock; lockHolderMsg carries the answer.
type (
	lockCheckMsg  struct{ task int }
	lockHolderMsg struct {
		task   int
		holder string
		held   bool
	}
)

// onLockCheck reads the lock holder in a command (it is file IO) while the
// change is still running.
func (m *Model) onLockCheck(msg lockCheckMsg) tea.Cmd {
	if _, running := m.tasks.running[msg.task]; !running || m.b == nil {
		return nil
	}
	b := m.b
	return func() tea.Msg {
		holder, held := b.LockHolder()
		return lockHolderMsg{task: msg.task, holder: holder, held: held}
	}
}

// onLockHolder names the holder in the running change's label, or checks
// again later when nobody else holds the lock yet.
func (m *Model) onLockHolder(msg lockHolderMsg) tea.Cmd {
	base, running := m.tasks.base[msg.task]
	if !running {
		return nil
	}
	if msg.held && !strings.Contains(msg.holder, fmt.Sprintf("pid %d ", os.Getpid())) {
		// esc comes first: a long holder record is cut at the screen's edge.
		m.tasks.running[msg.task] = base + " · esc cancels · lock held by " + msg.holder
	} else {
		m.tasks.running[msg.task] = base
	}
	return m.after(lockWaitAfter, lockCheckMsg{task: msg.task})
}

// cancelMutation ends the running change's wait for the lock.
func (m *Model) cancelMutation() tea.Cmd {
	if m.tasks.cancel == nil {
		return nil
	}
	m.tasks.cancel()
	return m.setNotice("cancelling " + m.tasks.base[m.tasks.mutation] + "; nothing is changed unless it had already started")
}
