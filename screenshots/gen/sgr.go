package main

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// colorKind says how a Color is given.
type colorKind uint8

const (
	colorDefault colorKind = iota // the terminal's default foreground or background
	colorIndexed                  // one of the 256 palette entries
	colorRGB                      // a true colour
)

// Color is a cell colour as the escape stream gave it; it is resolved to
// RGB only when drawing, so reverse and faint apply to the final values.
type Color struct {
	Kind    colorKind
	Index   uint8
	R, G, B uint8
}

// Attr is a set of SGR text attributes.
type Attr uint8

// The text attributes the renderer draws.
const (
	AttrBold Attr = 1 << iota
	AttrFaint
	AttrItalic
	AttrUnderline
	AttrReverse
	AttrStrike
)

// Style is the graphic rendition in effect for a cell.
type Style struct {
	FG, BG Color
	Attr   Attr
}

// Cell is one position of the terminal grid. A wide grapheme occupies its
// cell (Width 2) and the next one (Width 0, empty Text).
type Cell struct {
	Text  string // the grapheme cluster; "" is a blank
	Width int
	Style Style
}

// Grid is a screen of cells, Rows[y][x].
type Grid struct {
	W, H int
	Rows [][]Cell
	// Overflow counts the cells drawn past the right edge and the lines
	// past the bottom: a view that does not fit its window is a TUI bug.
	Overflow struct{ Cols, Lines int }
}

func newGrid(w, h int) *Grid {
	g := &Grid{W: w, H: h, Rows: make([][]Cell, h)}
	for y := range g.Rows {
		g.Rows[y] = make([]Cell, w)
		for x := range g.Rows[y] {
			g.Rows[y][x].Width = 1
		}
	}
	return g
}

// Parse lays an ANSI text (a Bubble Tea View) out on a w×h grid: text by
// grapheme clusters with the width the TUI itself measures with, SGR
// sequences as cell styles; every other escape sequence is skipped.
func Parse(s string, w, h int) *Grid {
	g := newGrid(w, h)
	var st Style
	x, y := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, params, final := escape(s[i:])
			if final == 'm' {
				st = applySGR(st, params)
			}
			i += n
			continue
		case c == '\n':
			x, y = 0, y+1
			i++
			continue
		case c == '\r':
			x = 0
			i++
			continue
		case c == '\t':
			next := (x/8 + 1) * 8
			for ; x < next; x++ {
				g.put(x, y, Cell{Width: 1, Style: st})
			}
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		}
		cluster, cw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if cluster == "" { // cannot happen on non-empty input; never loop forever
			cluster, cw = s[i:i+1], 1
		}
		i += len(cluster)
		if cw <= 0 {
			continue // a lone combining mark or zero-width joiner
		}
		g.put(x, y, Cell{Text: cluster, Width: cw, Style: st})
		for k := 1; k < cw; k++ {
			g.put(x+k, y, Cell{Width: 0, Style: st})
		}
		x += cw
	}
	return g
}

// put stores a cell, counting what falls outside the grid.
func (g *Grid) put(x, y int, c Cell) {
	if y >= g.H {
		g.Overflow.Lines = max(g.Overflow.Lines, y-g.H+1)
		return
	}
	if x >= g.W {
		g.Overflow.Cols = max(g.Overflow.Cols, x-g.W+1)
		return
	}
	if c.Width > 1 && x+c.Width > g.W {
		// A wide grapheme cut by the right edge shows as a blank.
		g.Overflow.Cols = max(g.Overflow.Cols, x+c.Width-g.W)
		c.Text, c.Width = "", 1
	}
	g.Rows[y][x] = c
}

// escape measures the escape sequence at the start of s and returns its
// length in bytes and, for a CSI sequence, its parameters and final byte.
func escape(s string) (n int, params string, final byte) {
	if len(s) < 2 {
		return len(s), "", 0
	}
	switch s[1] {
	case '[': // CSI: parameters and intermediates, then a final byte 0x40–0x7e
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1, s[2:j], s[j]
			}
		}
		return len(s), "", 0
	case ']', 'P', '_', '^', 'X': // OSC, DCS, APC, PM, SOS: up to BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1, "", 0
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2, "", 0
			}
		}
		return len(s), "", 0
	}
	return 2, "", 0 // a two-byte escape
}

// applySGR applies the parameters of one SGR sequence ("1;38;5;99") to st.
// Both the semicolon form and the colon sub-parameter form of extended
// colours are understood; unknown codes are ignored.
func applySGR(st Style, params string) Style {
	if params == "" {
		return Style{}
	}
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Contains(f, ":") {
			sub := strings.Split(f, ":")
			code := atoi(sub[0])
			switch code {
			case 38, 48, 58:
				if c, ok := extColor(sub[1:]); ok {
					st = setColor(st, code, c)
				}
			case 4:
				if len(sub) > 1 && atoi(sub[1]) == 0 {
					st.Attr &^= AttrUnderline
				} else {
					st.Attr |= AttrUnderline
				}
			}
			continue
		}
		code := atoi(f)
		switch {
		case code == 0:
			st = Style{}
		case code == 1:
			st.Attr |= AttrBold
		case code == 2:
			st.Attr |= AttrFaint
		case code == 3:
			st.Attr |= AttrItalic
		case code == 4 || code == 21:
			st.Attr |= AttrUnderline
		case code == 7:
			st.Attr |= AttrReverse
		case code == 9:
			st.Attr |= AttrStrike
		case code == 22:
			st.Attr &^= AttrBold | AttrFaint
		case code == 23:
			st.Attr &^= AttrItalic
		case code == 24:
			st.Attr &^= AttrUnderline
		case code == 27:
			st.Attr &^= AttrReverse
		case code == 29:
			st.Attr &^= AttrStrike
		case code >= 30 && code <= 37:
			st.FG = Color{Kind: colorIndexed, Index: uint8(code - 30)}
		case code == 39:
			st.FG = Color{}
		case code >= 40 && code <= 47:
			st.BG = Color{Kind: colorIndexed, Index: uint8(code - 40)}
		case code == 49:
			st.BG = Color{}
		case code >= 90 && code <= 97:
			st.FG = Color{Kind: colorIndexed, Index: uint8(code - 90 + 8)}
		case code >= 100 && code <= 107:
			st.BG = Color{Kind: colorIndexed, Index: uint8(code - 100 + 8)}
		case code == 38 || code == 48 || code == 58:
			c, used := extColorSemi(fields[i+1:])
			i += used
			if used > 0 {
				st = setColor(st, code, c)
			}
		}
	}
	return st
}

func setColor(st Style, code int, c Color) Style {
	switch code {
	case 38:
		st.FG = c
	case 48:
		st.BG = c
	}
	return st // 58 (underline colour) is parsed so its arguments are skipped, not drawn
}

// extColorSemi reads "5;n" or "2;r;g;b" after a 38/48 and reports how many
// fields it consumed.
func extColorSemi(rest []string) (Color, int) {
	if len(rest) == 0 {
		return Color{}, 0
	}
	switch atoi(rest[0]) {
	case 5:
		if len(rest) < 2 {
			return Color{}, len(rest)
		}
		return Color{Kind: colorIndexed, Index: clampByte(atoi(rest[1]))}, 2
	case 2:
		if len(rest) < 4 {
			return Color{}, len(rest)
		}
		return Color{Kind: colorRGB, R: clampByte(atoi(rest[1])), G: clampByte(atoi(rest[2])), B: clampByte(atoi(rest[3]))}, 4
	}
	return Color{}, 1
}

// extColor reads the colon form: "5:n", "2::r:g:b" (with a colour-space
// id, possibly empty) or "2:r:g:b".
func extColor(sub []string) (Color, bool) {
	if len(sub) == 0 {
		return Color{}, false
	}
	switch atoi(sub[0]) {
	case 5:
		if len(sub) >= 2 {
			return Color{Kind: colorIndexed, Index: clampByte(atoi(sub[1]))}, true
		}
	case 2:
		rgb := sub[1:]
		if len(rgb) >= 4 {
			rgb = rgb[1:] // skip the colour-space id
		}
		if len(rgb) >= 3 {
			return Color{Kind: colorRGB, R: clampByte(atoi(rgb[0])), G: clampByte(atoi(rgb[1])), B: clampByte(atoi(rgb[2]))}, true
		}
	}
	return Color{}, false
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0 // an empty or malformed parameter means its default, 0
	}
	return n
}

func clampByte(n int) uint8 {
	return uint8(min(max(n, 0), 255))
}

// Plain returns the grid's text, one line per row, trailing blanks
// trimmed: what the waits and -v look at.
func (g *Grid) Plain() string {
	var b strings.Builder
	for y, row := range g.Rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for _, c := range row {
			switch {
			case c.Width == 0:
			case c.Text == "":
				line.WriteByte(' ')
			default:
				line.WriteString(c.Text)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}
