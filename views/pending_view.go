package views

import (
	"fmt"
	"strings"
)

// wide reports whether list and detail sit side by side.
func (p *Pending) wide() bool { return p.w >= 100 }

func (p *Pending) listHeight() int {
	body := max(p.h-p.headerHeight(), 0)
	if p.wide() {
		return body
	}
	return max(body/2, min(body, 3))
}

func (p *Pending) headerHeight() int {
	if p.reasoning || p.filtering || p.filter.Value() != "" {
		return 2
	}
	return 1
}

// View implements Component.
func (p *Pending) View() string {
	st := p.c.Styles
	var head []string
	title := st.Title.Render("Pending sources")
	if p.showRejected {
		title = st.Title.Render("Rejected sources")
	}
	switch {
	case p.err != nil:
		title += st.Error.Render("  could not load: " + Visible(p.err.Error()))
	case !p.loaded:
		title += st.Faint.Render("  loading…")
	default:
		info := fmt.Sprintf("  %s in %s", plural(len(p.all), "source"), plural(p.nThreads, "thread"))
		if n := len(p.selected); n > 0 {
			info += fmt.Sprintf(" · %d selected", n)
		}
		switch n := len(p.rejectedList); {
		case p.showRejected:
			info += " · still untrusted; p promotes"
		case n > 0:
			info += fmt.Sprintf(" · %d rejected (R)", n)
		}
		title += st.Faint.Render(info)
	}
	head = append(head, title)
	if p.headerHeight() == 2 {
		if p.reasoning {
			head = append(head, p.reason.View())
		} else if p.filtering {
			head = append(head, p.filter.View())
		} else {
			head = append(head, st.Faint.Render("filter: "+p.filter.Value()+fmt.Sprintf("  (%d shown, esc on / clears)", len(p.items))))
		}
	}
	body := max(p.h-len(head), 0)
	var main string
	if p.wide() {
		lw := p.w * 45 / 100
		rw := p.w - lw - 3
		main = JoinColumns(p.listView(lw, body), lw, st.Faint.Render(" │ "), p.detailView(rw, body, false), rw, body)
	} else {
		lh := p.listHeight()
		main = p.listView(p.w, lh) + "\n" + p.detailView(p.w, body-lh, true)
	}
	return Fit(strings.Join(head, "\n")+"\n"+main, p.w, p.h)
}

func (p *Pending) listView(w, h int) string {
	st := p.c.Styles
	if h <= 0 {
		return ""
	}
	if len(p.rows) == 0 {
		msg := "No pending sources. Group-chat messages from unpaired senders wait here for review."
		if p.showRejected {
			msg = "No rejected sources. x on a pending source rejects it; it stays untrusted."
		}
		if p.filter.Value() != "" {
			msg = "No pending source matches the filter."
		}
		if !p.loaded {
			msg = ""
		}
		return Fit(strings.Join(Wrap(st.Faint.Render(msg), w), "\n"), w, h)
	}
	curRow := p.items[p.cursor]
	p.offset = scrollTo(p.offset, curRow, h, len(p.rows))
	// Keep the headers right above the cursor in view when they fit.
	for r := curRow - 1; r >= 0 && p.rows[r].src < 0 && curRow-r < h; r-- {
		if r < p.offset {
			p.offset = r
		}
	}
	var out []string
	for i := p.offset; i < len(p.rows) && len(out) < h; i++ {
		row := p.rows[i]
		switch row.src {
		case rowThread:
			out = append(out, Truncate(st.Header.Render(fmt.Sprintf("%s (%d)", Visible(row.thread), row.count)), w))
			continue
		case rowSender:
			label := row.label
			if label == "" {
				label = "?"
			}
			out = append(out, Truncate(st.Faint.Render(fmt.Sprintf("  %s (%d)", OneLine(label), row.count)), w))
			continue
		}
		s := p.all[row.src]
		box := "[ ]"
		if p.selected[s.Ref] {
			box = "[x]"
		}
		label := s.SpeakerLabel
		if label == "" {
			label = "?"
		}
		line := fmt.Sprintf("%s %s %s: %s", box, clockOf(s.Time), OneLine(label), OneLine(s.Content))
		switch {
		case i == curRow:
			out = append(out, cursorRow(st, "› "+line, w))
		case p.selected[s.Ref]:
			out = append(out, st.Marked.Render(Truncate("  "+line, w)))
		default:
			out = append(out, Truncate("  "+line, w))
		}
	}
	return Fit(strings.Join(out, "\n"), w, h)
}

// clockOf shows the time of day of an RFC 3339 time, or the date when it
// cannot.
func clockOf(t string) string {
	s := ShortTime(t)
	if len(s) == len("2006-01-02 15:04") {
		return s[5:]
	}
	return s
}

// detailView is the selected source. stacked says it sits under the list,
// where a rule separates the two; beside the list the column divider does.
func (p *Pending) detailView(w, h int, stacked bool) string {
	st := p.c.Styles
	if h <= 0 {
		return ""
	}
	s, ok := p.Current()
	if !ok {
		return Fit("", w, h)
	}
	field := func(name, value string) string {
		return st.Faint.Render(PadRight(name, 10)) + value
	}
	var lines []string
	if stacked {
		lines = append(lines, st.Faint.Render(strings.Repeat("─", max(w, 0))))
	}
	// The speaker's identity and the record's trust are two things: a
	// verified speaker's record is still pending review.
	record := st.Pending.Render("✗ pending review · unpaired sender, not trusted yet")
	if r, ok := p.rejected[s.Ref]; ok {
		why := "no reason given"
		if r.Reason != "" {
			why = Visible(r.Reason)
		}
		record = st.Pending.Render(fmt.Sprintf("✗ rejected %s by the %s, not trusted", ShortTime(r.RejectedAt), Visible(r.RejectedBy)))
		record += "\n" + field("reason", Visible(why))
	}
	lines = append(lines,
		field("source-id", Visible(s.Ref)),
		field("time", Visible(s.Time)),
		field("speaker", speakerStyled(st, s.SpeakerLabel, s.SpeakerID, true, false)),
		field("record", record),
		field("archive", Visible(s.Path+"#"+s.Anchor)),
		st.Faint.Render("record, verbatim:"),
	)
	text := s.Text
	if text == "" {
		text = s.Content
	}
	lines = append(lines, Wrap(Visible(text), w)...)
	return Fit(strings.Join(lines, "\n"), w, h)
}
