package reports

import (
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// SizingFigure draws a sizing plan's cost against its node count, with
// the proved lower bound. The plan itself is one point: (nodes used, cost
// of the mix), or for a single unpriced node type (nodes, nodes). curve,
// when the bundle records one (plan.Plan.SizingCurve), adds the cost of
// every sizing solved as a line through its points and the lower bound of
// each as a dashed line; without it the figure shows the plan's point and
// its bound (the lower bound on the cost, and on the node count for a
// single type).
func SizingFigure(pp *plan.PackingPlan, curve []plan.SizingPoint) (Figure, error) {
	if pp == nil || pp.Mode != "sizing" {
		return Figure{}, errors.New("reports: sizing figure: no sizing plan")
	}
	mixed := len(pp.NodeTypes) > 0
	cost, bound := float64(pp.NodesUsed), float64(pp.LowerBound)
	yLabel := "nodes (one node type, cost = nodes)"
	if mixed {
		cost, bound = pp.Cost, pp.CostLowerBound
		yLabel = "cost (sum of node prices)"
	}
	title := fmt.Sprintf("Sizing: %s, cost %s (lower bound %s)", plural.Count(pp.NodesUsed, "node"), FormatNumber(cost), FormatNumber(bound))
	if !mixed {
		title = fmt.Sprintf("Sizing: %s (lower bound %d)", plural.Count(pp.NodesUsed, "node"), pp.LowerBound)
	}
	p := newPlot(title, "nodes", yLabel)
	leg := newSideLegend()
	if mixed {
		// The chosen mix, type by type: cumulative cost over cumulative
		// nodes, each segment's slope the type's price.
		mix := plotter.XYs{{X: 0, Y: 0}}
		var n, c float64
		for _, t := range pp.NodeTypes {
			if t.Nodes == 0 {
				continue
			}
			n += float64(t.Nodes)
			c += float64(t.Nodes) * t.Cost
			mix = append(mix, plotter.XY{X: n, Y: c})
		}
		l, err := plotter.NewLine(mix)
		if err != nil {
			return Figure{}, err
		}
		l.Color, l.Width = seriesColor(2), vg.Points(1.5)
		p.Add(l)
		leg.add("the mix, type by type", l)
		labels := make([]string, 0, len(mix))
		for _, t := range pp.NodeTypes {
			if t.Nodes > 0 {
				labels = append(labels, t.Name)
			}
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: mix[1:], Labels: labels})
		if err != nil {
			return Figure{}, err
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font = font.From(figureFont, 8)
		}
		lb.Offset = vg.Point{X: vg.Points(-4), Y: vg.Points(4)}
		p.Add(lb)
	}
	xmax, ymax := float64(pp.NodesUsed), cost
	pts := slices.Clone(curve)
	slices.SortStableFunc(pts, func(a, b plan.SizingPoint) int { return a.Nodes - b.Nodes })
	if len(pts) > 0 {
		line := make(plotter.XYs, len(pts))
		var lb plotter.XYs
		for i, pt := range pts {
			line[i] = plotter.XY{X: float64(pt.Nodes), Y: pt.Cost}
			if pt.LowerBound > 0 {
				lb = append(lb, plotter.XY{X: float64(pt.Nodes), Y: pt.LowerBound})
			}
			xmax, ymax = max(xmax, float64(pt.Nodes)), max(ymax, pt.Cost)
		}
		l, s, err := plotter.NewLinePoints(line)
		if err != nil {
			return Figure{}, err
		}
		l.Color, s.Color = seriesColor(0), seriesColor(0)
		p.Add(l, s)
		leg.add("cost of each sizing", l, s)
		if len(lb) > 0 {
			bl, err := plotter.NewLine(lb)
			if err != nil {
				return Figure{}, err
			}
			bl.Color, bl.Dashes = boundColor, []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(bl)
			leg.add("lower bound of each", bl)
		}
	}
	if bound > 0 {
		hl, err := horizontalLine(bound, 0, xmax*1.05, boundColor)
		if err != nil {
			return Figure{}, err
		}
		p.Add(hl)
		leg.add("lower bound", hl)
		if !mixed && pp.LowerBound > 0 {
			vl, err := verticalLine(float64(pp.LowerBound), 0, ymax*1.05, boundColor)
			if err != nil {
				return Figure{}, err
			}
			p.Add(vl)
		}
	}
	me, err := plotter.NewScatter(plotter.XYs{{X: float64(pp.NodesUsed), Y: cost}})
	if err != nil {
		return Figure{}, err
	}
	me.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.PyramidGlyph{}}
	p.Add(me)
	leg.add("this plan", me)
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max, p.Y.Max = xmax*1.1, ymax*1.1
	svg, err := renderSVG(p, leg, figureWidth, figureHeight)
	if err != nil {
		return Figure{}, err
	}
	caption := "The plan buys " + plural.Count(pp.NodesUsed, "node")
	if mixed {
		var parts []string
		for _, t := range pp.NodeTypes {
			if t.Nodes > 0 {
				parts = append(parts, fmt.Sprintf("%d %s at %s", t.Nodes, t.Name, FormatNumber(t.Cost)))
			}
		}
		caption += " (" + strings.Join(parts, ", ") + ")"
	}
	caption += "; no mix can cost less than the dashed lower bound."
	return Figure{Name: "sizing", Title: "Cluster sizing", Caption: caption, SVG: svg}, nil
}
