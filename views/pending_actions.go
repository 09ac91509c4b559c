package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// maxNamed is how many sources a confirmation names one by one; the rest
// are counted, so the dialog never hides the pane it is about.
const maxNamed = 4

// targets are the sources an action applies to: the selection, or the
// cursor row when nothing is selected.
func (p *Pending) targets() []string {
	if refs := p.Selected(); len(refs) > 0 {
		return refs
	}
	if cur, ok := p.Current(); ok {
		return []string{cur.Ref}
	}
	return nil
}

// promote asks for confirmation, naming each source and its speaker: the
// owner must see exactly whose words become trusted.
func (p *Pending) promote() tea.Cmd { return p.promoteRefs(p.targets(), "") }

// senderTargets are every source of the cursor's sender in its thread
// (whatever the filter shows), and who that is.
func (p *Pending) senderTargets() ([]string, string) {
	cur, ok := p.Current()
	if !ok {
		return nil, ""
	}
	thread, key := threadOf(cur), senderKey(cur)
	var refs []string
	for _, s := range p.all {
		if threadOf(s) == thread && senderKey(s) == key {
			refs = append(refs, s.Ref)
		}
	}
	label := cur.SpeakerLabel
	if label == "" {
		label = "the sender with no name"
	}
	return refs, label
}

// promoteSender promotes every source of the cursor's sender in its
// thread, after the same confirmation.
func (p *Pending) promoteSender() tea.Cmd {
	refs, label := p.senderTargets()
	if len(refs) == 0 {
		return nil
	}
	return p.promoteRefs(refs, fmt.Sprintf("every source of %s here: ", OneLine(label)))
}

// rejectSender asks for a reason, then rejects every source of the
// cursor's sender in its thread.
func (p *Pending) rejectSender() tea.Cmd {
	if p.showRejected {
		return Send(Notice{Text: "these sources are rejected already; p promotes one to reverse it"})
	}
	refs, _ := p.senderTargets()
	return p.askReasonFor(refs)
}

// promoteRefs asks before promoting refs; whose, when set, says the
// sources are all of one sender's.
func (p *Pending) promoteRefs(refs []string, whose string) tea.Cmd {
	if len(refs) == 0 {
		return nil
	}
	summary := whose + p.summary(refs)
	verb, them := "They become", "any no topic cites yet is"
	if len(refs) == 1 {
		verb, them = "It becomes", "unless a topic cites it already it is"
	}
	prompt := fmt.Sprintf("Promote %s?\n%s\n%s trusted and searchable; %s distilled into a topic.\n"+
		"y to confirm, any other key cancels", summary, p.named(refs), verb, them)
	if p.showRejected {
		prompt = "Reverse the rejection: " + prompt
	}
	return Send(Confirm{Prompt: prompt, Action: Promote{Refs: refs, Summary: summary, Who: p.who(refs)}})
}

// askReason starts a rejection: the reason input takes the keys until
// enter (on to the confirmation) or esc (nothing happens).
func (p *Pending) askReason() tea.Cmd {
	if p.showRejected {
		return Send(Notice{Text: "these sources are rejected already; p promotes one to reverse it"})
	}
	return p.askReasonFor(p.targets())
}

// askReasonFor starts the rejection of refs.
func (p *Pending) askReasonFor(refs []string) tea.Cmd {
	if len(refs) == 0 {
		return nil
	}
	p.reasoning, p.reasonFor = true, refs
	p.reason.SetValue("")
	return p.reason.Focus()
}

func (p *Pending) updateReason(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Reason
	switch {
	case key.Matches(msg, k.Cancel):
		p.reasoning = false
		p.reason.Blur()
		return Send(Notice{Text: "rejection cancelled, nothing changed"})
	case key.Matches(msg, k.Submit):
		p.reasoning = false
		p.reason.Blur()
		return p.confirmReject(p.reasonFor, strings.TrimSpace(p.reason.Value()))
	}
	var cmd tea.Cmd
	p.reason, cmd = p.reason.Update(msg)
	return cmd
}

// confirmReject asks before a rejection, naming each source and speaker.
func (p *Pending) confirmReject(refs []string, reason string) tea.Cmd {
	summary := p.summary(refs)
	why := "no reason given"
	if reason != "" {
		why = "reason: " + Visible(reason)
	}
	prompt := fmt.Sprintf("Reject %s?\n%s\n%s. They leave the review queue and stay untrusted: never searched, "+
		"recalled or rendered. R lists them; p there reverses it.\ny to confirm, any other key cancels",
		summary, p.named(refs), why)
	return Send(Confirm{Prompt: prompt, Action: Reject{Refs: refs, Summary: summary, Reason: reason}})
}

// named lists sources one per line: source-id, speaker and whether the
// speaker's identity is verified.
func (p *Pending) named(refs []string) string {
	byRef := p.byRef()
	var lines []string
	for i, r := range refs {
		if i == maxNamed {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(refs)-maxNamed))
			break
		}
		s, ok := byRef[r]
		if !ok {
			lines = append(lines, "  • "+Visible(r))
			continue
		}
		lines = append(lines, "  • "+Visible(r)+" · "+speakerPlain(s.SpeakerLabel, s.SpeakerID))
	}
	return strings.Join(lines, "\n")
}

// who is the sources in one line for the result, speaker first and the
// message id after it (the summary names the threads): "B (u456) m101, …".
func (p *Pending) who(refs []string) string {
	byRef := p.byRef()
	parts := make([]string, 0, len(refs))
	for _, r := range refs {
		label := OneLine(byRef[r].SpeakerLabel)
		if label == "" {
			label = "no speaker"
		}
		parts = append(parts, label+" "+Visible(r[strings.LastIndexByte(r, '/')+1:]))
	}
	return strings.Join(parts, ", ")
}

func (p *Pending) byRef() map[string]result.PendingSource {
	out := make(map[string]result.PendingSource, len(p.all))
	for _, s := range p.all {
		out[s.Ref] = s
	}
	return out
}

// summary says which sources in words: "2 sources from telegram/group-42",
// or "3 sources from 2 threads (a/b: 2, c/d: 1)".
func (p *Pending) summary(refs []string) string {
	byRef := p.byRef()
	counts := map[string]int{}
	var threads []string
	for _, r := range refs {
		t := threadOf(byRef[r])
		if t == "" {
			t = threadOfRef(r)
		}
		if counts[t] == 0 {
			threads = append(threads, t)
		}
		counts[t]++
	}
	if len(threads) == 1 {
		return fmt.Sprintf("%s from %s", plural(len(refs), "source"), threads[0])
	}
	parts := make([]string, len(threads))
	for i, t := range threads {
		parts[i] = fmt.Sprintf("%s: %d", t, counts[t])
	}
	return fmt.Sprintf("%s from %d threads (%s)", plural(len(refs), "source"), len(threads), strings.Join(parts, ", "))
}
