package views

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"scriptorium/termsafe"
)

// Fit cuts or pads s to exactly h lines, none wider than w cells. Every
// pane's View ends with it, so the root can stack panes without measuring.
func Fit(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	w = max(w, 0)
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = Truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Truncate cuts one line to w cells, marking the cut with an ellipsis.
func Truncate(line string, w int) string {
	if w <= 0 {
		return ""
	}
	if len(line) <= w || Width(line) <= w { // a cell takes at least one byte
		return line
	}
	return ansi.Truncate(line, w, "…")
}

// PadRight truncates a line to w cells and pads it with spaces to exactly w.
func PadRight(line string, w int) string {
	if w <= 0 {
		return ""
	}
	n := Width(line)
	if n > w {
		line = ansi.Truncate(line, w, "…")
		n = Width(line)
	}
	if n < w {
		line += strings.Repeat(" ", w-n)
	}
	return line
}

// Width is the number of cells s takes on a terminal, exactly as
// ansi.StringWidth counts them, but with the common case fast: runs of
// printable ASCII between SGR sequences (what styled rows are made of)
// are counted by their length instead of grapheme by grapheme. A
// grapheme cluster never spans an escape sequence (ESC is a control
// character, a cluster boundary on both sides), so every run is measured
// alone; a run of other text goes to ansi.StringWidth, and anything out
// of the ordinary (an escape that is not a complete CSI sequence, a
// control character, invalid UTF-8) sends the whole string there.
func Width(s string) int {
	w, start, plain := 0, 0, true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			end, ok := csiEnd(s, i)
			if !ok {
				return ansi.StringWidth(s)
			}
			n, ok := runWidth(s[start:i], plain)
			if !ok {
				return ansi.StringWidth(s)
			}
			w += n
			i, start, plain = end, end, true
		case c < 0x20 || c == 0x7f:
			return ansi.StringWidth(s)
		default:
			if c >= 0x80 {
				plain = false
			}
			i++
		}
	}
	n, ok := runWidth(s[start:], plain)
	if !ok {
		return ansi.StringWidth(s)
	}
	return w + n
}

// csiEnd returns the index after the CSI sequence at s[i] (ESC [ then
// parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F and one final
// byte 0x40–0x7E); ok is false for anything else.
func csiEnd(s string, i int) (int, bool) {
	j := i + 1
	if j >= len(s) || s[j] != '[' {
		return 0, false
	}
	j++
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
		return 0, false
	}
	return j + 1, true
}

// runWidth measures text without escapes: printable ASCII by its length,
// other valid UTF-8 without C1 controls by ansi.StringWidth; ok is false
// when the run must not be measured apart from the rest of the string.
func runWidth(s string, plain bool) (int, bool) {
	if plain {
		return len(s), true
	}
	if !utf8.ValidString(s) {
		return 0, false
	}
	for _, r := range s {
		if r >= 0x80 && r <= 0x9f {
			return 0, false
		}
	}
	return ansi.StringWidth(s), true
}

// JoinColumns places two blocks side by side: the left one padded to lw
// cells, then sep, then the right one, for exactly h lines.
func JoinColumns(left string, lw int, sep string, right string, rw, h int) string {
	ll := strings.Split(Fit(left, lw, h), "\n")
	rl := strings.Split(Fit(right, rw, h), "\n")
	out := make([]string, h)
	for i := range out {
		out[i] = PadRight(ll[i], lw) + sep + rl[i]
	}
	return strings.Join(out, "\n")
}

// Visible makes stored text safe and legible on a terminal without changing
// what it says: every control termsafe neutralises (ESC and the other C0
// and C1 controls, CR, DEL, bidi controls, invalid UTF-8) is shown as a
// visible stand-in, and for the layout's sake tabs and U+2028/U+2029 are
// shown too; LF stays a line break. Any text the engine hands the TUI goes
// through it before it is drawn.
func Visible(s string) string {
	s = termsafe.String(s)
	if !strings.ContainsAny(s, "\t\u2028\u2029") {
		return s
	}
	return layoutSafe.Replace(s)
}

// layoutSafe shows what termsafe keeps but a cell grid cannot draw.
var layoutSafe = strings.NewReplacer("\t", "␉", "\u2028", "␤", "\u2029", "¶")

// OneLine flattens text for a one-line summary.
func OneLine(s string) string {
	return strings.Join(strings.Fields(Visible(s)), " ")
}

// Wrap wraps already visible text to w cells per line.
func Wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// WrapParts joins parts with sep into lines of at most w cells, breaking
// only between parts, so no line starts with a separator. A part wider
// than w is wrapped on its own. No parts make no lines.
func WrapParts(parts []string, sep string, w int) []string {
	w = max(w, 1)
	var lines []string
	cur := ""
	for _, part := range parts {
		switch {
		case cur == "":
			cur = part
		case Width(cur+sep+part) <= w:
			cur += sep + part
		default:
			lines = append(lines, cur)
			cur = part
		}
		if Width(cur) > w {
			wrapped := Wrap(cur, w)
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// ShortTime shows an RFC 3339 time as "2006-01-02 15:04", or the input
// (Visible) when it does not parse.
func ShortTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return Visible(s)
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// scrollTo returns the first visible row of a window of h rows over n rows
// so that the cursor row stays visible, moving as little as possible.
func scrollTo(offset, cursor, h, n int) int {
	if h <= 0 || n <= h {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	return min(max(offset, 0), n-h)
}

// clamp keeps v within [lo, hi]; an empty range gives lo.
func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// plural returns "1 source" or "3 sources".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// cursorRow draws the row under the cursor: one even bar across w cells.
// Inner styles are dropped because their resets would cut the bar short.
func cursorRow(st *Styles, line string, w int) string {
	return st.Cursor.Render(PadRight(ansi.Strip(line), w))
}
