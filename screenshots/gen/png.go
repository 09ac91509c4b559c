package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
)

// Theme is the terminal the screenshot pretends to be: its default
// colours and its 16-colour palette (the other 240 are the xterm cube and
// grey ramp).
type Theme struct {
	FG, BG color.RGBA
	ANSI   [16]color.RGBA
}

// darkTheme is a dark terminal; the TUI's own colours are true colours
// and do not depend on it, only its default text and background do.
var darkTheme = Theme{
	FG: rgb(0xd4, 0xd4, 0xd9),
	BG: rgb(0x16, 0x16, 0x1c),
	ANSI: [16]color.RGBA{
		rgb(0x1e, 0x1e, 0x24), rgb(0xe0, 0x6c, 0x75), rgb(0x98, 0xc3, 0x79), rgb(0xe5, 0xc0, 0x7b),
		rgb(0x61, 0xaf, 0xef), rgb(0xc6, 0x78, 0xdd), rgb(0x56, 0xb6, 0xc2), rgb(0xab, 0xb2, 0xbf),
		rgb(0x5c, 0x63, 0x70), rgb(0xff, 0x7b, 0x86), rgb(0xb5, 0xe8, 0x90), rgb(0xff, 0xd6, 0x8a),
		rgb(0x7c, 0xc4, 0xff), rgb(0xdc, 0x8c, 0xf5), rgb(0x6e, 0xd3, 0xe0), rgb(0xf0, 0xf0, 0xf4),
	},
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 0xff} }

// resolve turns a parsed colour into RGB; def is the default it stands for.
func (t *Theme) resolve(c Color, def color.RGBA) color.RGBA {
	switch c.Kind {
	case colorRGB:
		return rgb(c.R, c.G, c.B)
	case colorIndexed:
		return t.indexed(c.Index)
	}
	return def
}

// indexed is the xterm 256-colour palette over the theme's first 16.
func (t *Theme) indexed(n uint8) color.RGBA {
	switch {
	case n < 16:
		return t.ANSI[n]
	case n < 232:
		n -= 16
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return rgb(level(n/36), level(n/6%6), level(n%6))
	}
	v := 8 + 10*(n-232)
	return rgb(v, v, v)
}

// mix blends a toward b by f (0 = a, 1 = b).
func mix(a, b color.RGBA, f float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*f + 0.5) }
	return rgb(m(a.R, b.R), m(a.G, b.G), m(a.B, b.B))
}

// colors returns the final foreground and background of a style:
// reverse swaps them, faint dims the foreground toward the background.
func (t *Theme) colors(s Style) (fg, bg color.RGBA) {
	fg, bg = t.resolve(s.FG, t.FG), t.resolve(s.BG, t.BG)
	if s.Attr&AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if s.Attr&AttrFaint != 0 {
		fg = mix(fg, bg, 0.45)
	}
	return fg, bg
}

// Painter draws grids with Go Mono on a fixed cell size.
type Painter struct {
	Theme  Theme
	CellW  int
	CellH  int
	Margin int
	faces  [4]font.Face // regular, bold, italic, bold italic
	small  font.Face    // half-size regular, for control pictures
	ascent int
}

// NewPainter loads the four Go Mono faces at a size whose advance is the
// cell width: scale 1 gives 8×16 px cells.
func NewPainter(scale int) (*Painter, error) {
	if scale < 1 {
		scale = 1
	}
	p := &Painter{Theme: darkTheme, CellW: 8 * scale, CellH: 16 * scale, Margin: 8 * scale}
	// Go Mono's advance is 1229/2048 em, so this size advances exactly CellW.
	size := float64(p.CellW) * 2048 / 1229
	for i, ttf := range [][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, fmt.Errorf("parse Go Mono: %w", err)
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("load the Go Mono face: %w", err)
		}
		p.faces[i] = face
	}
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse Go Mono: %w", err)
	}
	if p.small, err = opentype.NewFace(f, &opentype.FaceOptions{Size: size / 2, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, fmt.Errorf("load the Go Mono face: %w", err)
	}
	m := p.faces[0].Metrics()
	asc, desc := m.Ascent.Ceil(), m.Descent.Ceil()
	// Centre the line box in the cell.
	p.ascent = asc + (p.CellH-asc-desc)/2
	return p, nil
}

// Close releases the faces.
func (p *Painter) Close() error {
	for _, f := range append(p.faces[:], p.small) {
		if f != nil {
			_ = f.Close()
		}
	}
	return nil
}

// Paint draws a grid: backgrounds first, then glyphs, then lines.
func (p *Painter) Paint(g *Grid) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.W*p.CellW+2*p.Margin, g.H*p.CellH+2*p.Margin))
	draw.Draw(img, img.Bounds(), image.NewUniform(p.Theme.BG), image.Point{}, draw.Src)
	for y, row := range g.Rows {
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			_, bg := p.Theme.colors(c.Style)
			draw.Draw(img, p.cellRect(x, y, c.Width), image.NewUniform(bg), image.Point{}, draw.Src)
		}
	}
	for y, row := range g.Rows {
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			fg, bg := p.Theme.colors(c.Style)
			r := p.cellRect(x, y, c.Width)
			if c.Text != "" && c.Text != " " {
				p.glyph(img, r, c, fg, bg)
			}
			if c.Style.Attr&AttrUnderline != 0 {
				fillRect(img, image.Rect(r.Min.X, r.Min.Y+p.ascent+max(p.CellH/16, 1), r.Max.X, r.Min.Y+p.ascent+2*max(p.CellH/16, 1)), fg)
			}
			if c.Style.Attr&AttrStrike != 0 {
				mid := r.Min.Y + p.CellH/2
				fillRect(img, image.Rect(r.Min.X, mid, r.Max.X, mid+max(p.CellH/16, 1)), fg)
			}
		}
	}
	return img
}

func (p *Painter) cellRect(x, y, w int) image.Rectangle {
	x0, y0 := p.Margin+x*p.CellW, p.Margin+y*p.CellH
	return image.Rect(x0, y0, x0+w*p.CellW, y0+p.CellH)
}

// glyph draws one grapheme cluster: box drawing, blocks and braille by
// geometry (so lines join across cells), the rest with Go Mono, then the
// drawn symbols; any other rune the font lacks is drawn as an empty box
// the width of its cells.
func (p *Painter) glyph(img *image.RGBA, r image.Rectangle, c Cell, fg, bg color.RGBA) {
	// Composed form first: "e" + U+0301 becomes "é", which Go Mono has.
	text := norm.NFC.String(c.Text)
	first, _ := utf8.DecodeRuneInString(text)
	if p.geometric(img, r, first, fg, bg) {
		return
	}
	face := p.faces[p.faceIndex(c.Style.Attr)]
	adv, ok := face.GlyphAdvance(first)
	if !ok {
		if !p.symbol(img, r, first, fg, bg) {
			p.missing(img, r, fg)
		}
		return
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: face}
	// Centre the glyph in its cells: a narrow font glyph in a wide cell
	// (e.g. a symbol the TUI measures as two cells) stays in the middle.
	x := fixed.I(r.Min.X) + (fixed.I(r.Dx())-adv)/2
	d.Dot = fixed.Point26_6{X: x, Y: fixed.I(r.Min.Y + p.ascent)}
	d.DrawString(string(first))
	// Combining marks are drawn over the base; anything else in the
	// cluster (a ZWJ sequence, a variation selector) is not drawable here.
	for _, m := range text[utf8.RuneLen(first):] {
		if unicode.Is(unicode.Mn, m) {
			if _, ok := face.GlyphAdvance(m); ok {
				d.Dot.X = x
				d.DrawString(string(m))
			}
		}
	}
}

func (p *Painter) faceIndex(a Attr) int {
	i := 0
	if a&AttrBold != 0 {
		i |= 1
	}
	if a&AttrItalic != 0 {
		i |= 2
	}
	return i
}

// missing draws the placeholder for a glyph Go Mono does not have.
func (p *Painter) missing(img *image.RGBA, r image.Rectangle, fg color.RGBA) {
	in := max(p.CellW/8, 1)
	b := image.Rect(r.Min.X+in, r.Min.Y+p.CellH/8, r.Max.X-in, r.Max.Y-p.CellH/8)
	t := max(p.CellW/8, 1)
	fillRect(img, image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+t), fg)
	fillRect(img, image.Rect(b.Min.X, b.Max.Y-t, b.Max.X, b.Max.Y), fg)
	fillRect(img, image.Rect(b.Min.X, b.Min.Y, b.Min.X+t, b.Max.Y), fg)
	fillRect(img, image.Rect(b.Max.X-t, b.Min.Y, b.Max.X, b.Max.Y), fg)
}

func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r.Intersect(img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
}

// Missing lists, once each, the runes of g that neither geometry nor Go
// Mono draws, so the generator can say which cells became boxes.
func (p *Painter) Missing(g *Grid) []rune {
	seen := map[rune]bool{}
	var out []rune
	for _, row := range g.Rows {
		for _, c := range row {
			if c.Text == "" || c.Width == 0 {
				continue
			}
			r, _ := utf8.DecodeRuneInString(c.Text)
			if seen[r] || p.drawable(r) {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

func (p *Painter) drawable(r rune) bool {
	if (r >= 0x2500 && r <= 0x259f) || (r >= 0x2800 && r <= 0x28ff) {
		return true
	}
	if _, ok := p.faces[0].GlyphAdvance(r); ok {
		return true
	}
	// Probe the drawn symbols on a scratch cell.
	scratch := image.NewRGBA(image.Rect(0, 0, 2*p.CellW, p.CellH))
	return p.symbol(scratch, scratch.Bounds(), r, p.Theme.FG, p.Theme.BG)
}
