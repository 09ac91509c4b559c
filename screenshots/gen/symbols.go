package main

import (
	"image"
	"image/color"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// A few symbols the TUI prints are not in Go Mono (the check and cross of
// trust badges, the drill-down arrow, the warning sign, the control
// pictures that make raw control bytes visible); they are drawn here so a
// screenshot does not show boxes where the terminal shows a symbol.

// pt is a point in cell units: x and y from 0 to 1 across the cell.
type pt struct{ x, y float64 }

// symbol draws r if it is one of the drawn symbols and reports whether.
func (p *Painter) symbol(img *image.RGBA, c image.Rectangle, r rune, fg, bg color.RGBA) bool {
	t := 1.3 * float64(max(p.CellW/8, 1)) // stroke width in pixels
	switch r {
	case '✓', '✔':
		p.strokes(img, c, fg, t, []pt{{0.12, 0.52}, {0.4, 0.72}, {0.9, 0.28}})
	case '✗', '✘':
		p.strokes(img, c, fg, t, []pt{{0.18, 0.3}, {0.82, 0.74}})
		p.strokes(img, c, fg, t, []pt{{0.82, 0.3}, {0.18, 0.74}})
	case '◀', '◂':
		p.polygon(img, c, fg, []pt{{0.92, 0.22}, {0.92, 0.78}, {0.04, 0.5}})
	case '▶', '▸':
		p.polygon(img, c, fg, []pt{{0.08, 0.22}, {0.08, 0.78}, {0.96, 0.5}})
	case '▾', '▼':
		p.polygon(img, c, fg, []pt{{0.1, 0.36}, {0.9, 0.36}, {0.5, 0.68}})
	case '◆':
		p.polygon(img, c, fg, []pt{{0.5, 0.28}, {0.92, 0.5}, {0.5, 0.72}, {0.08, 0.5}})
	case '⚠':
		p.polygon(img, c, fg, []pt{{0.5, 0.16}, {1, 0.82}, {0, 0.82}})
		p.strokes(img, c, bg, t, []pt{{0.5, 0.4}, {0.5, 0.62}})
		p.strokes(img, c, bg, t, []pt{{0.5, 0.7}, {0.5, 0.74}})
	default:
		return p.controlPicture(img, c, r, fg)
	}
	return true
}

// toPx maps a cell-unit point into pixels.
func toPx(c image.Rectangle, q pt) pt {
	return pt{float64(c.Min.X) + q.x*float64(c.Dx()), float64(c.Min.Y) + q.y*float64(c.Dy())}
}

// strokes draws a polyline t pixels wide.
func (p *Painter) strokes(img *image.RGBA, c image.Rectangle, col color.RGBA, t float64, line []pt) {
	px := make([]pt, len(line))
	for i, q := range line {
		px[i] = toPx(c, q)
	}
	coverage(img, c, col, func(x, y float64) bool {
		for i := 1; i < len(px); i++ {
			if segDist(pt{x, y}, px[i-1], px[i]) <= t/2 {
				return true
			}
		}
		return false
	})
}

// segDist is the distance from q to the segment a–b.
func segDist(q, a, b pt) float64 {
	dx, dy := b.x-a.x, b.y-a.y
	l2 := dx*dx + dy*dy
	u := 0.0
	if l2 > 0 {
		u = math.Max(0, math.Min(1, ((q.x-a.x)*dx+(q.y-a.y)*dy)/l2))
	}
	return math.Hypot(q.x-(a.x+u*dx), q.y-(a.y+u*dy))
}

// polygon fills a convex polygon.
func (p *Painter) polygon(img *image.RGBA, c image.Rectangle, col color.RGBA, poly []pt) {
	px := make([]pt, len(poly))
	for i, q := range poly {
		px[i] = toPx(c, q)
	}
	coverage(img, c, col, func(x, y float64) bool {
		sign := 0.0
		for i := range px {
			a, b := px[i], px[(i+1)%len(px)]
			cross := (b.x-a.x)*(y-a.y) - (b.y-a.y)*(x-a.x)
			if cross == 0 {
				continue
			}
			if sign == 0 {
				sign = cross
			} else if (cross > 0) != (sign > 0) {
				return false
			}
		}
		return true
	})
}

// controlNames are the abbreviations of U+2400–U+2421 (the C0 controls,
// space and delete) as their control pictures show them.
var controlNames = [...]string{
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
	"SP", "DEL",
}

// controlPicture draws ␛, ␍, … as their abbreviation in small letters,
// stacked in the cell as fonts draw them.
func (p *Painter) controlPicture(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) bool {
	var name string
	switch {
	case r >= 0x2400 && r < 0x2400+rune(len(controlNames)):
		name = controlNames[r-0x2400]
	case r == 0x2424:
		name = "NL"
	default:
		return false
	}
	top, bottom := name[:(len(name)+1)/2], name[(len(name)+1)/2:]
	if len(name) == 2 {
		top, bottom = name[:1], name[1:]
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: p.small}
	line := func(s string, baseline int) {
		w := d.MeasureString(s)
		d.Dot = fixed.Point26_6{X: fixed.I(c.Min.X) + (fixed.I(c.Dx())-w)/2, Y: fixed.I(baseline)}
		d.DrawString(s)
	}
	line(top, c.Min.Y+c.Dy()/2)
	line(bottom, c.Min.Y+c.Dy()*7/8)
	return true
}
