package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/proposals"
)

// The proposal and revert half of the passes pane: proposals are listed
// before the passes and reviewed file by file; an installed pass can be
// reverted after its inverse diff is shown.

func (p *Passes) setProposals(ps []proposals.Proposal) {
	keep := p.selection()
	if p.cur == 0 {
		keep = "" // the top of the list stays the top: proposals come first
	}
	p.props = ps
	p.rowsW = -1
	p.reselect(keep)
	if pr, ok := p.CurrentProposal(); ok {
		p.file = clamp(p.file, 0, len(pr.Changed)-1)
	}
	p.vpKey = ""
}

// selection names the selected item so it survives a reload.
func (p *Passes) selection() string {
	if pr, ok := p.CurrentProposal(); ok {
		return "proposal:" + pr.ID
	}
	if r, ok := p.Current(); ok {
		return fmt.Sprintf("pass:%d", r.Pass)
	}
	return ""
}

// reselect moves the cursor back to the item keep names, if it is still
// listed; otherwise the cursor stays where it was, clamped.
func (p *Passes) reselect(keep string) {
	p.cur = clamp(p.cur, 0, p.items()-1)
	for i, pr := range p.props {
		if "proposal:"+pr.ID == keep {
			p.cur = i
			return
		}
	}
	for i, r := range p.passes {
		if fmt.Sprintf("pass:%d", r.Pass) == keep {
			p.cur = len(p.props) + i
			return
		}
	}
}

// proposalKey handles the keys that act on a selected proposal.
func (p *Passes) proposalKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := p.c.Keys.Passes
	pr, ok := p.CurrentProposal()
	if !ok {
		switch {
		case key.Matches(msg, k.Accept, k.AcceptAll, k.Decline, k.DeclineAll):
			return Send(Notice{Text: "accept and decline act on a proposal: select one at the top of the list"}), true
		case key.Matches(msg, k.PrevFile, k.NextFile):
			return nil, true
		}
		return nil, false
	}
	file := ""
	if p.file < len(pr.Changed) {
		file = pr.Changed[p.file].Path
	}
	waitNote := "installed as one transaction"
	if len(pr.Changed) > 0 {
		waitNote += fmt.Sprintf(" (rebased onto the current files if they changed since revision %d; refused if the same blocks changed)", pr.BaseRevision)
	}
	switch {
	case key.Matches(msg, k.PrevFile):
		p.file, p.vpKey = clamp(p.file-1, 0, len(pr.Changed)-1), ""
	case key.Matches(msg, k.NextFile):
		p.file, p.vpKey = clamp(p.file+1, 0, len(pr.Changed)-1), ""
	case key.Matches(msg, k.Accept) && file != "":
		return Send(Confirm{Prompt: fmt.Sprintf("Accept %s of the %s proposal %s? It is %s. y to confirm, any other key cancels",
			Visible(file), pr.Kind, pr.ID, waitNote), Action: AcceptProposal{ID: pr.ID, Only: []string{file}}}), true
	case key.Matches(msg, k.AcceptAll):
		return Send(Confirm{Prompt: fmt.Sprintf("Accept the whole %s proposal %s (%s)? It is %s. y to confirm, any other key cancels",
			pr.Kind, pr.ID, plural(len(pr.Changed), "file"), waitNote), Action: AcceptProposal{ID: pr.ID}}), true
	case key.Matches(msg, k.Decline) && file != "":
		return Send(Confirm{Prompt: fmt.Sprintf("Decline %s of proposal %s? That file's change is dropped and the decision recorded. y to confirm, any other key cancels",
			Visible(file), pr.ID), Action: DeclineProposal{ID: pr.ID, Only: []string{file}}}), true
	case key.Matches(msg, k.DeclineAll):
		return Send(Confirm{Prompt: fmt.Sprintf("Decline the whole proposal %s (%s)? Nothing of it is installed and the decision is recorded. y to confirm, any other key cancels",
			pr.ID, plural(len(pr.Changed), "file")), Action: DeclineProposal{ID: pr.ID}}), true
	case key.Matches(msg, k.Revert):
		return Send(Notice{Text: "a proposal is not installed yet: decline it with x or X"}), true
	default:
		return nil, false
	}
	return nil, true
}

// askRevert starts a revert of the selected pass: first the dry run, whose
// diff is shown before the owner confirms.
func (p *Passes) askRevert() tea.Cmd {
	r, ok := p.Current()
	switch {
	case !ok:
		return nil
	case r.Revision == 0:
		return Send(Notice{Text: "this pass installed nothing: there is nothing to revert"})
	}
	return Send(PreviewRevert{Revision: r.Revision})
}

func (p *Passes) onRevertPreview(msg RevertPreviewed) tea.Cmd {
	if msg.Err != nil {
		return nil // the root reports it (a CONFLICT names the blocks)
	}
	if len(msg.Result.Changed) == 0 {
		return Send(Notice{Text: fmt.Sprintf("revision %d is already undone: nothing to revert", msg.Revision)})
	}
	res := msg.Result
	p.preview, p.previewR, p.vpKey = &res, msg.Revision, ""
	return Send(Confirm{Prompt: fmt.Sprintf("Revert revision %d? The diff shown is installed as a new revert transaction (%s); later changes to other blocks stay. y to confirm, any other key cancels",
		msg.Revision, plural(len(res.Changed), "file")), Action: RunRevert{Revision: msg.Revision}})
}

// proposalRow is a proposal in the list.
func (p *Passes) proposalRow(pr proposals.Proposal) string {
	st := p.c.Styles
	return st.Warn.Render("proposal") + fmt.Sprintf(" %s %s · %s waiting", ShortTime(pr.Time), Visible(pr.Kind), plural(len(pr.Changed), "file"))
}

// proposalView is the selected proposal: what it is, which file is
// selected, and that file's diff.
func (p *Passes) proposalView(pr proposals.Proposal, head []string, w, h int) string {
	st := p.c.Styles
	meta := []string{"proposal " + Visible(pr.ID), Visible(pr.Kind), Visible(pr.Time), fmt.Sprintf("base revision %d", pr.BaseRevision)}
	if pr.Model != "" {
		meta = append(meta, "model "+Visible(pr.Model))
	}
	head = append(head, WrapParts(meta, " · ", w)...)
	if len(pr.Changed) == 0 {
		return Fit(strings.Join(head, "\n"), w, h)
	}
	f := pr.Changed[clamp(p.file, 0, len(pr.Changed)-1)]
	var names []string
	for i, c := range pr.Changed {
		name := Visible(c.Path)
		if i == p.file {
			name = st.Accent.Render("[" + name + "]")
		}
		names = append(names, name)
	}
	head = append(head, WrapParts(append([]string{fmt.Sprintf("file %d/%d:", p.file+1, len(pr.Changed))}, names...), " ", w)...)
	head = append(head, Wrap(st.Faint.Render("←/→ file · a accept file · A accept all · x decline file · X decline all"), w)...)
	return p.withViewport(head, "proposal/"+pr.ID+"/"+f.Path, p.colourDiffs(pr.Changed[p.file:p.file+1], w), w, h)
}

// previewView is the revert waiting for confirmation: the diff it installs.
func (p *Passes) previewView(head []string, w, h int) string {
	st := p.c.Styles
	head = append(head, Wrap(st.Warn.Render(fmt.Sprintf("revert of revision %d: this diff would be installed", p.previewR)), w)...)
	return p.withViewport(head, fmt.Sprintf("revert/%d", p.previewR), p.colourDiffs(p.preview.Changed, w), w, h)
}

// withViewport draws head above content in the pane's scrollable viewport;
// key says what the viewport holds, so it resets only when that changes.
func (p *Passes) withViewport(head []string, key, content string, w, h int) string {
	room := h - len(head)
	if room <= 0 {
		return Fit(strings.Join(head, "\n"), w, h)
	}
	p.vp.Width, p.vp.Height = w, room
	if k := fmt.Sprintf("%s/%d", key, w); k != p.vpKey {
		p.vp.SetContent(content)
		p.vp.GotoTop()
		p.vpKey = k
	}
	p.vp.SetYOffset(p.vp.YOffset)
	return Fit(strings.Join(head, "\n")+"\n"+p.vp.View(), w, h)
}
