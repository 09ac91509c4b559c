package main

import (
	"image"
	"image/color"
	"math"
)

// Box drawing, block elements and braille are drawn as geometry, not from
// the font: a font's glyphs do not fill a 16 px cell, so borders would show
// gaps between rows, and Go Mono lacks the rounded corners and braille.

// boxArms gives, for U+2500–U+257F, the weight of the arm toward up,
// right, down and left ('0' none, '1' light, '2' heavy, '3' double);
// '-' marks the dashed lines, '/' the diagonals, handled separately.
var boxArms = [128]string{
	"0101", "0202", "1010", "2020", "-", "-", "-", "-", "-", "-", "-", "-", "0110", "0210", "0120", "0220",
	"0011", "0012", "0021", "0022", "1100", "1200", "2100", "2200", "1001", "1002", "2001", "2002", "1110", "1210", "2110", "1120",
	"2120", "2210", "1220", "2220", "1011", "1012", "2011", "1021", "2021", "2012", "1022", "2022", "0111", "0112", "0211", "0212",
	"0121", "0122", "0221", "0222", "1101", "1102", "1201", "1202", "2101", "2102", "2201", "2202", "1111", "1112", "1211", "1212",
	"2111", "1121", "2121", "2112", "2211", "1122", "1221", "2212", "1222", "2122", "2221", "2222", "-", "-", "-", "-",
	"0303", "3030", "0310", "0130", "0330", "0013", "0031", "0033", "1300", "3100", "3300", "1003", "3001", "3003", "1310", "3130",
	"3330", "1013", "3031", "3033", "0313", "0131", "0333", "1303", "3101", "3303", "1313", "3131", "3333", "0110", "0011", "1001",
	"1100", "/", "/", "/", "0001", "1000", "0100", "0010", "0002", "2000", "0200", "0020", "0201", "1020", "0102", "2010",
}

// geometric draws r if it is drawn by geometry and reports whether it was.
func (p *Painter) geometric(img *image.RGBA, cell image.Rectangle, r rune, fg, bg color.RGBA) bool {
	switch {
	case r >= 0x2500 && r <= 0x257f:
		p.box(img, cell, r, fg)
	case r >= 0x2580 && r <= 0x259f:
		p.block(img, cell, r, fg, bg)
	case r >= 0x2800 && r <= 0x28ff:
		p.braille(img, cell, r, fg)
	default:
		return false
	}
	return true
}

func (p *Painter) thickness(weight byte) int {
	t := max(p.CellW/8, 1)
	if weight == '2' {
		return 2 * t
	}
	return t
}

func (p *Painter) box(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) {
	arms := boxArms[r-0x2500]
	switch {
	case arms == "-":
		p.dashed(img, c, r, fg)
		return
	case arms == "/":
		p.diagonal(img, c, r, fg)
		return
	case r >= 0x256d && r <= 0x2570:
		p.arc(img, c, r, fg)
		return
	}
	up, right, down, left := arms[0], arms[1], arms[2], arms[3]
	// Arms reach past the centre by half the thickest crossing arm, so
	// corners and tees join squarely.
	tv := max(p.armT(up), p.armT(down))
	th := max(p.armT(left), p.armT(right))
	w, h := c.Dx(), c.Dy()
	if left != '0' {
		p.hArm(img, c, left, c.Min.X, c.Min.X+(w+tv)/2, fg)
	}
	if right != '0' {
		p.hArm(img, c, right, c.Min.X+(w-tv)/2, c.Max.X, fg)
	}
	if up != '0' {
		p.vArm(img, c, up, c.Min.Y, c.Min.Y+(h+th)/2, fg)
	}
	if down != '0' {
		p.vArm(img, c, down, c.Min.Y+(h-th)/2, c.Max.Y, fg)
	}
}

// armT is the width an arm of this weight takes across the line.
func (p *Painter) armT(weight byte) int {
	switch weight {
	case '0':
		return 0
	case '3':
		return 2*p.doubleGap() + p.thickness('1')
	}
	return p.thickness(weight)
}

func (p *Painter) doubleGap() int { return max(p.CellW/8, 1) }

// hArm draws a horizontal arm from x0 to x1.
func (p *Painter) hArm(img *image.RGBA, c image.Rectangle, weight byte, x0, x1 int, fg color.RGBA) {
	if weight == '3' {
		t, d, mid := p.thickness('1'), p.doubleGap(), c.Min.Y+c.Dy()/2
		fillRect(img, image.Rect(x0, mid-d-t, x1, mid-d), fg)
		fillRect(img, image.Rect(x0, mid+d, x1, mid+d+t), fg)
		return
	}
	t := p.thickness(weight)
	y := c.Min.Y + (c.Dy()-t)/2
	fillRect(img, image.Rect(x0, y, x1, y+t), fg)
}

// vArm draws a vertical arm from y0 to y1.
func (p *Painter) vArm(img *image.RGBA, c image.Rectangle, weight byte, y0, y1 int, fg color.RGBA) {
	if weight == '3' {
		t, d, mid := p.thickness('1'), p.doubleGap(), c.Min.X+c.Dx()/2
		fillRect(img, image.Rect(mid-d-t, y0, mid-d, y1), fg)
		fillRect(img, image.Rect(mid+d, y0, mid+d+t, y1), fg)
		return
	}
	t := p.thickness(weight)
	x := c.Min.X + (c.Dx()-t)/2
	fillRect(img, image.Rect(x, y0, x+t, y1), fg)
}

// dashed draws ┄┅┆┇┈┉┊┋╌╍╎╏.
func (p *Painter) dashed(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) {
	var n int
	var weight byte = '1'
	vertical := false
	switch r {
	case 0x2504, 0x2505, 0x2506, 0x2507:
		n = 3
		weight = "1212"[r-0x2504]
		vertical = r >= 0x2506
	case 0x2508, 0x2509, 0x250a, 0x250b:
		n = 4
		weight = "1212"[r-0x2508]
		vertical = r >= 0x250a
	default: // U+254C–U+254F
		n = 2
		weight = "1212"[r-0x254c]
		vertical = r >= 0x254e
	}
	length := c.Dx()
	if vertical {
		length = c.Dy()
	}
	for i := range n {
		a := i * length / n
		b := (i + 1) * length / n
		gap := max((b-a)/3, 1)
		a, b = a+gap/2, b-(gap-gap/2)
		if vertical {
			p.vArm(img, c, weight, c.Min.Y+a, c.Min.Y+b, fg)
		} else {
			p.hArm(img, c, weight, c.Min.X+a, c.Min.X+b, fg)
		}
	}
}

// coverage paints fg over the cell where inside says the shape is, with
// 4×4 supersampling for smooth curves and diagonals.
func coverage(img *image.RGBA, c image.Rectangle, fg color.RGBA, inside func(x, y float64) bool) {
	const ss = 4
	for py := c.Min.Y; py < c.Max.Y; py++ {
		for px := c.Min.X; px < c.Max.X; px++ {
			n := 0
			for sy := range ss {
				for sx := range ss {
					if inside(float64(px)+(float64(sx)+0.5)/ss, float64(py)+(float64(sy)+0.5)/ss) {
						n++
					}
				}
			}
			if n == 0 || !(image.Point{X: px, Y: py}.In(img.Bounds())) {
				continue
			}
			under := img.RGBAAt(px, py)
			img.SetRGBA(px, py, mix(under, fg, float64(n)/ss/ss))
		}
	}
}

// arc draws ╭╮╯╰: the two arms meet through a quarter circle.
func (p *Painter) arc(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) {
	t := float64(p.thickness('1'))
	// The centre lines of the light vertical and horizontal strokes.
	cx := float64(c.Min.X+(c.Dx()-int(t))/2) + t/2
	cy := float64(c.Min.Y+(c.Dy()-int(t))/2) + t/2
	rad := float64(c.Dx()) / 2
	var ox, oy float64 // circle centre
	var toRight, toDown bool
	switch r {
	case 0x256d: // ╭ right and down
		ox, oy, toRight, toDown = cx+rad, cy+rad, true, true
	case 0x256e: // ╮ left and down
		ox, oy, toRight, toDown = cx-rad, cy+rad, false, true
	case 0x256f: // ╯ left and up
		ox, oy, toRight, toDown = cx-rad, cy-rad, false, false
	default: // ╰ right and up
		ox, oy, toRight, toDown = cx+rad, cy-rad, true, false
	}
	fx, fy := float64(c.Min.X), float64(c.Min.Y)
	lx, ly := float64(c.Max.X), float64(c.Max.Y)
	coverage(img, c, fg, func(x, y float64) bool {
		// The straight parts: from the circle's tangent points to the edges.
		if toRight && x >= ox && x <= lx && math.Abs(y-cy) <= t/2 {
			return true
		}
		if !toRight && x <= ox && x >= fx && math.Abs(y-cy) <= t/2 {
			return true
		}
		if toDown && y >= oy && y <= ly && math.Abs(x-cx) <= t/2 {
			return true
		}
		if !toDown && y <= oy && y >= fy && math.Abs(x-cx) <= t/2 {
			return true
		}
		// The quarter circle, on the side facing the corner.
		inQuadrant := (x <= ox) == toRight && (y <= oy) == toDown
		return inQuadrant && math.Abs(math.Hypot(x-ox, y-oy)-rad) <= t/2
	})
}

// diagonal draws ╱╲╳.
func (p *Painter) diagonal(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) {
	t := float64(p.thickness('1'))
	w, h := float64(c.Dx()), float64(c.Dy())
	x0, y0 := float64(c.Min.X), float64(c.Min.Y)
	length := math.Hypot(w, h)
	dist := func(x, y float64, rising bool) float64 {
		u, v := (x-x0)/w, (y-y0)/h
		if rising {
			u = 1 - u
		}
		return math.Abs(u-v) * w * h / length
	}
	coverage(img, c, fg, func(x, y float64) bool {
		rising := (r == 0x2571 || r == 0x2573) && dist(x, y, true) <= t/2
		falling := (r == 0x2572 || r == 0x2573) && dist(x, y, false) <= t/2
		return rising || falling
	})
}

// block draws U+2580–U+259F: eighth blocks, halves, shades and quadrants.
func (p *Painter) block(img *image.RGBA, c image.Rectangle, r rune, fg, bg color.RGBA) {
	w, h := c.Dx(), c.Dy()
	x0, y0 := c.Min.X, c.Min.Y
	rect := func(fx0, fy0, fx1, fy1 int, of int) image.Rectangle { // in 1/of units of the cell
		return image.Rect(x0+w*fx0/of, y0+h*fy0/of, x0+w*fx1/of, y0+h*fy1/of)
	}
	switch {
	case r == 0x2580:
		fillRect(img, rect(0, 0, 2, 1, 2), fg)
	case r >= 0x2581 && r <= 0x2588: // lower n/8
		n := int(r-0x2581) + 1
		fillRect(img, rect(0, 8-n, 8, 8, 8), fg)
	case r >= 0x2589 && r <= 0x258f: // left 7/8 … 1/8
		n := 8 - int(r-0x2588)
		fillRect(img, rect(0, 0, n, 8, 8), fg)
	case r == 0x2590:
		fillRect(img, rect(1, 0, 2, 2, 2), fg)
	case r >= 0x2591 && r <= 0x2593:
		fillRect(img, c, mix(bg, fg, float64(r-0x2590)/4))
	case r == 0x2594:
		fillRect(img, rect(0, 0, 8, 1, 8), fg)
	case r == 0x2595:
		fillRect(img, rect(7, 0, 8, 8, 8), fg)
	default: // quadrants U+2596–U+259F: bits UL, UR, LL, LR
		quads := [...]uint8{0b0010, 0b0001, 0b1000, 0b1011, 0b1001, 0b1110, 0b1101, 0b0100, 0b0110, 0b0111}
		q := quads[r-0x2596]
		if q&0b1000 != 0 {
			fillRect(img, rect(0, 0, 1, 1, 2), fg)
		}
		if q&0b0100 != 0 {
			fillRect(img, rect(1, 0, 2, 1, 2), fg)
		}
		if q&0b0010 != 0 {
			fillRect(img, rect(0, 1, 1, 2, 2), fg)
		}
		if q&0b0001 != 0 {
			fillRect(img, rect(1, 1, 2, 2, 2), fg)
		}
	}
}

// braille draws the 2×4 dot patterns (the spinner uses them).
func (p *Painter) braille(img *image.RGBA, c image.Rectangle, r rune, fg color.RGBA) {
	bits := int(r - 0x2800)
	// Dot n (bit n-1) sits at column col[n-1], row row[n-1].
	col := [8]int{0, 0, 0, 1, 1, 1, 0, 1}
	row := [8]int{0, 1, 2, 0, 1, 2, 3, 3}
	d := max(c.Dx()/4, 1)
	for i := range 8 {
		if bits&(1<<i) == 0 {
			continue
		}
		cx := c.Min.X + c.Dx()*(2*col[i]+1)/4
		cy := c.Min.Y + c.Dy()*(2*row[i]+1)/8
		fillRect(img, image.Rect(cx-d/2, cy-d/2, cx-d/2+d, cy-d/2+d), fg)
	}
}
