package keymap

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding of the TUI, grouped by the scope in which it is
// active. The root model and the panes read their bindings from here, the
// help footer is generated from here and so is docs/keybindings.md.
type KeyMap struct {
	Global  Global
	Pending Pending
	Filter  Filter
	Topics  Topics
	Archive Archive
	Core    Core
	Passes  Passes
	Search  Search
	Input   SearchInput
	Status  Status
	Audit   Audit
	Reason  Reason
	Forget  Forget
	Picker  Picker
	Confirm Confirm
}

// Global holds the keys that work on every pane unless a text input or a
// confirmation dialog has the focus.
type Global struct {
	ForceQuit key.Binding
	Quit      key.Binding
	Help      key.Binding
	Refresh   key.Binding
	NextPane  key.Binding
	PrevPane  key.Binding
	// Panes[i] jumps to pane i+1 (1 Pending … 6 Status, 7 Audit).
	Panes [7]key.Binding
}

// Pending holds the keys of the pending-sources pane.
type Pending struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Select                                  key.Binding
	SelectThread                            key.Binding
	ClearSelection                          key.Binding
	Filter                                  key.Binding
	Promote                                 key.Binding
	// PromoteSender and RejectSender take every pending source of the
	// cursor's sender in its chat at once, after the same confirmation.
	PromoteSender key.Binding
	RejectSender  key.Binding
	// Reject asks for a reason, then takes the selection out of the
	// queue; ShowRejected switches the list to the rejected sources (where
	// Promote reverses a rejection).
	Reject       key.Binding
	ShowRejected key.Binding
	// Open shows the selected record in full in the source drill-down,
	// which scrolls, among its thread's other records.
	Open key.Binding
	// ForgetSpeaker and ForgetThread open the forget preview for the
	// record's trusted speaker or its thread.
	ForgetSpeaker key.Binding
	ForgetThread  key.Binding
}

// Filter holds the keys of a focused filter input (the pending pane's `/`).
type Filter struct {
	ForceQuit key.Binding
	Apply     key.Binding
	Clear     key.Binding
}

// Topics holds the keys of the topics pane (tree, blocks, footnotes).
type Topics struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open                                    key.Binding
	Right                                   key.Binding
	Left                                    key.Binding
	Back                                    key.Binding
	// Curate holds the owner's corrections of the selected block.
	Curate Curate
}

// Curate holds the owner's corrections of a block, on the topics and core
// panes: Edit opens its text in $VISUAL/$EDITOR, Delete asks to confirm,
// Move opens the topic picker.
type Curate struct {
	Edit, Delete, Move key.Binding
}

// Picker holds the keys of the topic picker of a move; every other key is
// typed into its path input.
type Picker struct {
	ForceQuit key.Binding
	Choose    key.Binding
	Complete  key.Binding
	Up, Down  key.Binding
	Cancel    key.Binding
}

// Archive holds the keys of the source drill-down.
type Archive struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Back                                    key.Binding
	// Forget opens the forget preview for the selected source.
	Forget key.Binding
}

// Forget holds the keys of the forget preview: scroll what goes, then
// confirm (a dialog follows) or leave.
type Forget struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Confirm                                 key.Binding
	Back                                    key.Binding
}

// Core holds the keys of the core pane.
type Core struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open                                    key.Binding
	Close                                   key.Binding
	MoveUp                                  key.Binding
	MoveDown                                key.Binding
	// Explain says why the block is in core.md or left out; MoveTop and
	// Pin reorder it in one step.
	Explain key.Binding
	MoveTop key.Binding
	Pin     key.Binding
	// Source drills down to the selected citation of an open block;
	// PrevSource and NextSource choose it.
	Source, PrevSource, NextSource key.Binding
	// Curate holds the owner's corrections of the selected block.
	Curate Curate
}

// Passes holds the keys of the sleep-passes pane.
type Passes struct {
	Up, Down, Top, Bottom key.Binding
	ScrollUp, ScrollDown  key.Binding
	Sleep                 key.Binding
	// On a proposal: choose a file, accept or decline it or the whole
	// proposal. On an installed pass: revert it.
	PrevFile, NextFile  key.Binding
	Accept, AcceptAll   key.Binding
	Decline, DeclineAll key.Binding
	Revert              key.Binding
}

// Search holds the keys of the search pane while its inputs are not focused.
type Search struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Edit                                    key.Binding
	Open                                    key.Binding
	Sort                                    key.Binding
	Recall                                  key.Binding // search ⇄ recall: what an agent is given
}

// SearchInput holds the keys of the search pane while one of its inputs has
// the focus; every other key is typed into the input.
type SearchInput struct {
	ForceQuit key.Binding
	Run       key.Binding
	NextField key.Binding
	PrevField key.Binding
	Leave     key.Binding
}

// Status holds the keys of the status pane.
type Status struct {
	Up, Down key.Binding
}

// Audit holds the keys of the audit pane: the trail newest first, and an
// entry's diff once opened.
type Audit struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Open shows the entry's diff, or its source record when it changed
	// no file; Record always opens the chosen source's record.
	Open                 key.Binding
	Record               key.Binding
	PrevSource           key.Binding
	NextSource           key.Binding
	Filter               key.Binding
	ScrollUp, ScrollDown key.Binding
	Close                key.Binding
	// Revert undoes the selected install after showing its inverse diff.
	Revert key.Binding
}

// Reason holds the keys of the pending pane's rejection reason input;
// every other key is typed into it.
type Reason struct {
	ForceQuit key.Binding
	Submit    key.Binding
	Cancel    key.Binding
}

// Confirm holds the keys of a confirmation dialog. Any key other than Yes
// (and ctrl+c, which quits) cancels.
type Confirm struct {
	ForceQuit key.Binding
	Yes       key.Binding
}

func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

func forceQuit() key.Binding { return bind("ctrl+c", "quit", "ctrl+c") }

// Default returns the key map of the TUI.
func Default() KeyMap {
	up := func() key.Binding { return bind("↑/k", "up", "up", "k") }
	down := func() key.Binding { return bind("↓/j", "down", "down", "j") }
	pgUp := func() key.Binding { return bind("pgup/ctrl+u", "page up", "pgup", "ctrl+u") }
	pgDown := func() key.Binding { return bind("pgdn/ctrl+d", "page down", "pgdown", "ctrl+d") }
	top := func() key.Binding { return bind("g/home", "first", "g", "home") }
	bottom := func() key.Binding { return bind("G/end", "last", "G", "end") }

	curate := func() Curate {
		return Curate{
			Edit:   bind("E", "edit", "E"),
			Delete: bind("D", "delete", "D"),
			Move:   bind("M", "move", "M"),
		}
	}

	names := [7]string{"pending", "topics", "core", "passes", "search", "status", "audit"}
	var panes [7]key.Binding
	for i, n := range names {
		k := string(rune('1' + i))
		panes[i] = bind(k, n+" pane", k)
	}

	return KeyMap{
		Global: Global{
			ForceQuit: forceQuit(),
			Quit:      bind("q", "quit", "q"),
			Help:      bind("?", "help", "?"),
			Refresh:   bind("r", "refresh", "r"),
			NextPane:  bind("tab", "next pane", "tab"),
			PrevPane:  bind("shift+tab", "previous pane", "shift+tab"),
			Panes:     panes,
		},
		Pending: Pending{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Select:         bind("space", "select", " "),
			SelectThread:   bind("a", "select thread", "a"),
			ClearSelection: bind("esc", "clear selection", "esc"),
			Filter:         bind("/", "filter", "/"),
			Promote:        bind("p", "promote", "p"),
			Reject:         bind("x", "reject", "x"),
			PromoteSender:  bind("P", "promote sender", "P"),
			RejectSender:   bind("X", "reject sender", "X"),
			ShowRejected:   bind("R", "rejected/pending", "R"),
			Open:           bind("enter", "open record", "enter"),
			ForgetSpeaker:  bind("F", "forget speaker", "F"),
			ForgetThread:   bind("T", "forget thread", "T"),
		},
		Filter: Filter{
			ForceQuit: forceQuit(),
			Apply:     bind("enter", "apply filter", "enter"),
			Clear:     bind("esc", "clear filter", "esc"),
		},
		Topics: Topics{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Open:   bind("enter", "open / drill down", "enter"),
			Right:  bind("→/l", "next column", "right", "l"),
			Left:   bind("←/h", "previous column", "left", "h"),
			Back:   bind("esc", "back", "esc", "backspace"),
			Curate: curate(),
		},
		Archive: Archive{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Back:   bind("esc", "back", "esc", "backspace", "left", "h"),
			Forget: bind("F", "forget source", "F"),
		},
		Forget: Forget{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Confirm: bind("enter", "forget…", "enter"),
			Back:    bind("esc", "back", "esc", "backspace"),
		},
		Core: Core{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Open:       bind("enter", "read block", "enter"),
			Close:      bind("esc", "close", "esc", "backspace"),
			MoveUp:     bind("K", "move up", "K", "alt+up"),
			MoveDown:   bind("J", "move down", "J", "alt+down"),
			Explain:    bind("e", "explain", "e"),
			MoveTop:    bind("t", "move to top", "t"),
			Pin:        bind("P", "pin/unpin", "P"),
			Source:     bind("s", "open source", "s"),
			PrevSource: bind("←/h", "previous source", "left", "h"),
			NextSource: bind("→/l", "next source", "right", "l"),
			Curate:     curate(),
		},
		Passes: Passes{
			Up: up(), Down: down(), Top: top(), Bottom: bottom(),
			ScrollUp:   bind("pgup/u", "scroll diff up", "pgup", "u", "ctrl+u"),
			ScrollDown: bind("pgdn/d", "scroll diff down", "pgdown", "d", "ctrl+d"),
			Sleep:      bind("S", "run sleep now", "S"),
			PrevFile:   bind("←/h", "previous file", "left", "h"),
			NextFile:   bind("→/l", "next file", "right", "l"),
			Accept:     bind("a", "accept file", "a"),
			AcceptAll:  bind("A", "accept proposal", "A"),
			Decline:    bind("x", "decline file", "x"),
			DeclineAll: bind("X", "decline proposal", "X"),
			Revert:     bind("R", "revert pass", "R"),
		},
		Search: Search{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Edit:   bind("/", "edit query", "/"),
			Open:   bind("enter", "open", "enter"),
			Sort:   bind("o", "sort score/date", "o"),
			Recall: bind("R", "search/recall", "R"),
		},
		Input: SearchInput{
			ForceQuit: forceQuit(),
			Run:       bind("enter", "search", "enter"),
			NextField: bind("tab", "next field", "tab"),
			PrevField: bind("shift+tab", "previous field", "shift+tab"),
			Leave:     bind("esc", "leave inputs", "esc"),
		},
		Status: Status{Up: up(), Down: down()},
		Audit: Audit{
			Up: up(), Down: down(), PageUp: pgUp(), PageDown: pgDown(), Top: top(), Bottom: bottom(),
			Open:       bind("enter", "open", "enter"),
			Record:     bind("o", "source record", "o"),
			PrevSource: bind("←/h", "previous source", "left", "h"),
			NextSource: bind("→/l", "next source", "right", "l"),
			Filter:     bind("/", "filter", "/"),
			ScrollUp:   bind("↑/pgup", "scroll up", "up", "k", "pgup"),
			ScrollDown: bind("↓/pgdn", "scroll down", "down", "j", "pgdown"),
			Close:      bind("esc", "back", "esc", "backspace"),
			Revert:     bind("R", "revert", "R"),
		},
		Reason: Reason{
			ForceQuit: forceQuit(),
			Submit:    bind("enter", "continue", "enter"),
			Cancel:    bind("esc", "cancel", "esc"),
		},
		Picker: Picker{
			ForceQuit: forceQuit(),
			Choose:    bind("enter", "move here…", "enter"),
			Complete:  bind("tab", "complete", "tab"),
			Up:        bind("↑", "previous topic", "up", "ctrl+p"),
			Down:      bind("↓", "next topic", "down", "ctrl+n"),
			Cancel:    bind("esc", "cancel", "esc"),
		},
		Confirm: Confirm{
			ForceQuit: forceQuit(),
			Yes:       bind("y", "confirm", "y"),
		},
	}
}

// PaneHint is one help entry standing for the seven pane keys, so the
// one-line footer does not spend seven slots on them.
func (g Global) PaneHint() key.Binding {
	var keys []string
	for _, b := range g.Panes {
		keys = append(keys, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp("1-7", "panes"))
}

// ShortHelp is the global part of the one-line help footer.
func (g Global) ShortHelp() []key.Binding {
	return []key.Binding{g.PaneHint(), g.Help, g.Quit}
}

// FullHelp is the global part of the full help.
func (g Global) FullHelp() [][]key.Binding {
	return [][]key.Binding{{g.NextPane, g.PrevPane, g.PaneHint(), g.Refresh, g.Help, g.Quit}}
}

// Scope is a set of bindings that are active at the same time. A key must
// not mean two things within one scope.
type Scope struct {
	Name string
	// Note explains when the scope is active.
	Note string
	// WithGlobal says the global bindings are active in this scope too.
	WithGlobal bool
	Bindings   []key.Binding
}

// Scopes lists the scopes of the key map in the order the documentation
// shows them.
func (k KeyMap) Scopes() []Scope {
	g := k.Global
	global := []key.Binding{g.ForceQuit, g.Quit, g.Help, g.Refresh, g.NextPane, g.PrevPane}
	global = append(global, g.Panes[:]...)
	p, t, a, c, ps, s := k.Pending, k.Topics, k.Archive, k.Core, k.Passes, k.Search
	return []Scope{
		{Name: "Global", Note: "Active on every pane unless a text input or a confirmation dialog has the focus.",
			Bindings: global},
		{Name: "Pending", Note: "Pane 1: pending sources grouped by chat and sender.", WithGlobal: true,
			Bindings: []key.Binding{p.Up, p.Down, p.PageUp, p.PageDown, p.Top, p.Bottom,
				p.Select, p.SelectThread, p.ClearSelection, p.Filter, p.Promote, p.Reject, p.PromoteSender, p.RejectSender, p.ShowRejected,
				p.ForgetSpeaker, p.ForgetThread, p.Open}},
		{Name: "Rejection reason", Note: "After `x` on the pending pane: type why (optional), then confirm; other keys are typed into it.",
			Bindings: []key.Binding{k.Reason.ForceQuit, k.Reason.Submit, k.Reason.Cancel}},
		{Name: "Pending filter", Note: "While the `/` filter input has the focus; other keys are typed into it.",
			Bindings: []key.Binding{k.Filter.ForceQuit, k.Filter.Apply, k.Filter.Clear}},
		{Name: "Topics", Note: "Pane 2: topic tree, blocks of the selected file, footnotes of the selected block.",
			WithGlobal: true,
			Bindings: []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom,
				t.Open, t.Right, t.Left, t.Back, t.Curate.Edit, t.Curate.Delete, t.Curate.Move}},
		{Name: "Source drill-down", Note: "The source archive opened from a footnote or a search result.",
			WithGlobal: true,
			Bindings:   []key.Binding{a.Up, a.Down, a.PageUp, a.PageDown, a.Top, a.Bottom, a.Back, a.Forget}},
		{Name: "Forget preview", Note: "After `F`/`T` on the pending pane or `F` in the drill-down: every place the content is, as diffs. " +
			"Enter asks to confirm; nothing changes before.", WithGlobal: true,
			Bindings: []key.Binding{k.Forget.Up, k.Forget.Down, k.Forget.PageUp, k.Forget.PageDown, k.Forget.Top, k.Forget.Bottom,
				k.Forget.Confirm, k.Forget.Back}},
		{Name: "Core", Note: "Pane 3: blocks of topics/core.md and the token budget. Moving a block asks for confirmation.",
			WithGlobal: true,
			Bindings: []key.Binding{c.Up, c.Down, c.PageUp, c.PageDown, c.Top, c.Bottom,
				c.Open, c.Close, c.MoveUp, c.MoveDown, c.Explain, c.MoveTop, c.Pin, c.Source, c.PrevSource, c.NextSource,
				c.Curate.Edit, c.Curate.Delete, c.Curate.Move}},
		{Name: "Move picker", Note: "After `M` on a block of the topics or core pane: type a topic path (new or existing; PATH#Heading puts it under that heading), " +
			"then confirm; other keys are typed into it.",
			Bindings: []key.Binding{k.Picker.ForceQuit, k.Picker.Choose, k.Picker.Complete, k.Picker.Up, k.Picker.Down, k.Picker.Cancel}},
		{Name: "Passes", Note: "Pane 4: proposals waiting for the owner first, then sleep passes newest first, and the diff of the selected one. " +
			"Accept, decline and revert ask for confirmation; a revert shows the diff it would install first.",
			WithGlobal: true,
			Bindings: []key.Binding{ps.Up, ps.Down, ps.Top, ps.Bottom, ps.ScrollUp, ps.ScrollDown, ps.Sleep,
				ps.PrevFile, ps.NextFile, ps.Accept, ps.AcceptAll, ps.Decline, ps.DeclineAll, ps.Revert}},
		{Name: "Search", Note: "Pane 5, while no input has the focus.", WithGlobal: true,
			Bindings: []key.Binding{s.Up, s.Down, s.PageUp, s.PageDown, s.Top, s.Bottom, s.Edit, s.Open, s.Sort, s.Recall}},
		{Name: "Search inputs", Note: "While the query or a filter input has the focus; other keys are typed into it.",
			Bindings: []key.Binding{k.Input.ForceQuit, k.Input.Run, k.Input.NextField, k.Input.PrevField, k.Input.Leave}},
		{Name: "Status", Note: "Pane 6: workspace, writer, index and model.", WithGlobal: true,
			Bindings: []key.Binding{k.Status.Up, k.Status.Down}},
		{Name: "Audit", Note: "Pane 7: every install, promotion, rejection, sleep pass and declined proposal, newest first.",
			WithGlobal: true,
			Bindings: []key.Binding{k.Audit.Up, k.Audit.Down, k.Audit.PageUp, k.Audit.PageDown, k.Audit.Top, k.Audit.Bottom,
				k.Audit.Open, k.Audit.Record, k.Audit.PrevSource, k.Audit.NextSource, k.Audit.Filter, k.Audit.Revert}},
		{Name: "Audit diff", Note: "An audit entry's diff, opened with enter.", WithGlobal: true,
			Bindings: []key.Binding{k.Audit.ScrollUp, k.Audit.ScrollDown, k.Audit.Record, k.Audit.Close}},
		{Name: "Confirmation", Note: "A dialog before promote, reject, core reorder, sleep, accept, decline, revert, forget, delete and move. Any other key cancels.",
			Bindings: []key.Binding{k.Confirm.ForceQuit, k.Confirm.Yes}},
	}
}
