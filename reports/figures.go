package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/capplan/capplan/plan"
)

// Figure is one SVG figure of a report.
type Figure struct {
	// Name is the file name without extension ("shares",
	// "shapes-cpu-memory", "gantt-q17"), unique within a report.
	Name string
	// Title heads the figure; Caption says how to read it.
	Title   string
	Caption string
	// SVG is the figure, a standalone SVG document.
	SVG []byte
}

// Figure size: a fixed width; heights grow with the rows some figures
// draw (bars, lanes), between the bounds.
const (
	figureWidth     = 7 * vg.Inch
	figureHeight    = 4 * vg.Inch
	figureMaxHeight = 14 * vg.Inch
)

// figureFont is the typeface of every figure: sans-serif reads better at
// small sizes than gonum/plot's default serif.
var figureFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot starts a plot with a title, axis labels and the figure font.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Title.TextStyle.Font = font.From(figureFont, 12)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(figureFont, 10)
		a.Tick.Label.Font = font.From(figureFont, 9)
		a.Tick.Marker = plainTicks{}
	}
	return p
}

// plainTicks are gonum/plot's default ticks labelled without trailing
// zeros ("250", not "250.00").
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
		}
	}
	return ticks
}

// Legend layout: legends sit in a column right of the plot, listing at
// most maxLegendEntries entries (then a count of the rest).
const (
	legendWidth      = vg.Length(1.8) * vg.Inch
	legendTopMargin  = vg.Length(30)
	maxLegendEntries = 24
)

// sideLegend collects the entries of a legend drawn beside the plot.
type sideLegend struct {
	plot.Legend
	n, hidden int
}

func newSideLegend() *sideLegend {
	l := &sideLegend{Legend: plot.NewLegend()}
	l.TextStyle.Font = font.From(figureFont, 9)
	l.Left, l.Top = true, true
	l.Padding = vg.Points(3)
	return l
}

// add adds an entry, or counts it once the legend is full.
func (l *sideLegend) add(name string, thumbs ...plot.Thumbnailer) {
	if l.n >= maxLegendEntries {
		l.hidden++
		return
	}
	l.n++
	l.Add(name, thumbs...)
}

// renderSVG draws p on a width × height SVG canvas, with the legend in a
// column on the right. gonum/plot writes numbers with fixed precision and
// no timestamps, so equal plots give equal bytes.
func renderSVG(p *plot.Plot, leg *sideLegend, width, height vg.Length) ([]byte, error) {
	c := vgsvg.New(width, height)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	if leg.hidden > 0 {
		leg.Add(fmt.Sprintf("… and %d more", leg.hidden))
	}
	leg.Draw(draw.Crop(dc, width-legendWidth+vg.Points(8), 0, 0, -legendTopMargin))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("reports: render SVG: %w", err)
	}
	return b.Bytes(), nil
}

// palette colours series by index: the Okabe–Ito colours, distinguishable
// with every common colour-vision deficiency, then darker variants.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x59, 0x59, 0x59, 0xFF}, // grey
}

// seriesColor is the colour of series i (cycling through the palette, a
// shade darker on each pass).
func seriesColor(i int) color.RGBA {
	c := palette[i%len(palette)]
	shade := 1 / (1 + 0.35*float64(i/len(palette)))
	return color.RGBA{uint8(float64(c.R) * shade), uint8(float64(c.G) * shade), uint8(float64(c.B) * shade), 0xFF}
}

// boundColor marks lower bounds in every figure.
var boundColor = color.RGBA{0xC0, 0x00, 0x00, 0xFF}

// ownerOrder assigns each owner a stable colour index: the applications of
// the FairShare in document order when there is one, then any others in
// order of appearance.
type ownerOrder struct {
	index map[string]int
	names []string
}

func newOwnerOrder(fs *plan.FairShare) *ownerOrder {
	o := &ownerOrder{index: map[string]int{}}
	if fs != nil {
		for _, s := range fs.Shares {
			o.of(s.Application)
		}
	}
	return o
}

// of returns the colour index of owner, assigning the next one if new.
func (o *ownerOrder) of(owner string) int {
	if i, ok := o.index[owner]; ok {
		return i
	}
	o.index[owner] = len(o.names)
	o.names = append(o.names, owner)
	return o.index[owner]
}

// rect is an axis-aligned filled rectangle in data coordinates.
type rect struct {
	x0, x1, y0, y1 float64
	color          color.Color
}

// rects is a plotter of filled rectangles (Gantt bars, stacked node
// bars): cheaper than one plotter per bar when there are thousands.
type rects []rect

// Plot implements plot.Plotter.
func (rs rects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range rs {
		x0, x1, y0, y1 := trX(r.x0), trX(r.x1), trY(r.y0), trY(r.y1)
		if x1 <= x0 || y1 <= y0 {
			continue
		}
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(r.color, c.ClipPolygonXY(pts))
	}
}

// DataRange implements plot.DataRanger.
func (rs rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, r := range rs {
		xmin, xmax = math.Min(xmin, r.x0), math.Max(xmax, r.x1)
		ymin, ymax = math.Min(ymin, r.y0), math.Max(ymax, r.y1)
	}
	return xmin, xmax, ymin, ymax
}

// legendBox is a legend entry drawn as a filled box of a colour.
type legendBox color.RGBA

// Thumbnail implements plot.Thumbnailer.
func (b legendBox) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(color.RGBA(b), c.ClipPolygonY(pts))
}

// verticalLine is a dashed line at x over the y range [y0, y1].
func verticalLine(x, y0, y1 float64, clr color.Color) (*plotter.Line, error) {
	return dashedLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}}, clr)
}

// horizontalLine is a dashed line at y over the x range [x0, x1].
func horizontalLine(y, x0, x1 float64, clr color.Color) (*plotter.Line, error) {
	return dashedLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}}, clr)
}

// dashedLine is the style of every bound and marker line.
func dashedLine(pts plotter.XYs, clr color.Color) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = clr
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	return l, nil
}

// unitScale converts a base-unit amount of resource res for display:
// bytes to GiB, everything else unchanged. unitName names the unit.
func unitScale(res string) (scale float64, unitName string) {
	if isByteResource(res) {
		return 1.0 / (1 << 30), "GiB"
	}
	switch res {
	case "cpu":
		return 1, "cores"
	case "gpu", "nvidia.com/gpu":
		return 1, "GPUs"
	}
	return 1, "units"
}
