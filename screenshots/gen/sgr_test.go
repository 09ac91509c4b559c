package main

import (
	"strings"
	"testing"
)

func TestParse_SGR(t *testing.T) {
	rgb := func(r, g, b uint8) Color { return Color{Kind: colorRGB, R: r, G: g, B: b} }
	idx := func(n uint8) Color { return Color{Kind: colorIndexed, Index: n} }
	tests := []struct {
		name string
		in   string
		want Style // of the cell holding "x"
	}{
		{"plain", "x", Style{}},
		{"16 colour fg and bg", "\x1b[31;42mx", Style{FG: idx(1), BG: idx(2)}},
		{"bright fg and bg", "\x1b[91;104mx", Style{FG: idx(9), BG: idx(12)}},
		{"256 colour", "\x1b[38;5;208;48;5;22mx", Style{FG: idx(208), BG: idx(22)}},
		{"true colour", "\x1b[38;2;179;157;250;48;2;46;38;80mx", Style{FG: rgb(179, 157, 250), BG: rgb(46, 38, 80)}},
		{"true colour, colon form with colour space", "\x1b[38:2::1:2:3mx", Style{FG: rgb(1, 2, 3)}},
		{"true colour, colon form", "\x1b[48:2:4:5:6mx", Style{BG: rgb(4, 5, 6)}},
		{"attributes", "\x1b[1;2;3;4;7;9mx", Style{Attr: AttrBold | AttrFaint | AttrItalic | AttrUnderline | AttrReverse | AttrStrike}},
		{"22 ends bold and faint", "\x1b[1;2;3m\x1b[22mx", Style{Attr: AttrItalic}},
		{"attributes off one by one", "\x1b[3;4;7;9m\x1b[23;24;27;29mx", Style{}},
		{"default colours", "\x1b[31;41m\x1b[39;49mx", Style{}},
		{"reset", "\x1b[1;31m\x1b[0mx", Style{}},
		{"empty SGR resets", "\x1b[1;31m\x1b[mx", Style{}},
		{"lipgloss style", "\x1b[1;38;2;179;157;250;48;2;46;38;80mx\x1b[0m", Style{FG: rgb(179, 157, 250), BG: rgb(46, 38, 80), Attr: AttrBold}},
		{"underline colour is skipped", "\x1b[58;2;1;2;3;4mx", Style{Attr: AttrUnderline}},
		{"truncated extended colour", "\x1b[1;38;5mx", Style{Attr: AttrBold}},
		{"out of range values clamp", "\x1b[38;2;300;-1;7mx", Style{FG: rgb(255, 0, 7)}},
		{"other CSI ignored", "\x1b[31m\x1b[2K\x1b[?25lx", Style{FG: idx(1)}},
		{"OSC hyperlink ignored", "\x1b]8;;https://example.com\x07x\x1b]8;;\x1b\\", Style{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Parse(tt.in, 4, 1)
			c := g.Rows[0][0]
			if c.Text != "x" {
				t.Fatalf("cell 0 is %q, want x (row %q)", c.Text, g.Plain())
			}
			if c.Style != tt.want {
				t.Errorf("style = %+v, want %+v", c.Style, tt.want)
			}
			if next := g.Rows[0][1]; next.Text != "" {
				t.Errorf("cell 1 = %q, want blank: an escape leaked into the text", next.Text)
			}
		})
	}
}

func TestParse_Layout(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		w, h      int
		want      string // Plain()
		overCols  int
		overLines int
	}{
		{"lines", "ab\ncd", 4, 2, "ab\ncd", 0, 0},
		{"wide runes take two cells", "钥x\n密", 4, 2, "钥x\n密", 0, 0},
		{"carriage return", "abc\rX", 4, 1, "Xbc", 0, 0},
		{"tab to the next stop", "a\tb", 10, 1, "a       b", 0, 0},
		{"too wide", "abcdef", 4, 1, "abcd", 2, 0},
		{"wide rune cut by the edge", "abc钥", 4, 1, "abc", 1, 0},
		{"too tall", "a\nb\nc", 2, 2, "a\nb", 0, 1},
		{"combining mark stays in its cell", "e\u0301x", 4, 1, "e\u0301x", 0, 0},
		{"control bytes dropped", "a\x07b", 4, 1, "ab", 0, 0},
		{"escape at the end", "a\x1b", 4, 1, "a", 0, 0},
		{"unterminated CSI", "a\x1b[31", 4, 1, "a", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Parse(tt.in, tt.w, tt.h)
			if got := g.Plain(); got != tt.want {
				t.Errorf("Plain() = %q, want %q", got, tt.want)
			}
			if g.Overflow.Cols != tt.overCols || g.Overflow.Lines != tt.overLines {
				t.Errorf("overflow = %+v, want %d cols, %d lines", g.Overflow, tt.overCols, tt.overLines)
			}
		})
	}
}

func TestParse_WideCellStyle(t *testing.T) {
	g := Parse("\x1b[48;5;22m钥\x1b[0mx", 4, 1)
	row := g.Rows[0]
	if row[0].Width != 2 || row[1].Width != 0 || row[2].Text != "x" {
		t.Fatalf("cells = %+v", row[:3])
	}
	if row[1].Style.BG != row[0].Style.BG {
		t.Errorf("the continuation cell lost the background: %+v", row[1].Style)
	}
}

func TestPainter_Paint(t *testing.T) {
	p, err := NewPainter(1)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	g := Parse("\x1b[38;2;255;0;0;48;2;0;0;255m█\x1b[0m钥 ╭─╮ ✓", 10, 2)
	img := p.Paint(g)
	if b := img.Bounds(); b.Dx() != 10*p.CellW+2*p.Margin || b.Dy() != 2*p.CellH+2*p.Margin {
		t.Fatalf("image is %v", b)
	}
	// The full block is drawn in its foreground over the whole cell.
	if c := img.RGBAAt(p.Margin+p.CellW/2, p.Margin+1); c != rgb(255, 0, 0) {
		t.Errorf("full block pixel = %v, want red", c)
	}
	if got := string(p.Missing(g)); got != "钥" {
		t.Errorf("Missing() = %q, want only the CJK rune", got)
	}
	// A blank cell stays the theme background.
	if c := img.RGBAAt(p.Margin+9*p.CellW+1, p.Margin+p.CellH+1); c != p.Theme.BG {
		t.Errorf("blank pixel = %v, want the background %v", c, p.Theme.BG)
	}
}

func TestTheme_Colors(t *testing.T) {
	th := darkTheme
	tests := []struct {
		name   string
		st     Style
		fg, bg [3]uint8
	}{
		{"defaults", Style{}, [3]uint8{th.FG.R, th.FG.G, th.FG.B}, [3]uint8{th.BG.R, th.BG.G, th.BG.B}},
		{"cube", Style{FG: Color{Kind: colorIndexed, Index: 196}}, [3]uint8{255, 0, 0}, [3]uint8{th.BG.R, th.BG.G, th.BG.B}},
		{"grey ramp", Style{BG: Color{Kind: colorIndexed, Index: 232}}, [3]uint8{th.FG.R, th.FG.G, th.FG.B}, [3]uint8{8, 8, 8}},
		{"reverse swaps", Style{FG: Color{Kind: colorRGB, R: 1}, BG: Color{Kind: colorRGB, B: 2}, Attr: AttrReverse}, [3]uint8{0, 0, 2}, [3]uint8{1, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fg, bg := th.colors(tt.st)
			if [3]uint8{fg.R, fg.G, fg.B} != tt.fg || [3]uint8{bg.R, bg.G, bg.B} != tt.bg {
				t.Errorf("colors = %v, %v; want %v, %v", fg, bg, tt.fg, tt.bg)
			}
		})
	}
	// Faint lies between the foreground and the background.
	fg, _ := th.colors(Style{Attr: AttrFaint})
	if !(fg.R < th.FG.R && fg.R > th.BG.R) {
		t.Errorf("faint fg %v is not dimmed", fg)
	}
}

func TestBusy_Spinner(t *testing.T) {
	if !busy("x ⠋ searching") || busy(strings.Repeat("idle ", 3)) {
		t.Error("busy() does not tell a spinner from idle text")
	}
}
