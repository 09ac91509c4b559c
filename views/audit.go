package views

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Audit is pane 7: everything that happened to memory, newest first —
// installs, promotions, rejections, sleep passes (empty ones too) and
// declined proposals — with the selected entry's actor, revision, sources
// and changed files. enter opens the entry's diff, or its source record
// when it changed no file; o opens the chosen source's record, ←/→ choose
// among its sources, / filters.
type Audit struct {
	c    *Common
	w, h int

	entries []result.AuditEntry
	hay     []string // per entry, the lower-case text the filter searches
	loaded  bool
	err     error

	shown    []int // indexes into entries that pass the filter
	cur, off int   // index into shown; first visible row
	src      int   // the chosen source of the selected entry

	filter    textinput.Model
	filtering bool

	diff  bool // the selected entry's diff fills the pane
	vp    viewport.Model
	vpKey string

	// preview is a revert of the selected entry waiting for confirmation:
	// its diff is shown instead of the entry's own.
	preview *result.RevertResult
}

// NewAudit returns the audit pane.
func NewAudit(c *Common) *Audit {
	return &Audit{c: c, vp: viewport.New(0, 0), filter: newInput(c, "/ ", "filter by kind, source, file or words")}
}

// Title implements Component.
func (a *Audit) Title() string { return "Audit" }

// Init implements Component.
func (a *Audit) Init() tea.Cmd { return a.Refresh() }

// Refresh implements Component.
func (a *Audit) Refresh() tea.Cmd { return Send(LoadAudit{}) }

// Capturing implements Component.
func (a *Audit) Capturing() bool { return a.filtering }

// SetSize implements Component.
func (a *Audit) SetSize(w, h int) {
	a.w, a.h = w, h
	a.filter.Width = max(w-4, 1)
}

// Current returns the selected entry.
func (a *Audit) Current() (result.AuditEntry, bool) {
	if a.cur >= len(a.shown) {
		return result.AuditEntry{}, false
	}
	return a.entries[a.shown[a.cur]], true
}

// DiffOpen reports whether the selected entry's diff fills the pane.
func (a *Audit) DiffOpen() bool { return a.diff }

// ShortHelp implements help.KeyMap.
func (a *Audit) ShortHelp() []key.Binding {
	k := a.c.Keys.Audit
	switch {
	case a.filtering:
		return []key.Binding{a.c.Keys.Filter.Apply, a.c.Keys.Filter.Clear}
	case a.diff:
		return []key.Binding{k.ScrollDown, k.Record, k.Revert, k.Close}
	}
	en, _ := a.Current()
	if len(en.Sources) > 1 {
		return []key.Binding{k.Open, k.Record, k.NextSource, k.Filter, k.Revert}
	}
	return []key.Binding{k.Open, k.Record, k.Filter, k.Revert}
}

// FullHelp implements help.KeyMap.
func (a *Audit) FullHelp() [][]key.Binding {
	k := a.c.Keys.Audit
	switch {
	case a.filtering:
		f := a.c.Keys.Filter
		return [][]key.Binding{{f.Apply, f.Clear, f.ForceQuit}}
	case a.diff:
		return [][]key.Binding{{k.ScrollUp, k.ScrollDown, k.Record, k.Revert, k.Close}}
	}
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.Record, k.PrevSource, k.NextSource, k.Filter, k.Revert}}
}

// Update implements Component.
func (a *Audit) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case AuditLoaded:
		a.loaded, a.err = true, msg.Err
		if msg.Err == nil {
			a.setEntries(msg.Report.Entries)
		}
	case RevertPreviewed:
		if msg.From == "audit" && msg.Err == nil {
			return a, a.onRevertPreview(msg)
		}
	case Reverted:
		a.preview, a.diff, a.vpKey = nil, false, ""
	case tea.KeyMsg:
		if a.preview != nil && !a.filtering { // any key leaves the preview
			a.preview, a.vpKey = nil, ""
		}
		if key.Matches(msg, a.c.Keys.Audit.Revert) && !a.filtering {
			return a, a.askRevert()
		}
		switch {
		case a.filtering:
			return a, a.updateFilter(msg)
		case a.diff:
			return a, a.diffKey(msg)
		}
		return a, a.listKey(msg)
	}
	return a, nil
}

// entryKey identifies an entry across reloads, so the cursor stays on it.
func entryKey(en result.AuditEntry) string {
	return fmt.Sprintf("%s/%s/%d/%s", en.Time, en.Kind, en.Revision, strings.Join(en.Sources, ","))
}

func (a *Audit) setEntries(es []result.AuditEntry) {
	keep := ""
	if en, ok := a.Current(); ok {
		keep = entryKey(en)
	}
	a.entries = es
	a.hay = make([]string, len(es))
	for i, en := range es {
		a.hay[i] = auditHaystack(en)
	}
	a.rebuild()
	for i, j := range a.shown {
		if entryKey(a.entries[j]) == keep {
			a.cur = i
		}
	}
	if en, ok := a.Current(); !ok || entryKey(en) != keep {
		a.diff, a.src = false, 0
	}
}

// rebuild applies the filter.
func (a *Audit) rebuild() {
	q := strings.ToLower(strings.TrimSpace(a.filter.Value()))
	a.shown = a.shown[:0]
	for i := range a.entries {
		if q == "" || strings.Contains(a.hay[i], q) {
			a.shown = append(a.shown, i)
		}
	}
	a.cur = clamp(a.cur, 0, len(a.shown)-1)
}

// auditHaystack is what the filter searches in an entry, lower case,
// built once per load; fields are joined by a NUL so that a match never
// spans two of them.
func auditHaystack(en result.AuditEntry) string {
	fields := append([]string{en.Kind, en.Actor, en.Detail, en.Time, fmt.Sprintf("r%d", en.Revision)}, en.Sources...)
	return strings.ToLower(strings.Join(append(fields, en.Changed...), "\x00"))
}

func (a *Audit) updateFilter(msg tea.KeyMsg) tea.Cmd {
	k := a.c.Keys.Filter
	switch {
	case key.Matches(msg, k.Apply):
		a.filtering = false
		a.filter.Blur()
		return nil
	case key.Matches(msg, k.Clear):
		a.filtering = false
		a.filter.Blur()
		a.filter.SetValue("")
		a.rebuild()
		return nil
	}
	var cmd tea.Cmd
	a.filter, cmd = a.filter.Update(msg)
	a.rebuild()
	a.src = 0
	return cmd
}

func (a *Audit) listKey(msg tea.KeyMsg) tea.Cmd {
	k := a.c.Keys.Audit
	page := max(a.listHeight()-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		a.move(-1)
	case key.Matches(msg, k.Down):
		a.move(1)
	case key.Matches(msg, k.PageUp):
		a.move(-page)
	case key.Matches(msg, k.PageDown):
		a.move(page)
	case key.Matches(msg, k.Top):
		a.move(-len(a.shown))
	case key.Matches(msg, k.Bottom):
		a.move(len(a.shown))
	case key.Matches(msg, k.PrevSource):
		a.chooseSource(-1)
	case key.Matches(msg, k.NextSource):
		a.chooseSource(1)
	case key.Matches(msg, k.Filter):
		a.filtering = true
		return a.filter.Focus()
	case key.Matches(msg, k.Open):
		return a.open()
	case key.Matches(msg, k.Record):
		return a.openRecord()
	}
	return nil
}

func (a *Audit) diffKey(msg tea.KeyMsg) tea.Cmd {
	k := a.c.Keys.Audit
	switch {
	case key.Matches(msg, k.Close):
		a.diff = false
	case key.Matches(msg, k.Record):
		return a.openRecord()
	case key.Matches(msg, k.ScrollUp):
		if msg.String() == "pgup" {
			a.vp.HalfPageUp()
		} else {
			a.vp.ScrollUp(1)
		}
	case key.Matches(msg, k.ScrollDown):
		if msg.String() == "pgdown" {
			a.vp.HalfPageDown()
		} else {
			a.vp.ScrollDown(1)
		}
	}
	return nil
}

func (a *Audit) move(d int) {
	old := a.cur
	a.cur = clamp(a.cur+d, 0, len(a.shown)-1)
	if a.cur != old {
		a.src = 0
	}
}

func (a *Audit) chooseSource(d int) {
	en, ok := a.Current()
	if !ok || len(en.Sources) == 0 {
		return
	}
	a.src = clamp(a.src+d, 0, len(en.Sources)-1)
}

// open shows the entry's diff; an entry that changed no file (a
// rejection, an empty pass) opens its source record instead.
func (a *Audit) open() tea.Cmd {
	en, ok := a.Current()
	if !ok {
		return nil
	}
	if len(en.Diffs) > 0 {
		a.diff = true
		return nil
	}
	if len(en.Sources) > 0 {
		return a.openRecord()
	}
	what := "it changed no file and concerns no source"
	if len(en.Changed) > 0 {
		what = "its diff is gone with the proposal it declined"
	}
	return Send(Notice{Text: "nothing to open: " + what})
}

// openRecord drills down to the chosen source's record in its archive.
func (a *Audit) openRecord() tea.Cmd {
	en, ok := a.Current()
	if !ok || len(en.Sources) == 0 {
		return Send(Notice{Text: "this entry concerns no source"})
	}
	ref := en.Sources[clamp(a.src, 0, len(en.Sources)-1)]
	i := slices.IndexFunc(en.Records, func(r result.CitationView) bool { return r.Ref == ref })
	if i < 0 {
		return Send(Notice{Text: "no archive holds " + Visible(ref) + " any more", Err: true})
	}
	return Send(OpenArchive{Path: en.Records[i].Path, Anchor: en.Records[i].Anchor})
}

// askRevert starts the revert of the selected install: first the dry run,
// whose diff the pane shows before the owner confirms.
func (a *Audit) askRevert() tea.Cmd {
	en, ok := a.Current()
	switch {
	case !ok:
		return nil
	case en.Revision == 0:
		return Send(Notice{Text: "this entry installed nothing: there is nothing to revert"})
	}
	return Send(PreviewRevert{Revision: en.Revision, From: "audit"})
}

func (a *Audit) onRevertPreview(msg RevertPreviewed) tea.Cmd {
	if len(msg.Result.Changed) == 0 {
		return Send(Notice{Text: fmt.Sprintf("revision %d is already undone: nothing to revert", msg.Revision)})
	}
	res := msg.Result
	a.preview, a.diff, a.vpKey = &res, true, ""
	return Send(Confirm{Prompt: fmt.Sprintf("Revert revision %d? The diff shown is installed as a new revert transaction (%s); later changes to other blocks stay. y to confirm, any other key cancels",
		msg.Revision, plural(len(res.Changed), "file")), Action: RunRevert{Revision: msg.Revision}})
}
