package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/views"
)

// reqKind is a kind of engine work.
type reqKind int

const (
	kindStatus reqKind = iota
	kindPending
	kindTopics
	kindTopic
	kindArchive
	kindCore
	kindPasses
	kindSearch
	kindRecall
	kindProposals
	kindRevertPreview
	kindExplain
	kindRejected
	kindAudit
	kindForgetPreview
	kindEditOpen
	kindDeletePreview
	kindMovePreview
	kindPromote
	kindMove
	kindSleep
	kindAccept
	kindDecline
	kindRevert
	kindReorder
	kindReject
	kindForget
	kindBlockEdit
	kindBlockDelete
	kindBlockMove
)

// mutation reports whether the kind changes the workspace. Mutations are
// never dropped as stale and run one at a time.
func (k reqKind) mutation() bool { return k >= kindPromote }

// reqKey is what a load asks for: its kind and, for loads of one thing,
// which one (a path, a search query). Staleness is judged per key, not per
// kind: requests reach the loop from concurrently running commands, so the
// last one to arrive is not necessarily the one a pane wants now. Each pane
// keeps only results for its current path or query; the root only drops a
// result overtaken by a newer request for the same key.
type reqKey struct {
	kind reqKind
	arg  any // nil, a path string or a result.SearchQuery: always comparable
}

// resultMsg carries the outcome of engine work back to the loop.
type resultMsg struct {
	kind  reqKind
	key   reqKey
	seq   int
	task  int
	label string
	msg   tea.Msg // the typed views result, sent on to the panes
	err   error
}

// changedMsg says another process changed the workspace.
type changedMsg struct{}

// watchStoppedMsg says the change channel was closed.
type watchStoppedMsg struct{}

// watch waits for the next workspace change (bubbletea examples/realtime);
// the handler of changedMsg re-arms it. Bursts of changes coalesce into one
// refresh.
func (m *Model) watch() tea.Cmd {
	if m.b == nil {
		return nil
	}
	ch := m.b.Changes()
	if ch == nil {
		return nil
	}
	return waitForChange(ch)
}

func waitForChange(ch <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return watchStoppedMsg{}
		}
		for {
			select {
			case _, ok := <-ch:
				if !ok {
					return changedMsg{}
				}
			default:
				return changedMsg{}
			}
		}
	}
}

// run starts engine work as a command. fn runs off the UI loop; a panic
// in it becomes an error in the status line instead of a crash. arg names
// what a load of one thing loads (see reqKey).
func (m *Model) run(kind reqKind, arg any, label string, fn func(ctx context.Context) (tea.Msg, error)) tea.Cmd {
	// One counter for all keys: a key dropped from m.seq after its result
	// arrived never reuses a number an older request still carries.
	m.lastSeq++
	seq := m.lastSeq
	k := reqKey{kind: kind, arg: arg}
	if !kind.mutation() {
		m.seq[k] = seq
	}
	id, startSpinner := m.tasks.start(label)
	ctx := m.ctx
	var lockCheck tea.Cmd
	if kind.mutation() {
		m.tasks.mutation = id
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(m.ctx)
		m.tasks.cancel = cancel
		lockCheck = m.after(lockWaitAfter, lockCheckMsg{task: id})
	}
	work := func() (res tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				res = resultMsg{kind: kind, key: k, seq: seq, task: id, label: label,
					err: fmt.Errorf("internal error: %v", p)}
			}
		}()
		msg, err := fn(ctx)
		return resultMsg{kind: kind, key: k, seq: seq, task: id, label: label, msg: msg, err: err}
	}
	if startSpinner {
		return tea.Batch(work, m.spinTick(), lockCheck)
	}
	if lockCheck != nil {
		return tea.Batch(work, lockCheck)
	}
	return work
}

// request turns a pane's request message into engine work or a change of
// the root's state. It reports false for messages that are not requests.
func (m *Model) request(msg tea.Msg) (tea.Cmd, bool) {
	b := m.b
	if b == nil {
		return nil, false
	}
	if cmd, ok := m.forgetRequest(msg); ok {
		return cmd, true
	}
	if cmd, ok := m.curateRequest(msg); ok {
		return cmd, true
	}
	switch r := msg.(type) {
	case views.LoadStatus:
		return m.run(kindStatus, nil, "loading status", func(ctx context.Context) (tea.Msg, error) {
			s, err := b.Status(ctx)
			return views.StatusLoaded{Status: s, Err: err}, err
		}), true
	case views.LoadPending:
		return m.run(kindPending, nil, "loading pending sources", func(ctx context.Context) (tea.Msg, error) {
			s, err := b.Pending(ctx)
			return views.PendingLoaded{Sources: s, Err: err}, err
		}), true
	case views.LoadTopics:
		return m.run(kindTopics, nil, "loading topics", func(ctx context.Context) (tea.Msg, error) {
			t, err := b.Topics(ctx)
			return views.TopicsLoaded{Topics: t, Err: err}, err
		}), true
	case views.LoadTopic:
		return m.run(kindTopic, r.Path, "loading "+r.Path, func(ctx context.Context) (tea.Msg, error) {
			t, err := b.Topic(ctx, r.Path)
			return views.TopicLoaded{Path: r.Path, Topic: t, Err: err}, err
		}), true
	case views.LoadArchive:
		return m.run(kindArchive, r.Path, "loading "+r.Path, func(ctx context.Context) (tea.Msg, error) {
			a, err := b.Archive(ctx, r.Path)
			return views.ArchiveLoaded{Path: r.Path, Archive: a, Err: err}, err
		}), true
	case views.LoadCore:
		return m.run(kindCore, nil, "rendering core", func(ctx context.Context) (tea.Msg, error) {
			c, err := b.Core(ctx)
			return views.CoreLoaded{Core: c, Err: err}, err
		}), true
	case views.LoadPasses:
		return m.run(kindPasses, nil, "loading passes", func(ctx context.Context) (tea.Msg, error) {
			p, err := b.Passes(ctx)
			return views.PassesLoaded{Passes: p, Err: err}, err
		}), true
	case views.RunSearch:
		return m.run(kindSearch, r.Query, "searching", func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Search(ctx, r.Query)
			return views.SearchDone{Query: r.Query, Results: res, Err: err}, err
		}), true
	case views.RunRecall:
		return m.run(kindRecall, r.Prompt, "recalling", func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Recall(ctx, r.Prompt)
			return views.RecallDone{Prompt: r.Prompt, Result: res, Err: err}, err
		}), true
	case views.Promote:
		return m.mutate(kindPromote, "promoting "+r.Summary, r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Promote(ctx, r.Refs)
			return views.Promoted{Refs: r.Refs, Who: r.Who, Result: res, Err: err}, err
		}), true
	case views.Reject:
		return m.mutate(kindReject, "rejecting "+r.Summary, r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Reject(ctx, r.Refs, r.Reason)
			return views.SourcesRejected{Request: r, Result: res, Err: err}, err
		}), true
	case views.LoadRejected:
		return m.run(kindRejected, nil, "loading rejected sources", func(ctx context.Context) (tea.Msg, error) {
			s, err := b.Rejected(ctx)
			return views.RejectedLoaded{Sources: s, Err: err}, err
		}), true
	case views.LoadAudit:
		return m.run(kindAudit, nil, "loading the audit trail", func(ctx context.Context) (tea.Msg, error) {
			rep, err := b.Audit(ctx, result.AuditQuery{})
			return views.AuditLoaded{Report: rep, Err: err}, err
		}), true
	case views.MoveCoreBlock:
		return m.mutate(kindMove, fmt.Sprintf("moving ^%s %s", r.ID, direction(r.Delta)), r,
			func(ctx context.Context) (tea.Msg, error) {
				res, err := b.MoveCoreBlock(ctx, r.ID, r.Delta)
				return views.CoreMoved{ID: r.ID, Delta: r.Delta, Result: res, Err: err}, err
			}), true
	case views.RunSleep:
		return m.mutate(kindSleep, "running a sleep pass", r, func(ctx context.Context) (tea.Msg, error) {
			rep, err := b.Sleep(ctx)
			return views.SleepDone{Report: rep, Err: err}, err
		}), true
	case views.LoadExplain:
		return m.run(kindExplain, r.ID, "explaining ^"+r.ID, func(ctx context.Context) (tea.Msg, error) {
			x, err := b.ExplainCore(ctx, r.ID)
			return views.ExplainLoaded{ID: r.ID, Explanation: x, Err: err}, err
		}), true
	case views.ReorderCore:
		return m.mutate(kindReorder, "moving ^"+r.ID+" "+moveLabel(r.Move), r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.ReorderCore(ctx, r.ID, r.Move)
			return views.CoreReordered{Request: r, Result: res, Err: err}, err
		}), true
	case views.LoadProposals:
		return m.run(kindProposals, nil, "loading proposals", func(ctx context.Context) (tea.Msg, error) {
			ps, err := b.Proposals(ctx)
			return views.ProposalsLoaded{Proposals: ps, Err: err}, err
		}), true
	case views.AcceptProposal:
		return m.mutate(kindAccept, "accepting "+proposalLabel(r.ID, r.Only), r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Accept(ctx, r.ID, r.Only)
			return views.ProposalAccepted{Request: r, Result: res, Err: err}, err
		}), true
	case views.DeclineProposal:
		return m.mutate(kindDecline, "declining "+proposalLabel(r.ID, r.Only), r, func(ctx context.Context) (tea.Msg, error) {
			rest, err := b.Decline(ctx, r.ID, r.Only)
			return views.ProposalDeclined{Request: r, Remaining: rest, Err: err}, err
		}), true
	case views.PreviewRevert:
		return m.run(kindRevertPreview, r.Revision, fmt.Sprintf("preparing the revert of revision %d", r.Revision),
			func(ctx context.Context) (tea.Msg, error) {
				res, err := b.Revert(ctx, r.Revision, true)
				return views.RevertPreviewed{Revision: r.Revision, From: r.From, Result: res, Err: err}, err
			}), true
	case views.RunRevert:
		return m.mutate(kindRevert, fmt.Sprintf("reverting revision %d", r.Revision), r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Revert(ctx, r.Revision, false)
			return views.Reverted{Revision: r.Revision, Result: res, Err: err}, err
		}), true
	case views.Confirm:
		m.dialog = views.NewDialog(m.common, r)
		return nil, true
	case views.OpenArchive:
		m.drilled = true
		return m.archive.Open(r.Path, r.Anchor), true
	case views.CloseArchive:
		m.drilled = false
		return nil, true
	case views.OpenBlock:
		load := m.switchTo(PaneTopics)
		_, cmd := m.topics.Update(r)
		return tea.Batch(load, cmd), true
	case views.Notice:
		if r.Err {
			m.setError(r.Text)
			return nil, true
		}
		return m.setNotice(r.Text), true
	}
	return nil, false
}

// mutate starts a workspace change unless one is already under way; the
// request is also shown to the panes so they can show progress.
func (m *Model) mutate(kind reqKind, label string, req tea.Msg, fn func(ctx context.Context) (tea.Msg, error)) tea.Cmd {
	if m.tasks.mutation != 0 {
		m.setError(fmt.Sprintf("busy: %s is still running", m.tasks.running[m.tasks.mutation]))
		return nil
	}
	return tea.Batch(m.run(kind, nil, label, fn), m.broadcast(req))
}

// moveLabel says where a reorder moves a block.
func moveLabel(m result.CoreMove) string {
	switch {
	case m.Pin:
		return "into the pinned section"
	case m.Unpin:
		return "out of the pinned section"
	case m.Top:
		return "to the top"
	case m.To > 0:
		return fmt.Sprintf("to position %d", m.To)
	}
	return direction(m.Delta)
}

// reorderText says what a reorder changed in core.md's render.
func reorderText(r views.CoreReordered) string {
	res := r.Result
	if len(res.Changed) == 0 {
		return fmt.Sprintf("^%s is already there (position %d): nothing changed", r.Request.ID, res.Position)
	}
	s := fmt.Sprintf("moved ^%s %s, now position %d (revision %d); core.md %d → %d tokens", r.Request.ID,
		moveLabel(r.Request.Move), res.Position, res.Revision, res.Before.Tokens, res.After.Tokens)
	in, out := setDiff(res.After.Included, res.Before.Included), setDiff(res.Before.Included, res.After.Included)
	if len(in) > 0 {
		s += "; now included: ^" + strings.Join(in, " ^")
	}
	if len(out) > 0 {
		s += "; now left out: ^" + strings.Join(out, " ^")
	}
	return s
}

// setDiff lists the ids of a not in b.
func setDiff(a, b []string) []string {
	in := map[string]bool{}
	for _, id := range b {
		in[id] = true
	}
	var out []string
	for _, id := range a {
		if !in[id] {
			out = append(out, id)
		}
	}
	return out
}

// proposalLabel names a proposal, or the files of it, for the status line.
func proposalLabel(id string, only []string) string {
	if len(only) == 0 {
		return "proposal " + id
	}
	return strings.Join(only, ", ") + " of proposal " + id
}

func direction(delta int) string {
	if delta < 0 {
		return "up"
	}
	return "down"
}

// onResult drops stale loads, reports errors and successes in the status
// line, passes the typed result to the panes and refreshes after a change.
func (m *Model) onResult(r resultMsg) tea.Cmd {
	m.tasks.finish(r.task)
	var rest tea.Cmd
	if len(m.tasks.running) == 0 {
		rest = m.initRest() // the first pane has its data: load the others
	}
	if !r.kind.mutation() {
		if r.seq != m.seq[r.key] {
			return rest // a newer request for the same thing is under way or done
		}
		delete(m.seq, r.key) // only requests still running keep an entry
	}
	if r.err != nil && fatal(r.err) {
		m.fatal = r.err
		return nil
	}
	if r.err != nil {
		m.setError(r.label + " failed: " + errText(r.err))
	} else if cmd, ok := m.curateResult(r.msg); ok {
		return tea.Batch(rest, cmd)
	}
	cmds := []tea.Cmd{rest}
	if r.msg != nil {
		cmds = append(cmds, m.broadcast(r.msg))
	}
	if r.err == nil && r.kind.mutation() {
		cmds = append(cmds, m.setNotice(successText(r.msg, r.label)), m.refreshAll())
	}
	return tea.Batch(cmds...)
}

// fatal reports errors after which the TUI cannot do anything useful.
func fatal(err error) bool {
	var e *errcode.Error
	return errors.As(err, &e) && e.Code == errcode.MemoryDisabled
}

// errText is an error for the status line: code, message, and whether
// trying again may help.
func errText(err error) string {
	var e *errcode.Error
	if !errors.As(err, &e) {
		return flatten(err)
	}
	s := fmt.Sprintf("%s: %s", e.Code, flatten(e))
	if e.Retryable() {
		s += " (retryable: try again)"
	}
	return s
}

// successText says what a finished mutation changed.
func successText(msg tea.Msg, label string) string {
	switch r := msg.(type) {
	case views.Promoted:
		return promoteText(strings.TrimPrefix(label, "promoting "), r)
	case views.SourcesRejected:
		return rejectText(r)
	case views.CoreMoved:
		s := fmt.Sprintf("moved ^%s %s in topics/core.md", r.ID, direction(r.Delta))
		if r.Result.Revision > 0 {
			s += fmt.Sprintf(" (revision %d); core.md re-rendered", r.Result.Revision)
		}
		return s
	case views.CoreReordered:
		return reorderText(r)
	case views.ProposalAccepted:
		s := fmt.Sprintf("accepted %s", proposalLabel(r.Request.ID, r.Request.Only))
		if r.Result.Revision > 0 {
			s += fmt.Sprintf(": revision %d, %d file(s) changed", r.Result.Revision, len(r.Result.Changed))
		}
		if r.Result.Rebased {
			s += " (rebased onto later changes)"
		}
		if n := len(r.Result.Remaining); n > 0 {
			s += fmt.Sprintf("; %d file(s) still waiting", n)
		}
		return s
	case views.ProposalDeclined:
		s := "declined " + proposalLabel(r.Request.ID, r.Request.Only) + "; recorded in the events"
		if n := len(r.Remaining); n > 0 {
			s += fmt.Sprintf("; %d file(s) still waiting", n)
		}
		return s
	case views.Forgotten:
		return forgetText(r)
	case views.BlockEdited:
		return editedText(r)
	case views.BlockDeleted:
		return deletedText(r)
	case views.BlockMoved:
		return movedText(r)
	case views.Reverted:
		if len(r.Result.Changed) == 0 {
			return fmt.Sprintf("revision %d was already undone: nothing changed", r.Revision)
		}
		return fmt.Sprintf("reverted revision %d as revision %d (%d file(s))", r.Revision, r.Result.Revision, len(r.Result.Changed))
	case views.SleepDone:
		rep := r.Report
		s := fmt.Sprintf("sleep pass #%d (%s): ", rep.Pass, views.ModelLabel(rep.Model))
		switch {
		case rep.Error != "":
			return s + "rejected, no changes: " + rep.Error
		case len(rep.Changed) == 0:
			return s + "no changes"
		}
		s += fmt.Sprintf("%d file(s) changed", len(rep.Changed))
		if rep.Revision > 0 {
			s += fmt.Sprintf(", revision %d", rep.Revision)
		}
		return s
	}
	return label + " done"
}
