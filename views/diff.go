package views

import (
	"strings"

	"scriptorium/engine"
)

// renderDiffs colours file diffs for a viewport: a header per file, + green,
// - red, @@ faint. The passes pane and the audit pane show diffs alike.
func renderDiffs(st *Styles, files []engine.FileDiff, w int) string {
	var out []string
	for _, f := range files {
		out = append(out, st.DiffHeader.Render(Truncate("── "+Visible(f.Path)+" ──", w)))
		if f.Diff == "" {
			out = append(out, st.Faint.Render("(no diff recorded)"), "")
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n") {
			l = Truncate(Visible(l), w)
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
				l = st.DiffHeader.Render(l)
			case strings.HasPrefix(l, "+"):
				l = st.DiffAdd.Render(l)
			case strings.HasPrefix(l, "-"):
				l = st.DiffDel.Render(l)
			case strings.HasPrefix(l, "@@"):
				l = st.DiffHunk.Render(l)
			}
			out = append(out, l)
		}
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
