package views

import (
	"fmt"
	"strings"

	"scriptorium/engine/result"
)

// wide reports whether list and detail sit side by side.
func (a *Audit) wide() bool { return a.w >= 100 }

func (a *Audit) headerHeight() int {
	if a.filtering || a.filter.Value() != "" {
		return 2
	}
	return 1
}

func (a *Audit) listHeight() int {
	body := max(a.h-a.headerHeight(), 0)
	if a.wide() {
		return body
	}
	return max(body/2, min(body, 3))
}

// View implements Component.
func (a *Audit) View() string {
	st := a.c.Styles
	if a.diff {
		if en, ok := a.Current(); ok {
			return a.diffView(en)
		}
	}
	title := st.Title.Render("Audit trail")
	switch {
	case a.err != nil:
		title += st.Error.Render("  could not load: " + Visible(a.err.Error()))
	case !a.loaded:
		title += st.Faint.Render("  loading…")
	default:
		n := fmt.Sprintf("%d entries", len(a.entries))
		if len(a.entries) == 1 {
			n = "1 entry"
		}
		title += st.Faint.Render("  " + n + ", newest first")
	}
	head := []string{title}
	if a.headerHeight() == 2 {
		if a.filtering {
			head = append(head, a.filter.View())
		} else {
			head = append(head, st.Faint.Render(fmt.Sprintf("filter: %s  (%d shown, esc on / clears)", a.filter.Value(), len(a.shown))))
		}
	}
	body := max(a.h-len(head), 0)
	var main string
	if a.wide() {
		lw := a.w * 48 / 100
		rw := a.w - lw - 3
		main = JoinColumns(a.listView(lw, body), lw, st.Faint.Render(" │ "), a.detailView(rw, body, false), rw, body)
	} else {
		lh := a.listHeight()
		main = a.listView(a.w, lh) + "\n" + a.detailView(a.w, body-lh, true)
	}
	return Fit(strings.Join(head, "\n")+"\n"+main, a.w, a.h)
}

func (a *Audit) listView(w, h int) string {
	st := a.c.Styles
	if h <= 0 {
		return ""
	}
	if len(a.shown) == 0 {
		msg := ""
		switch {
		case !a.loaded:
		case a.filter.Value() != "":
			msg = "No entry matches the filter."
		default:
			msg = "Nothing has happened to this memory yet: installs, promotions, rejections and passes appear here."
		}
		return Fit(strings.Join(Wrap(st.Faint.Render(msg), w), "\n"), w, h)
	}
	a.off = scrollTo(a.off, a.cur, h, len(a.shown))
	var out []string
	for i := a.off; i < len(a.shown) && len(out) < h; i++ {
		line := a.row(a.entries[a.shown[i]])
		if i == a.cur {
			out = append(out, cursorRow(st, "› "+line, w))
		} else {
			out = append(out, Truncate("  "+line, w))
		}
	}
	return Fit(strings.Join(out, "\n"), w, h)
}

// kindLabel is an entry's kind in at most nine cells.
func kindLabel(kind string) string {
	if kind == "proposal_declined" {
		return "declined"
	}
	return Visible(kind)
}

// revLabel is "r41", or "-" for what installed nothing.
func revLabel(rev int64) string {
	if rev == 0 {
		return "-"
	}
	return fmt.Sprintf("r%d", rev)
}

// row is one entry in a line: time, kind, revision, then what it concerns.
func (a *Audit) row(en result.AuditEntry) string {
	var what []string
	switch n := len(en.Sources); {
	case n == 1:
		what = append(what, Visible(en.Sources[0]))
	case n > 1:
		what = append(what, plural(n, "source"))
	}
	switch n := len(en.Changed); {
	case n == 1:
		what = append(what, Visible(en.Changed[0]))
	case n > 1:
		what = append(what, plural(n, "file"))
	}
	if len(what) == 0 {
		what = append(what, OneLine(en.Detail))
	}
	// The whole date: a trail spans years, unlike the pending queue.
	return fmt.Sprintf("%s %-8s %-4s %s", ShortTime(en.Time), kindLabel(en.Kind), revLabel(en.Revision), strings.Join(what, " · "))
}

// detailView is the selected entry: what happened in words, its sources
// (the chosen one marked) and its changed files, and what enter opens.
func (a *Audit) detailView(w, h int, stacked bool) string {
	st := a.c.Styles
	if h <= 0 {
		return ""
	}
	en, ok := a.Current()
	if !ok {
		return Fit("", w, h)
	}
	var lines []string
	if stacked {
		lines = append(lines, st.Faint.Render(strings.Repeat("─", max(w, 0))))
	}
	actor := en.Actor
	if actor == "" {
		actor = "no actor recorded"
	}
	rev := "installed nothing"
	if en.Revision > 0 {
		rev = fmt.Sprintf("revision %d", en.Revision)
	}
	lines = append(lines, WrapParts([]string{st.Header.Render(kindLabel(en.Kind)), Visible(en.Time), "by " + Visible(actor), rev}, " · ", w)...)
	lines = append(lines, Wrap(Visible(en.Detail), w)...)
	if len(en.Sources) > 0 {
		head := "Sources"
		if len(en.Sources) > 1 {
			head += fmt.Sprintf(" (%d/%d, ←/→ choose)", a.src+1, len(en.Sources))
		}
		lines = append(lines, st.Faint.Render(head))
		for i, s := range en.Sources {
			mark := "  "
			if i == a.src {
				mark = st.Accent.Render("› ")
			}
			lines = append(lines, Truncate(mark+Visible(s), w))
		}
	}
	if len(en.Changed) > 0 {
		lines = append(lines, st.Faint.Render("Changed"))
		for _, c := range en.Changed {
			lines = append(lines, Truncate("  "+Visible(c), w))
		}
	}
	lines = append(lines, st.Faint.Render(a.openHint(en)))
	return Fit(strings.Join(lines, "\n"), w, h)
}

// openHint says what enter and o open for the entry.
func (a *Audit) openHint(en result.AuditEntry) string {
	var parts []string
	if len(en.Diffs) > 0 {
		parts = append(parts, "enter: the diff ("+plural(len(en.Diffs), "file")+")")
	}
	if len(en.Sources) > 0 {
		parts = append(parts, "o: the record of "+Visible(en.Sources[clamp(a.src, 0, len(en.Sources)-1)]))
	}
	if len(parts) == 0 {
		return "nothing to open"
	}
	return strings.Join(parts, " · ")
}

// diffView fills the pane with the entry's diffs in a scrollable viewport.
func (a *Audit) diffView(en result.AuditEntry) string {
	st := a.c.Styles
	head := WrapParts([]string{st.Title.Render("Diff"), st.Header.Render(kindLabel(en.Kind)), revLabel(en.Revision),
		Visible(en.Time), plural(len(en.Diffs), "file")}, " · ", a.w)
	head = append(head, Wrap(st.Faint.Render(Visible(en.Detail)), a.w)...)
	if a.preview != nil {
		head = append(head, Wrap(st.Warn.Render(fmt.Sprintf("revert of revision %d: this diff would be installed", en.Revision)), a.w)...)
	}
	room := a.h - len(head)
	if room <= 0 {
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	}
	a.vp.Width, a.vp.Height = a.w, room
	diffs, what := en.Diffs, ""
	if a.preview != nil {
		diffs, what = a.preview.Changed, "/revert"
	}
	if k := fmt.Sprintf("%s/%d%s", entryKey(en), a.w, what); k != a.vpKey {
		a.vp.SetContent(renderDiffs(st, diffs, a.w))
		a.vp.GotoTop()
		a.vpKey = k
	}
	a.vp.SetYOffset(a.vp.YOffset)
	return Fit(strings.Join(head, "\n")+"\n"+a.vp.View(), a.w, a.h)
}
