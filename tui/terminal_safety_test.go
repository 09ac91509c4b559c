package tui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/termsafe"
	"scriptorium/views"
)

// Issue 24, finding 7, the TUI half: every string the engine hands the TUI
// (record and block text, speaker names, refs, paths, diffs, reasons,
// errors, the lock holder) ends in hostile, and no pane, dialog, diff view
// or status line may put any of it on the terminal raw. With the Ascii
// colour profile (TestMain) the TUI itself emits no escape at all, so any
// control in View() came from the data.
const hostile = " \x1b]52;c;cm0gLXJmIH4=\x07\x1b[2K\x1b[1A\rverified\u202eevil\u2066\u061c\u009b2K\x7f"

// hostileSeen is how hostile's OSC 52 shows once neutralised.
const hostileSeen = "␛]52;c;cm0gLXJmIH4=␇"

// hostileBackend is the fake with hostile appended to every string it
// returns (enum fields the TUI switches on aside), and taken off the
// strings the TUI hands back, so the fake still finds what it is asked for.
type hostileBackend struct{ *fakeBackend }

// keep are the fields the TUI branches on; the engine never fills them
// from message text.
var keep = map[string]bool{"Kind": true, "Trust": true, "State": true, "Code": true}

func poison[T any](v T, err error) (T, error) {
	if err != nil {
		return v, &errcode.Error{Code: errcode.As(err).Code, Message: err.Error() + hostile}
	}
	return poisonValue(reflect.ValueOf(&v).Elem()).Interface().(T), nil
}

// poisonValue returns a deep copy of v with hostile appended to every
// string.
func poisonValue(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.String:
		out.Set(v)
		if v.Type() == reflect.TypeFor[string]() {
			out.SetString(v.String() + hostile)
		}
	case reflect.Struct:
		out.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && !keep[f.Name] {
				out.Field(i).Set(poisonValue(v.Field(i)))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(poisonValue(v.Elem()))
			out.Set(p)
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := 0; i < v.Len(); i++ {
				s.Index(i).Set(poisonValue(v.Index(i)))
			}
			out.Set(s)
		}
	case reflect.Map:
		if !v.IsNil() {
			m := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				m.SetMapIndex(it.Key(), poisonValue(it.Value()))
			}
			out.Set(m)
		}
	default:
		out.Set(v)
	}
	return out
}

func clean(s string) string { return strings.TrimSuffix(s, hostile) }

func cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

func (h hostileBackend) Status(ctx context.Context) (result.Status, error) {
	return poison(h.fakeBackend.Status(ctx))
}
func (h hostileBackend) Pending(ctx context.Context) ([]result.PendingSource, error) {
	return poison(h.fakeBackend.Pending(ctx))
}
func (h hostileBackend) Promote(ctx context.Context, refs []string) (result.PromoteResult, error) {
	return poison(h.fakeBackend.Promote(ctx, cleanAll(refs)))
}
func (h hostileBackend) Reject(ctx context.Context, refs []string, reason string) (result.RejectResult, error) {
	return poison(h.fakeBackend.Reject(ctx, cleanAll(refs), reason))
}
func (h hostileBackend) Rejected(ctx context.Context) ([]result.RejectedSource, error) {
	return poison(h.fakeBackend.Rejected(ctx))
}
func (h hostileBackend) Audit(ctx context.Context, q result.AuditQuery) (result.AuditReport, error) {
	q.Source = clean(q.Source)
	return poison(h.fakeBackend.Audit(ctx, q))
}
func (h hostileBackend) Topics(ctx context.Context) ([]result.TopicSummary, error) {
	return poison(h.fakeBackend.Topics(ctx))
}
func (h hostileBackend) Topic(ctx context.Context, path string) (result.TopicView, error) {
	return poison(h.fakeBackend.Topic(ctx, clean(path)))
}
func (h hostileBackend) Archive(ctx context.Context, path string) (result.ArchiveView, error) {
	return poison(h.fakeBackend.Archive(ctx, clean(path)))
}
func (h hostileBackend) Core(ctx context.Context) (result.CoreView, error) {
	return poison(h.fakeBackend.Core(ctx))
}
func (h hostileBackend) MoveCoreBlock(ctx context.Context, id string, delta int) (result.UpdateResult, error) {
	return poison(h.fakeBackend.MoveCoreBlock(ctx, clean(id), delta))
}
func (h hostileBackend) ExplainCore(ctx context.Context, id string) (result.CoreExplanation, error) {
	return poison(h.fakeBackend.ExplainCore(ctx, clean(id)))
}
func (h hostileBackend) ReorderCore(ctx context.Context, id string, m result.CoreMove) (result.CoreMoveResult, error) {
	return poison(h.fakeBackend.ReorderCore(ctx, clean(id), m))
}
func (h hostileBackend) Passes(ctx context.Context) ([]result.PassReport, error) {
	return poison(h.fakeBackend.Passes(ctx))
}
func (h hostileBackend) Sleep(ctx context.Context) (result.PassReport, error) {
	return poison(h.fakeBackend.Sleep(ctx))
}
func (h hostileBackend) Proposals(ctx context.Context) ([]proposals.Proposal, error) {
	return poison(h.fakeBackend.Proposals(ctx))
}
func (h hostileBackend) Accept(ctx context.Context, id string, only []string) (proposals.AcceptResult, error) {
	return poison(h.fakeBackend.Accept(ctx, clean(id), cleanAll(only)))
}
func (h hostileBackend) Decline(ctx context.Context, id string, only []string) ([]string, error) {
	return poison(h.fakeBackend.Decline(ctx, clean(id), cleanAll(only)))
}
func (h hostileBackend) Revert(ctx context.Context, rev int64, dryRun bool) (result.RevertResult, error) {
	return poison(h.fakeBackend.Revert(ctx, rev, dryRun))
}
func (h hostileBackend) Forget(ctx context.Context, sel result.ForgetSelector, dryRun bool) (result.ForgetResult, error) {
	sel.Sources, sel.Speaker, sel.Thread = cleanAll(sel.Sources), clean(sel.Speaker), clean(sel.Thread)
	return poison(h.fakeBackend.Forget(ctx, sel, dryRun))
}
func (h hostileBackend) Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error) {
	return poison(h.fakeBackend.Search(ctx, q))
}
func (h hostileBackend) LockHolder() (string, bool) {
	who, held := h.fakeBackend.LockHolder()
	return who + hostile, held
}

// checkSafe fails when view holds a control that would reach the terminal.
func checkSafe(t *testing.T, what, view string) {
	t.Helper()
	if i := termsafe.Index(view); i >= 0 {
		t.Errorf("%s reaches the terminal raw at byte %d: %q", what, i, view[max(0, i-40):min(len(view), i+40)])
	}
}

// flows are actions carried to the end (dialogs, notices and the results
// they show), beyond the golden scenes.
var flows = []struct {
	name string
	keys []string
}{
	{"promote", []string{"space", "p", "y"}},
	{"reject with a reason", []string{"space", "x", "w", "h", "y", "enter", "y"}},
	{"forget a speaker", []string{"F", "enter", "y"}},
	{"forget a thread", []string{"T", "enter", "y"}},
	{"filter pending", []string{"/", "e", "enter", "enter"}},
	{"core move, explain, pin, top, source", []string{"3", "down", "K", "y", "J", "y", "e", "P", "y", "t", "y", "enter", "s", "l", "esc"}},
	{"run sleep, revert it", []string{"4", "S", "y", "R", "y"}},
	{"search by speaker, open", []string{"5", "/", "tab", "u", "enter", "enter", "esc", "o"}},
	{"audit filter, open, source", []string{"7", "/", "r", "enter", "enter", "o", "esc", "down", "o", "R", "y"}},
	{"topics drill down everywhere", []string{"2", "down", "enter", "down", "enter", "l", "enter", "F", "enter", "y"}},
	{"status and help", []string{"6", "down", "?", "?", "r"}},
}

func TestTerminalSafety_EveryScene(t *testing.T) {
	var shown []string
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for i, s := range scenes {
			t.Run(fmt.Sprintf("%s_%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				f := newFakeBackend()
				if s.withProposal {
					f.proposals = append(f.proposals, fakeProposal())
				}
				f.lockHolder = "pid 4242 scriptorium update"
				h := newHostileHarness(t, f, size[0], size[1])
				for _, k := range s.keys {
					h.press(k)
					checkSafe(t, s.name+" after "+k, h.m.View())
				}
				h.typeText(s.text)
				for _, k := range s.then {
					h.press(k)
					checkSafe(t, s.name+" after "+k, h.m.View())
				}
				view := h.m.View()
				checkSafe(t, s.name, view)
				if strings.Contains(view, hostileSeen) {
					shown = append(shown, s.name)
				}
				_ = i
			})
		}
	}
	// The hostile text really reached the screens: most scenes show it.
	if len(shown) < 2*(len(scenes)-2) {
		t.Errorf("only %d of %d scenes showed the hostile text (%v): the test proves too little", len(shown), 2*len(scenes), shown)
	}
}

func TestTerminalSafety_Flows(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, fl := range flows {
			for _, withProposal := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s_%dx%d_%v", fl.name, size[0], size[1], withProposal), func(t *testing.T) {
					f := newFakeBackend()
					if withProposal {
						f.proposals = append(f.proposals, fakeProposal())
					}
					f.lockHolder = "pid 4242 scriptorium update"
					h := newHostileHarness(t, f, size[0], size[1])
					for _, k := range fl.keys {
						h.press(k)
						checkSafe(t, fl.name+" after "+k, h.m.View())
					}
				})
			}
		}
	}
	// The proposal's own keys: accept and decline, file by file and whole.
	for _, keys := range [][]string{{"4", "a", "y"}, {"4", "x", "y"}, {"4", "l", "A", "y"}, {"4", "X", "y"}} {
		f := newFakeBackend()
		f.proposals = append(f.proposals, fakeProposal())
		h := newHostileHarness(t, f, 120, 40)
		for _, k := range keys {
			h.press(k)
			checkSafe(t, fmt.Sprintf("proposal %v after %s", keys, k), h.m.View())
		}
	}
}

// newHostileHarness is newHarnessWith over the hostile wrapper of f.
func newHostileHarness(t *testing.T, f *fakeBackend, w, h int) *harness {
	t.Helper()
	hs := &harness{t: t, f: f}
	m := New(hostileBackend{f}, Options{NoColor: true})
	m.after = func(_ time.Duration, msg tea.Msg) tea.Cmd {
		hs.timers = append(hs.timers, msg)
		return nil
	}
	hs.m = m
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// Errors in the status line and the dialogs: each failing call's message
// ends in hostile.
func TestTerminalSafety_Errors(t *testing.T) {
	for _, c := range []struct {
		method string
		keys   []string
	}{
		{"Pending", nil},
		{"Promote", []string{"space", "p", "y"}},
		{"Topic", []string{"2", "down", "enter"}},
		{"Core", []string{"3"}},
		{"Search", []string{"5", "/", "x", "enter"}},
		{"Sleep", []string{"4", "S", "y"}},
		{"Status", []string{"6"}},
		{"Forget", []string{"F"}},
		{"Audit", []string{"7"}},
	} {
		t.Run(c.method, func(t *testing.T) {
			f := newFakeBackend()
			f.setFail(c.method, errcode.Errorf(errcode.IO, "broken %s", c.method))
			h := newHostileHarness(t, f, 120, 40)
			for _, k := range c.keys {
				h.press(k)
				checkSafe(t, c.method+" after "+k, h.m.View())
			}
			view := h.m.View()
			checkSafe(t, c.method, view)
			if !strings.Contains(view, hostileSeen) {
				t.Logf("%s: the error is not on screen:\n%s", c.method, view)
			}
		})
	}
}

// A notice from the start (the state dir was made private) is on the
// status line until something replaces it.
func TestOptions_NoticeShownAtStart(t *testing.T) {
	m := New(newFakeBackend(), Options{NoColor: true, Notice: "/s was open to other users: tightened 3 directories"})
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if v := next.(Model).View(); !strings.Contains(v, "tightened 3 directories") {
		t.Errorf("the notice is not on screen:\n%s", v)
	}
}
func (h hostileBackend) Recall(ctx context.Context, prompt string) (views.Recalled, error) {
	return poison(h.fakeBackend.Recall(ctx, clean(prompt)))
}
