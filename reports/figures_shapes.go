package reports

import (
	"errors"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/capplan/capplan/plan"
)

// Request markers: a radius between these bounds, growing with the square
// root of the request count (so a marker's area is proportional to it).
const (
	requestMinRadius = vg.Length(2)
	requestMaxRadius = vg.Length(12)
)

// ShapesFigures draws the shape catalogue over the request cloud, one
// figure per 2-D projection: the first resource (cpu) against each other
// resource some request or shape uses (memory, gpu, ...). Each request
// class is a translucent disc coloured by application, its area
// proportional to its count; each shape is a black square with its name.
// Memory is in GiB. The application colours follow fs (may be nil).
func ShapesFigures(cat *plan.ShapeCatalog, fs *plan.FairShare) ([]Figure, error) {
	if cat == nil || len(cat.Shapes) == 0 {
		return nil, errors.New("reports: shapes figure: no shapes")
	}
	if len(cat.Resources) < 2 {
		return nil, nil // a 1-D catalogue has no 2-D projection
	}
	owners := newOwnerOrder(fs)
	x := cat.Resources[0]
	var figs []Figure
	for _, y := range cat.Resources[1:] {
		if !resourceUsed(cat, y) {
			continue
		}
		fig, err := shapesProjection(cat, owners, x, y)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig)
	}
	return figs, nil
}

// resourceUsed reports whether some request or shape has some of res.
func resourceUsed(cat *plan.ShapeCatalog, res string) bool {
	for _, a := range cat.Assignments {
		if a.Request[res] > 0 {
			return true
		}
	}
	for _, s := range cat.Shapes {
		if s.Size[res] > 0 {
			return true
		}
	}
	return false
}

func shapesProjection(cat *plan.ShapeCatalog, owners *ownerOrder, x, y string) (Figure, error) {
	sx, ux := unitScale(x)
	sy, uy := unitScale(y)
	p := newPlot("Shapes over the requests: "+x+" vs "+y, x+" ("+ux+")", y+" ("+uy+")")
	leg := newSideLegend()
	var maxCount int64 = 1
	for _, a := range cat.Assignments {
		maxCount = max(maxCount, a.Count)
	}
	// One scatter per application, in colour order, for the legend.
	byApp := map[int][]plan.Assignment{}
	var order []int
	for _, a := range cat.Assignments {
		k := owners.of(a.Application)
		if _, ok := byApp[k]; !ok {
			order = append(order, k)
		}
		byApp[k] = append(byApp[k], a)
	}
	slices.Sort(order)
	for _, k := range order {
		as := byApp[k]
		pts := make(plotter.XYs, len(as))
		for i, a := range as {
			pts[i] = plotter.XY{X: a.Request[x] * sx, Y: a.Request[y] * sy}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return Figure{}, err
		}
		c := seriesColor(k)
		fill := color.NRGBA{c.R, c.G, c.B, 0x99}
		sc.GlyphStyle = draw.GlyphStyle{Color: fill, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			r := requestMinRadius + (requestMaxRadius-requestMinRadius)*vg.Length(math.Sqrt(float64(as[i].Count)/float64(maxCount)))
			return draw.GlyphStyle{Color: fill, Radius: r, Shape: draw.CircleGlyph{}}
		}
		p.Add(sc)
		leg.add(owners.names[k], sc)
	}
	pts := make(plotter.XYs, len(cat.Shapes))
	names := make([]string, len(cat.Shapes))
	for i, s := range cat.Shapes {
		pts[i] = plotter.XY{X: s.Size[x] * sx, Y: s.Size[y] * sy}
		names[i] = s.Name
	}
	shapes, err := plotter.NewScatter(pts)
	if err != nil {
		return Figure{}, err
	}
	shapes.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.BoxGlyph{}}
	p.Add(shapes)
	leg.add("shape", shapes)
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: names})
	if err != nil {
		return Figure{}, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font = font.From(figureFont, 8)
	}
	labels.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(3)}
	p.Add(labels)
	p.X.Min, p.Y.Min = 0, 0
	svg, err := renderSVG(p, leg, figureWidth, figureHeight+vg.Inch)
	if err != nil {
		return Figure{}, err
	}
	return Figure{
		Name:    "shapes-" + x + "-" + y,
		Title:   "Shape catalogue: " + x + " vs " + y,
		Caption: "Each disc is a request class (area ∝ count, colour = application); each black square is a container shape of the catalogue, which every request it serves fits into.",
		SVG:     svg,
	}, nil
}
