package views

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
)

// Passes is pane 4: the proposals waiting for the owner first (oldest
// first, file by file), then the sleep passes newest first, with the
// coloured unified diff of the selected one in a scrollable viewport. S
// runs a pass now; a/A accept, x/X decline a proposal's file or all of it;
// R reverts an installed pass after showing the diff it would install.
type Passes struct {
	c    *Common
	w, h int

	passes []result.PassReport
	loaded bool
	err    error

	props    []proposals.Proposal
	propErr  error
	file     int                  // the selected file of the selected proposal
	preview  *result.RevertResult // a revert waiting for confirmation, shown instead of the diff
	previewR int64                // the revision that preview reverts

	cur, off int
	rowsW    int // the widest row of the list, -1 until measured for the current items
	vp       viewport.Model
	vpKey    string // which pass at which width the viewport holds

	want    int64 // select this pass when the list next arrives
	running bool  // a sleep pass is under way
}

// NewPasses returns the passes pane.
func NewPasses(c *Common) *Passes { return &Passes{c: c, vp: viewport.New(0, 0), rowsW: -1} }

// rowsWidth is the width of the widest row, measured once per list
// instead of once per frame.
func (p *Passes) rowsWidth() int {
	if p.rowsW < 0 {
		p.rowsW = 0
		for i := 0; i < p.items(); i++ {
			p.rowsW = max(p.rowsW, Width(p.row(i)))
		}
	}
	return p.rowsW
}

// Title implements Component.
func (p *Passes) Title() string { return "Passes" }

// Init implements Component.
func (p *Passes) Init() tea.Cmd { return p.Refresh() }

// Refresh implements Component.
func (p *Passes) Refresh() tea.Cmd { return tea.Batch(Send(LoadPasses{}), Send(LoadProposals{})) }

// Capturing implements Component.
func (p *Passes) Capturing() bool { return false }

// SetSize implements Component.
func (p *Passes) SetSize(w, h int) { p.w, p.h = w, h }

// Current returns the selected pass (false while a proposal is selected).
func (p *Passes) Current() (result.PassReport, bool) {
	i := p.cur - len(p.props)
	if i < 0 || i >= len(p.passes) {
		return result.PassReport{}, false
	}
	return p.passes[i], true
}

// CurrentProposal returns the selected proposal.
func (p *Passes) CurrentProposal() (proposals.Proposal, bool) {
	if p.cur >= len(p.props) {
		return proposals.Proposal{}, false
	}
	return p.props[p.cur], true
}

// Waiting is the number of proposals waiting for the owner.
func (p *Passes) Waiting() int { return len(p.props) }

func (p *Passes) items() int { return len(p.props) + len(p.passes) }

// ShortHelp implements help.KeyMap.
func (p *Passes) ShortHelp() []key.Binding {
	k := p.c.Keys.Passes
	if _, ok := p.CurrentProposal(); ok {
		return []key.Binding{k.NextFile, k.Accept, k.AcceptAll, k.Decline, k.DeclineAll}
	}
	if r, ok := p.Current(); ok && r.Revision > 0 {
		return []key.Binding{k.ScrollDown, k.Sleep, k.Revert}
	}
	return []key.Binding{k.ScrollDown, k.Sleep}
}

// FullHelp implements help.KeyMap.
func (p *Passes) FullHelp() [][]key.Binding {
	k := p.c.Keys.Passes
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom}, {k.ScrollUp, k.ScrollDown, k.Sleep, k.Revert},
		{k.PrevFile, k.NextFile, k.Accept, k.AcceptAll, k.Decline, k.DeclineAll}}
}

// Update implements Component.
func (p *Passes) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case PassesLoaded:
		p.loaded, p.err = true, msg.Err
		if msg.Err == nil {
			p.setPasses(msg.Passes)
		}
	case ProposalsLoaded:
		p.propErr = msg.Err
		if msg.Err == nil {
			p.setProposals(msg.Proposals)
		}
	case RevertPreviewed:
		if msg.From != "" {
			return p, nil // another pane asked
		}
		return p, p.onRevertPreview(msg)
	case Reverted:
		p.preview = nil
		p.vpKey = ""
	case RunSleep:
		p.running = true
	case SleepDone:
		p.running = false
		if msg.Err == nil {
			p.want = msg.Report.Pass
			// Show the new report at once; the reload that follows keeps it.
			p.setPasses(append([]result.PassReport{msg.Report}, p.passes...))
		}
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Passes) setPasses(ps []result.PassReport) {
	keep := p.selection()
	if p.want != 0 {
		keep = fmt.Sprintf("pass:%d", p.want)
	}
	seen := map[int64]bool{}
	p.passes = p.passes[:0:0]
	for _, r := range ps {
		if r.Pass != 0 && seen[r.Pass] {
			continue
		}
		seen[r.Pass] = true
		p.passes = append(p.passes, r)
	}
	sort.SliceStable(p.passes, func(i, j int) bool {
		a, b := p.passes[i], p.passes[j]
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		return a.Pass > b.Pass
	})
	p.reselect(keep)
	p.want = 0
	p.vpKey = ""
	p.rowsW = -1
}

func (p *Passes) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Passes
	if p.preview != nil { // any key leaves a revert preview
		p.preview, p.vpKey = nil, ""
	}
	if cmd, ok := p.proposalKey(msg); ok {
		return cmd
	}
	before := p.cur
	defer func() {
		if p.cur != before {
			p.file = 0
		}
	}()
	switch {
	case key.Matches(msg, k.Up):
		p.cur = clamp(p.cur-1, 0, p.items()-1)
	case key.Matches(msg, k.Down):
		p.cur = clamp(p.cur+1, 0, p.items()-1)
	case key.Matches(msg, k.Top):
		p.cur = 0
	case key.Matches(msg, k.Bottom):
		p.cur = max(p.items()-1, 0)
	case key.Matches(msg, k.Revert):
		return p.askRevert()
	case key.Matches(msg, k.ScrollUp):
		p.vp.HalfPageUp()
	case key.Matches(msg, k.ScrollDown):
		p.vp.HalfPageDown()
	case key.Matches(msg, k.Sleep):
		if p.running {
			return Send(Notice{Text: "a sleep pass is already running"})
		}
		return Send(Confirm{
			Prompt: "Run a sleep pass now? It may merge duplicate paragraphs, split oversized files and " +
				"repair links in topics/, installed as one transaction and recorded as a pass. " +
				"y to confirm, any other key cancels",
			Action: RunSleep{},
		})
	}
	return nil
}

func (p *Passes) wide() bool { return p.w >= 90 }

// View implements Component.
func (p *Passes) View() string {
	st := p.c.Styles
	title := st.Title.Render("Sleep passes")
	switch {
	case p.running:
		title += st.StatusBusy.Render("  sleep pass running…")
	case p.err != nil:
		title += st.Error.Render("  could not load: " + Visible(p.err.Error()))
	case !p.loaded:
		title += st.Faint.Render("  loading…")
	default:
		title += st.Faint.Render("  " + plural(len(p.passes), "pass") + ", newest first")
		if n := len(p.props); n > 0 {
			title += st.Warn.Render(fmt.Sprintf("  %s waiting", plural(n, "proposal")))
		}
	}
	body := p.h - 1
	if body <= 0 {
		return Fit(title, p.w, p.h)
	}
	if p.items() == 0 {
		msg := ""
		if p.loaded && p.err == nil {
			msg = st.Faint.Render("No sleep pass yet. Press S to run one now.")
		}
		return Fit(title+"\n"+msg, p.w, p.h)
	}
	var main string
	if p.wide() {
		lw := clamp(p.rowsWidth()+2, 28, p.w/2)
		rw := p.w - lw - 3
		main = JoinColumns(p.listView(lw, body), lw, st.Faint.Render(" │ "), p.diffView(rw, body, false), rw, body)
	} else {
		lh := clamp(p.items(), 1, max(body/3, 1))
		main = p.listView(p.w, lh) + "\n" + p.diffView(p.w, body-lh, true)
	}
	return Fit(title+"\n"+main, p.w, p.h)
}

func (p *Passes) listView(w, h int) string {
	st := p.c.Styles
	p.off = scrollTo(p.off, p.cur, h, p.items())
	var lines []string
	for i := p.off; i < p.items() && len(lines) < h; i++ {
		row := p.row(i)
		if i == p.cur {
			lines = append(lines, cursorRow(st, "› "+row, w))
		} else {
			lines = append(lines, Truncate("  "+row, w))
		}
	}
	return Fit(strings.Join(lines, "\n"), w, h)
}

// row is one item of the list: a proposal, or a pass with its number,
// time, model and what changed.
func (p *Passes) row(i int) string {
	st := p.c.Styles
	if i < len(p.props) {
		return p.proposalRow(p.props[i])
	}
	r := p.passes[i-len(p.props)]
	what := plural(len(r.Changed), "file") + " changed"
	switch {
	case r.Error != "":
		what = st.Warn.Render("rejected, no changes")
	case len(r.Changed) == 0:
		what = st.Faint.Render("no changes")
	}
	return fmt.Sprintf("#%d %s %s · %s", r.Pass, ShortTime(r.Time), Visible(r.Model), what)
}

// diffView is the selected pass: its details, then its diff. stacked says
// it sits under the list, where a rule separates the two; beside the list
// the column divider already does.
func (p *Passes) diffView(w, h int, stacked bool) string {
	st := p.c.Styles
	if h <= 0 {
		return ""
	}
	var head []string
	if stacked {
		head = append(head, st.Faint.Render(strings.Repeat("─", w)))
	}
	if pr, ok := p.CurrentProposal(); ok {
		return p.proposalView(pr, head, w, h)
	}
	if p.preview != nil {
		return p.previewView(head, w, h)
	}
	r, _ := p.Current()
	meta := []string{fmt.Sprintf("pass %d", r.Pass), Visible(r.Time), "model " + Visible(r.Model),
		fmt.Sprintf("tokens %d in / %d out", r.TokensIn, r.TokensOut)}
	if r.Revision > 0 {
		meta = append(meta, fmt.Sprintf("revision %d", r.Revision))
	}
	head = append(head, WrapParts(meta, " · ", w)...)
	if r.Error != "" {
		head = append(head, Wrap(st.Warn.Render("rejected: "+Visible(r.Error)), w)...)
	}
	head = append(head, p.coreGapLines(w)...)
	room := h - len(head)
	if room <= 0 {
		return Fit(strings.Join(head, "\n"), w, h)
	}
	p.vp.Width, p.vp.Height = w, room
	key := fmt.Sprintf("%d/%s/%d", r.Pass, r.Time, w)
	if key != p.vpKey {
		p.vp.SetContent(p.diffText(r, w))
		p.vp.GotoTop()
		p.vpKey = key
	}
	p.vp.SetYOffset(p.vp.YOffset) // re-clamp after a resize
	return Fit(strings.Join(head, "\n")+"\n"+p.vp.View(), w, h)
}

// coreGapLines says how many blocks of topics/core.md the budget left out
// after the selected pass. Every pass reports the whole gap, so only the
// difference from the pass before it is news: blocks that fell out since
// (a warning) and blocks back in. The oldest pass has nothing to compare
// with and states the count alone.
func (p *Passes) coreGapLines(w int) []string {
	st := p.c.Styles
	r, ok := p.Current()
	if !ok {
		return nil
	}
	var older *result.PassReport
	if i := p.cur - len(p.props) + 1; i < len(p.passes) {
		older = &p.passes[i]
	}
	if len(r.CoreGap) == 0 && (older == nil || len(older.CoreGap) == 0) {
		return nil
	}
	count := "no block"
	if n := len(r.CoreGap); n > 0 {
		count = plural(n, "block")
	}
	line := st.Faint.Render("core budget excludes " + count)
	if older == nil {
		return Wrap(line, w)
	}
	var fell, back []string
	for _, id := range r.CoreGap {
		if !slices.Contains(older.CoreGap, id) {
			fell = append(fell, "^"+Visible(id))
		}
	}
	for _, id := range older.CoreGap {
		if !slices.Contains(r.CoreGap, id) {
			back = append(back, "^"+Visible(id))
		}
	}
	switch {
	case len(fell) > 0:
		line += st.Warn.Render(fmt.Sprintf("; fell out since pass #%d: %s", older.Pass, strings.Join(fell, ", ")))
	case len(r.CoreGap) > 0:
		line += st.Faint.Render(fmt.Sprintf(" (none new since pass #%d)", older.Pass))
	}
	if len(back) > 0 {
		line += st.Faint.Render("; back in: " + strings.Join(back, ", "))
	}
	return Wrap(line, w)
}

// diffText colours the pass's diffs: + green, - red, @@ faint.
func (p *Passes) diffText(r result.PassReport, w int) string {
	st := p.c.Styles
	if len(r.Changed) == 0 {
		return strings.Join(Wrap(st.Faint.Render("No changes: the pass found nothing to reorganise."), w), "\n")
	}
	return p.colourDiffs(r.Changed, w)
}

// colourDiffs renders file diffs: a header per file, + green, - red, @@ faint.
func (p *Passes) colourDiffs(files []result.FileDiff, w int) string {
	return renderDiffs(p.c.Styles, files, w)
}
