package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Pending is pane 1: pending sources grouped by thread and, in a thread,
// by sender; the selected frame verbatim, multi-select, a filter,
// promotion and rejection, of the selection or of a whole sender at once
// (P, X). R switches to the rejected sources, where promotion reverses a
// rejection.
type Pending struct {
	c    *Common
	w, h int

	all      []result.PendingSource // the list shown: the queue, or the rejected
	hay      []string               // per source of all, the lower-case text the filter searches
	nThreads int                    // threads of all
	queue    []result.PendingSource
	loaded   bool
	err      error

	rejected     map[string]result.RejectedSource // by source-id
	rejectedList []result.PendingSource           // oldest rejection first
	showRejected bool
	askRejected  bool // load the rejected sources once the queue is in (Init)

	reason    textinput.Model // why, asked before a rejection
	reasoning bool
	reasonFor []string // the source-ids the reason is for

	rows   []pendingRow // visible rows: thread headers and sources
	items  []int        // indexes into rows of the source rows
	cursor int          // index into items
	offset int          // first visible row

	selected  map[string]bool // by source-id
	filter    textinput.Model
	filtering bool
}

type pendingRow struct {
	thread string
	sender string // the sender's key (senderKey), on sender headers and sources
	label  string // sender headers: the sender's label
	count  int    // header rows: sources of the thread (or sender) that pass the filter
	src    int    // source rows: index into all; rowThread or rowSender for headers
}

// The src of header rows.
const (
	rowThread = -1
	rowSender = -2
)

// NewPending returns the pending pane.
func NewPending(c *Common) *Pending {
	return &Pending{c: c, selected: map[string]bool{}, rejected: map[string]result.RejectedSource{},
		filter: newInput(c, "/ ", "filter by thread, speaker or text"),
		reason: newInput(c, "reason: ", "why reject them? (optional; enter continues, esc cancels)")}
}

// Title implements Component.
func (p *Pending) Title() string {
	if len(p.queue) > 0 {
		return fmt.Sprintf("Pending %d", len(p.queue))
	}
	return "Pending"
}

// Init implements Component: the queue first, the rejected sources once
// it is in, so the two do not compete for a cold engine at start-up.
func (p *Pending) Init() tea.Cmd {
	p.askRejected = true
	return Send(LoadPending{})
}

// Refresh implements Component.
func (p *Pending) Refresh() tea.Cmd { return tea.Batch(Send(LoadPending{}), Send(LoadRejected{})) }

// Capturing implements Component.
func (p *Pending) Capturing() bool { return p.filtering || p.reasoning }

// ShowingRejected reports whether the list shows the rejected sources.
func (p *Pending) ShowingRejected() bool { return p.showRejected }

// SetSize implements Component.
func (p *Pending) SetSize(w, h int) {
	p.w, p.h = w, h
	p.filter.Width = max(w-4, 1)
	p.reason.Width = max(w-12, 1)
}

// Selected returns the selected source-ids in list order.
func (p *Pending) Selected() []string {
	var refs []string
	for _, s := range p.all {
		if p.selected[s.Ref] {
			refs = append(refs, s.Ref)
		}
	}
	return refs
}

// Current returns the source under the cursor.
func (p *Pending) Current() (result.PendingSource, bool) {
	if len(p.items) == 0 {
		return result.PendingSource{}, false
	}
	return p.all[p.rows[p.items[p.cursor]].src], true
}

// ShortHelp implements help.KeyMap.
func (p *Pending) ShortHelp() []key.Binding {
	k := p.c.Keys
	switch {
	case p.reasoning:
		return []key.Binding{k.Reason.Submit, k.Reason.Cancel}
	case p.filtering:
		return []key.Binding{k.Filter.Apply, k.Filter.Clear}
	case p.showRejected:
		back := k.Pending.ShowRejected
		back.SetHelp("R", "back to the queue")
		return []key.Binding{k.Pending.Select, k.Pending.Promote, back}
	}
	return []key.Binding{k.Pending.Select, k.Pending.Filter, k.Pending.Promote, k.Pending.Reject}
}

// FullHelp implements help.KeyMap.
func (p *Pending) FullHelp() [][]key.Binding {
	k := p.c.Keys.Pending
	switch {
	case p.reasoning:
		r := p.c.Keys.Reason
		return [][]key.Binding{{r.Submit, r.Cancel, r.ForceQuit}}
	case p.filtering:
		return [][]key.Binding{{p.c.Keys.Filter.Apply, p.c.Keys.Filter.Clear, p.c.Keys.Filter.ForceQuit}}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Select, k.SelectThread, k.ClearSelection, k.Filter},
		{k.Promote, k.Reject, k.PromoteSender, k.RejectSender, k.ShowRejected},
		{k.ForgetSpeaker, k.ForgetThread},
	}
}

// Update implements Component.
func (p *Pending) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case PendingLoaded:
		p.loaded = true
		p.err = msg.Err
		if msg.Err == nil {
			p.queue = msg.Sources
			if !p.showRejected {
				p.setSources(p.queue)
			}
		}
		if p.askRejected {
			p.askRejected = false
			return p, Send(LoadRejected{})
		}
	case RejectedLoaded:
		if msg.Err == nil {
			p.setRejected(msg.Sources)
		}
	case Promoted:
		if msg.Err == nil {
			for _, r := range msg.Refs {
				delete(p.selected, r)
			}
		}
	case SourcesRejected:
		if msg.Err == nil {
			for _, r := range msg.Request.Refs {
				delete(p.selected, r)
			}
		}
	case tea.KeyMsg:
		switch {
		case p.reasoning:
			return p, p.updateReason(msg)
		case p.filtering:
			return p, p.updateFilter(msg)
		}
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Pending) updateFilter(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Filter
	switch {
	case key.Matches(msg, k.Apply):
		p.filtering = false
		p.filter.Blur()
		return nil
	case key.Matches(msg, k.Clear):
		p.filtering = false
		p.filter.Blur()
		p.filter.SetValue("")
		p.rebuild()
		return nil
	}
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	p.rebuild()
	return cmd
}

func (p *Pending) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Pending
	page := max(p.listHeight()-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-page)
	case key.Matches(msg, k.PageDown):
		p.move(page)
	case key.Matches(msg, k.Top):
		p.move(-len(p.items))
	case key.Matches(msg, k.Bottom):
		p.move(len(p.items))
	case key.Matches(msg, k.Select):
		if s, ok := p.Current(); ok {
			p.toggle(s.Ref)
			p.move(1)
		}
	case key.Matches(msg, k.SelectThread):
		p.toggleThread()
	case key.Matches(msg, k.ClearSelection):
		clear(p.selected)
	case key.Matches(msg, k.Filter):
		p.filtering = true
		return p.filter.Focus()
	case key.Matches(msg, k.Promote):
		return p.promote()
	case key.Matches(msg, k.Reject):
		return p.askReason()
	case key.Matches(msg, k.PromoteSender):
		return p.promoteSender()
	case key.Matches(msg, k.RejectSender):
		return p.rejectSender()
	case key.Matches(msg, k.ForgetSpeaker):
		return p.forgetSpeaker()
	case key.Matches(msg, k.ForgetThread):
		return p.forgetThread()
	case key.Matches(msg, k.Open):
		if s, ok := p.Current(); ok {
			return Send(OpenArchive{Path: s.Path, Anchor: s.Anchor})
		}
	case key.Matches(msg, k.ShowRejected):
		p.showRejected = !p.showRejected
		clear(p.selected)
		p.cursor, p.offset = 0, 0
		if p.showRejected {
			p.setSources(p.rejectedList)
		} else {
			p.setSources(p.queue)
		}
	}
	return nil
}

// setRejected keeps the rejected sources, for the R list and for the
// reason shown beside each.
func (p *Pending) setRejected(rs []result.RejectedSource) {
	clear(p.rejected)
	p.rejectedList = make([]result.PendingSource, 0, len(rs)) // p.all may share the old one
	for _, r := range rs {
		p.rejected[r.Ref] = r
		p.rejectedList = append(p.rejectedList, r.PendingSource)
	}
	if p.showRejected {
		p.setSources(p.rejectedList)
	}
}

func (p *Pending) toggle(ref string) {
	if p.selected[ref] {
		delete(p.selected, ref)
	} else {
		p.selected[ref] = true
	}
}

// toggleThread selects every visible source of the cursor's thread, or
// clears them when all are selected already.
func (p *Pending) toggleThread() {
	cur, ok := p.Current()
	if !ok {
		return
	}
	thread := threadOf(cur)
	var refs []string
	all := true
	for _, i := range p.items {
		s := p.all[p.rows[i].src]
		if threadOf(s) == thread {
			refs = append(refs, s.Ref)
			all = all && p.selected[s.Ref]
		}
	}
	for _, r := range refs {
		if all {
			delete(p.selected, r)
		} else {
			p.selected[r] = true
		}
	}
}

func (p *Pending) setSources(src []result.PendingSource) {
	var curRef string
	if s, ok := p.Current(); ok {
		curRef = s.Ref
	}
	p.all = src
	exists := map[string]bool{}
	threads := map[string]bool{}
	p.hay = make([]string, len(src))
	for i, s := range src {
		exists[s.Ref] = true
		threads[threadOf(s)] = true
		p.hay[i] = pendingHaystack(s)
	}
	p.nThreads = len(threads)
	for r := range p.selected {
		if !exists[r] {
			delete(p.selected, r)
		}
	}
	p.rebuild()
	for i, row := range p.items {
		if p.all[p.rows[row].src].Ref == curRef {
			p.cursor = i
		}
	}
}

// rebuild groups the sources that pass the filter by thread, threads in
// the order of their oldest pending source, and in each thread by sender,
// in the order of their oldest.
func (p *Pending) rebuild() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	var order []string
	groups := map[string][]int{}
	for i, s := range p.all {
		if q != "" && !strings.Contains(p.hay[i], q) {
			continue
		}
		t := threadOf(s)
		if _, ok := groups[t]; !ok {
			order = append(order, t)
		}
		groups[t] = append(groups[t], i)
	}
	prev := p.cursor
	p.rows, p.items = p.rows[:0], p.items[:0]
	for _, t := range order {
		p.rows = append(p.rows, pendingRow{thread: t, count: len(groups[t]), src: rowThread})
		var senders []string
		bySender := map[string][]int{}
		for _, i := range groups[t] {
			k := senderKey(p.all[i])
			if _, ok := bySender[k]; !ok {
				senders = append(senders, k)
			}
			bySender[k] = append(bySender[k], i)
		}
		for _, k := range senders {
			first := p.all[bySender[k][0]]
			p.rows = append(p.rows, pendingRow{thread: t, sender: k, label: first.SpeakerLabel, count: len(bySender[k]), src: rowSender})
			for _, i := range bySender[k] {
				p.items = append(p.items, len(p.rows))
				p.rows = append(p.rows, pendingRow{thread: t, sender: k, src: i})
			}
		}
	}
	p.cursor = clamp(prev, 0, len(p.items)-1)
}

// senderKey tells senders apart: the speaker id, or the label of a sender
// who has none (a WhatsApp name).
func senderKey(s result.PendingSource) string {
	if s.SpeakerID != "" {
		return "id:" + s.SpeakerID
	}
	return "label:" + s.SpeakerLabel
}

// pendingHaystack is what the filter searches in a source, lower case,
// built once per load instead of once per source per keystroke. The
// fields are joined by a NUL, which a query (typed text) never holds, so
// a match never spans two fields.
func pendingHaystack(s result.PendingSource) string {
	return strings.ToLower(strings.Join([]string{threadOf(s), s.Ref, s.SpeakerLabel, s.SpeakerID, s.Content, s.Text}, "\x00"))
}

func threadOf(s result.PendingSource) string {
	if s.Thread != "" {
		return s.Thread
	}
	return threadOfRef(s.Ref)
}

// threadOfRef is "<provider>/<thread>" of a source-id
// "<provider>/<thread>/<message-id>".
func threadOfRef(ref string) string {
	if i := strings.LastIndexByte(ref, '/'); i > 0 {
		return ref[:i]
	}
	return ref
}

func (p *Pending) move(delta int) {
	p.cursor = clamp(p.cursor+delta, 0, len(p.items)-1)
}
