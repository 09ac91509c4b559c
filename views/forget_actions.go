package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// The keys that start a forget: on a pending record its trusted speaker
// (F) or its thread (T); in the drill-down the selected source (F). Each
// opens the preview first; nothing is forgotten before the confirmation.

func (p *Pending) forgetSpeaker() tea.Cmd {
	cur, ok := p.Current()
	switch {
	case !ok:
		return nil
	case cur.SpeakerID == "":
		return Send(Notice{Text: "this record has no trusted speaker id: T forgets its thread, F in the drill-down one source"})
	}
	what := "speaker " + Visible(cur.SpeakerID)
	if cur.SpeakerLabel != "" && cur.SpeakerLabel != cur.SpeakerID {
		what = "speaker " + Visible(cur.SpeakerLabel)
	}
	return Send(PreviewForget{Selector: result.ForgetSelector{Speaker: cur.SpeakerID}, What: what})
}

func (p *Pending) forgetThread() tea.Cmd {
	cur, ok := p.Current()
	if !ok || cur.Thread == "" {
		return nil
	}
	return Send(PreviewForget{Selector: result.ForgetSelector{Thread: cur.Thread}, What: "thread " + Visible(cur.Thread)})
}

func (a *Archive) forget() tea.Cmd {
	s, ok := a.Selected()
	switch {
	case !ok:
		return nil
	case s.Forgotten:
		return Send(Notice{Text: "this record is forgotten already: only its tombstone is left"})
	}
	return Send(PreviewForget{Selector: result.ForgetSelector{Sources: []string{s.Ref}}, What: "source " + Visible(s.Ref)})
}
