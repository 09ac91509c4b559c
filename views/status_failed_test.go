package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// TestStatus_ShowsFailedSessions: a session the writer gave up on is
// named on the status pane with its code, so it does not just sit there
// pending.
func TestStatus_ShowsFailedSessions(t *testing.T) {
	p := NewStatus(newCommon(termenv.Ascii))
	p.SetSize(100, 40)
	st := result.Status{WorkspaceID: "ws", Writer: result.WriterStatus{FailedSessions: []result.WriterSessionFailure{
		{Provider: "openprogram", Session: "poisoned", Code: errcode.Rejected, Message: "bad edit", At: "2026-08-11T09:00:00Z"},
	}}}
	c, _ := p.Update(StatusLoaded{Status: st})
	view := ansi.Strip(c.View())
	if !strings.Contains(view, "failed session") || !strings.Contains(view, "REJECTED openprogram/poisoned at 2026-08-11T09:00:00Z") {
		t.Errorf("the status pane does not name the failed session:\n%s", view)
	}
}
