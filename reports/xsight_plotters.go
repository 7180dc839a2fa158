package reports

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// hatchedRect is a filled rectangle, optionally hatched with diagonal
// lines of another colour.
type hatchedRect struct {
	rect
	hatch color.Color // nil: no hatching
	am    bool        // labelled "AM"
}

// hatchedRects is a plotter of hatched rectangles (X-Sight's containers).
type hatchedRects []hatchedRect

// hatchGap is the distance between hatch lines.
const hatchGap = vg.Length(5)

// Plot implements plot.Plotter.
func (rs hatchedRects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range rs {
		x0, x1, y0, y1 := trX(r.x0), trX(r.x1), trY(r.y0), trY(r.y1)
		if x1 <= x0 || y1 <= y0 {
			continue
		}
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(r.color, c.ClipPolygonXY(pts))
		if r.am {
			sty := draw.TextStyle{Color: color.Black, Font: font.From(figureFont, 7), XAlign: draw.XCenter, YAlign: draw.YCenter,
				Handler: plot.DefaultTextHandler}
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, "AM")
		}
		if r.hatch == nil {
			continue
		}
		sty := draw.LineStyle{Color: r.hatch, Width: vg.Points(1.2)}
		// Lines of slope 1 through (x0 + k·gap, y0), clipped to the box.
		for off := -(y1 - y0); off < x1-x0; off += hatchGap {
			a := vg.Point{X: x0 + off, Y: y0}
			b := vg.Point{X: x0 + off + (y1 - y0), Y: y1}
			if a.X < x0 { // enter through the left side
				a = vg.Point{X: x0, Y: y0 + (x0 - a.X)}
			}
			if b.X > x1 { // leave through the right side
				b = vg.Point{X: x1, Y: y1 - (b.X - x1)}
			}
			if b.X > a.X {
				c.StrokeLine2(sty, a.X, a.Y, b.X, b.Y)
			}
		}
	}
}

// DataRange implements plot.DataRanger.
func (rs hatchedRects) DataRange() (xmin, xmax, ymin, ymax float64) {
	plain := make(rects, len(rs))
	for i, r := range rs {
		plain[i] = r.rect
	}
	return plain.DataRange()
}
