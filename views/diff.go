package views

import (
	"strings"

	"scriptorium/engine/result"
)

// sideBySideMin is the width from which a diff shows the old and the new
// side next to each other: below it each side would be too narrow to read.
const sideBySideMin = 140

// renderDiffs colours file diffs for a viewport: a header per file, + green,
// - red, @@ faint. Long lines wrap instead of being cut (a changed fact is
// usually one long paragraph line); from sideBySideMin cells the old and new
// sides stand side by side. The passes, audit and forget views show diffs
// alike.
func renderDiffs(st *Styles, files []result.FileDiff, w int) string {
	var out []string
	for _, f := range files {
		out = append(out, st.DiffHeader.Render(Truncate("── "+Visible(f.Path)+" ──", w)))
		if f.Diff == "" {
			out = append(out, st.Faint.Render("(no diff recorded)"), "")
			continue
		}
		lines := strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n")
		if w >= sideBySideMin {
			out = append(out, sideBySide(st, lines, w)...)
		} else {
			for _, l := range lines {
				out = append(out, unifiedLine(st, Visible(l), w)...)
			}
		}
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// unifiedLine wraps one unified-diff line to w cells, repeating its +/-
// marker on every continuation so the colour and the side stay clear.
func unifiedLine(st *Styles, l string, w int) []string {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return []string{st.DiffHeader.Render(Truncate(l, w))}
	case strings.HasPrefix(l, "@@"):
		return []string{st.DiffHunk.Render(Truncate(l, w))}
	}
	mark, text := " ", l
	if l != "" {
		mark, text = l[:1], l[1:]
	}
	paint := func(s string) string { return s } // context stays in the terminal's colour
	switch mark {
	case "+":
		paint = func(s string) string { return st.DiffAdd.Render(s) }
	case "-":
		paint = func(s string) string { return st.DiffDel.Render(s) }
	}
	var out []string
	for i, part := range Wrap(text, max(w-2, 1)) {
		lead := mark
		if i > 0 {
			lead = mark + "»" // a continuation, not a line of the file
		}
		out = append(out, paint(lead+part))
	}
	if len(out) == 0 {
		out = []string{paint(mark)}
	}
	return out
}

// sideBySide lays a file's hunks out in two columns: removed lines on the
// left, added lines on the right, context on both, each column wrapped.
func sideBySide(st *Styles, lines []string, w int) []string {
	col := (w - 3) / 2
	var out []string
	var dels, adds []string
	flush := func() {
		for i := 0; i < max(len(dels), len(adds)); i++ {
			var l, r string
			if i < len(dels) {
				l = dels[i]
			}
			if i < len(adds) {
				r = adds[i]
			}
			out = append(out, pairRows(st, l, r, col, i < len(dels), i < len(adds))...)
		}
		dels, adds = nil, nil
	}
	for _, raw := range lines {
		l := Visible(raw)
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			flush()
			out = append(out, st.DiffHeader.Render(Truncate(l, w)))
		case strings.HasPrefix(l, "@@"):
			flush()
			out = append(out, st.DiffHunk.Render(Truncate(l, w)))
		case strings.HasPrefix(l, "-"):
			dels = append(dels, l[1:])
		case strings.HasPrefix(l, "+"):
			adds = append(adds, l[1:])
		default:
			flush()
			ctx := strings.TrimPrefix(l, " ")
			out = append(out, pairRows(st, ctx, ctx, col, false, false)...)
		}
	}
	flush()
	return out
}

// pairRows renders one old/new pair as rows of two wrapped columns; del and
// add say which side changed (and gets its colour).
func pairRows(st *Styles, l, r string, col int, del, add bool) []string {
	left, right := Wrap(l, max(col-2, 1)), Wrap(r, max(col-2, 1))
	if !del && l == "" && add {
		left = nil
	}
	if !add && r == "" && del {
		right = nil
	}
	n := max(len(left), len(right), 1)
	var out []string
	for i := 0; i < n; i++ {
		lc, rc := "", ""
		if i < len(left) {
			lc = left[i]
		}
		if i < len(right) {
			rc = right[i]
		}
		ls, rs := "  "+lc, "  "+rc
		if del && i < len(left) {
			ls = st.DiffDel.Render("- " + lc)
		}
		if add && i < len(right) {
			rs = st.DiffAdd.Render("+ " + rc)
		}
		out = append(out, PadRight(ls, col)+st.Faint.Render(" │ ")+rs)
	}
	return out
}
