package reports

import (
	"fmt"
	"image/color"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/capplan/capplan/plan"
)

// sweepPlotted are the metrics SweepFigures draws, with their axis labels;
// the FI needs a baseline.
var sweepPlotted = []struct{ metric, label string }{
	{"avgJCT", "average JCT (s)"},
	{"makespan", "makespan (s)"},
	{"fi.mean", "mean FI vs %s"},
}

// sweepXAxes are the axes a sweep figure may put on x, in order of
// preference: the first the sweep varies is used (SIMULATE.md §4.3,
// sweep-*: FI vs load, altruism; Carbyne Figs. 9–11, Graphene 15–17).
var sweepXAxes = []string{"load", "altruism", "noise", "size"}

// bandAlpha is the opacity of a confidence band (0–255).
const bandAlpha = 0x40

// sweepPoint is one aggregate placed in a figure.
type sweepPoint struct {
	agg           *plan.SweepAggregate
	x             float64
	panel, series string
}

// SweepFigures renders the sweep's figures: for each metric (average JCT,
// makespan and, with a baseline, the mean FI), its mean across seeds
// against the first of load, altruism, noise and size that takes two
// values or more, one line per policy with its 95% confidence band, one
// figure per workload and combination of the other axes
// ("sweep-avgJCT-vs-load-fb"). When no such axis varies, one figure per
// metric and workload puts the policies side by side with their intervals
// as error bars ("sweep-avgJCT-fb").
func SweepFigures(doc *plan.SimulationSweep) ([]Figure, error) {
	if len(doc.Aggregates) == 0 {
		return nil, nil
	}
	value := func(a *plan.SweepAggregate, axis string) (float64, string) {
		switch axis {
		case "load":
			return a.Load, "load"
		case "noise":
			return a.Noise, "noise σ"
		case "size":
			return float64(a.Size), "machines"
		}
		if x := doc.Cells[a.Cells[0]].Altruism; x != nil {
			return *x, "altruism"
		}
		return 0, "altruism"
	}
	xAxis, xLabel := "", ""
	for _, axis := range sweepXAxes {
		seen := map[float64]bool{}
		for i := range doc.Aggregates {
			x, _ := value(&doc.Aggregates[i], axis)
			seen[x] = true
		}
		if len(seen) > 1 {
			xAxis = axis
			_, xLabel = value(&doc.Aggregates[0], axis)
			break
		}
	}
	var points []sweepPoint
	for i := range doc.Aggregates {
		a := &doc.Aggregates[i]
		p := sweepPoint{agg: a, series: a.Variant, panel: a.Workload}
		for _, axis := range sweepXAxes {
			x, name := value(a, axis)
			if axis == xAxis {
				p.x = x
				continue
			}
			if axis != "altruism" && x != 0 {
				p.panel += " " + name + "=" + strconv.FormatFloat(x, 'g', -1, 64)
			}
		}
		if xAxis == "altruism" {
			c := doc.Cells[a.Cells[0]]
			params := maps.Clone(c.Policy.Params)
			delete(params, "altruism")
			p.series = c.Policy.Name
			if len(params) > 0 {
				var kv []string
				for _, k := range slices.Sorted(maps.Keys(params)) {
					kv = append(kv, k+"="+params[k])
				}
				p.series += " " + strings.Join(kv, ",")
			}
		}
		points = append(points, p)
	}
	var panels []string
	for _, p := range points {
		if !slices.Contains(panels, p.panel) {
			panels = append(panels, p.panel)
		}
	}
	var figs []Figure
	for _, panel := range panels {
		var in []sweepPoint
		for _, p := range points {
			if p.panel == panel {
				in = append(in, p)
			}
		}
		for _, m := range sweepPlotted {
			label := m.label
			if strings.Contains(label, "%s") {
				if doc.Sweep.Baseline == "" {
					continue
				}
				label = fmt.Sprintf(label, doc.Sweep.Baseline)
			}
			name := "sweep-" + fileSafe(m.metric)
			if xAxis != "" {
				name += "-vs-" + xAxis
			}
			name += "-" + fileSafe(strings.ReplaceAll(panel, " ", "-"))
			var f Figure
			var ok bool
			var err error
			if xAxis != "" {
				f, ok, err = sweepLinePlot(in, m.metric, label, xLabel, panel)
			} else {
				f, ok, err = sweepBarPlot(in, m.metric, label, panel)
			}
			if err != nil {
				return nil, fmt.Errorf("reports: figure %s: %w", name, err)
			}
			if ok {
				f.Name = name
				figs = append(figs, f)
			}
		}
	}
	return figs, nil
}

// sweepLinePlot draws metric against x, one line and band per series.
func sweepLinePlot(points []sweepPoint, metric, yLabel, xLabel, panel string) (Figure, bool, error) {
	p := newPlot(yLabel+" by "+xLabel+" ("+panel+")", xLabel, yLabel)
	leg := newSideLegend()
	var series []string
	for _, pt := range points {
		if !slices.Contains(series, pt.series) {
			series = append(series, pt.series)
		}
	}
	drawn := false
	for i, s := range series {
		var mean, lo, hi plotter.XYs
		for _, pt := range points {
			st, ok := pt.agg.Metrics[metric]
			if pt.series != s || !ok {
				continue
			}
			mean = append(mean, plotter.XY{X: pt.x, Y: st.Mean})
			lo = append(lo, plotter.XY{X: pt.x, Y: st.Low})
			hi = append(hi, plotter.XY{X: pt.x, Y: st.High})
		}
		if len(mean) == 0 {
			continue
		}
		order := func(xs plotter.XYs) {
			slices.SortStableFunc(xs, func(a, b plotter.XY) int {
				switch {
				case a.X < b.X:
					return -1
				case a.X > b.X:
					return 1
				}
				return 0
			})
		}
		order(mean)
		order(lo)
		order(hi)
		clr := seriesColor(i)
		band := append(slices.Clone(lo), reversed(hi)...)
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return Figure{}, false, err
		}
		poly.Color = color.NRGBA{R: clr.R, G: clr.G, B: clr.B, A: bandAlpha}
		poly.LineStyle.Width = 0
		line, pts, err := plotter.NewLinePoints(mean)
		if err != nil {
			return Figure{}, false, err
		}
		line.Color, line.Width = clr, vg.Points(1.5)
		pts.Color, pts.Shape = clr, draw.CircleGlyph{}
		p.Add(poly, line, pts)
		leg.add(s, line, pts)
		drawn = true
	}
	if !drawn {
		return Figure{}, false, nil
	}
	svg, err := renderSVG(p, leg, figureWidth, figureHeight)
	if err != nil {
		return Figure{}, false, err
	}
	return Figure{Title: p.Title.Text, Caption: "mean across seeds; shaded: 95% confidence interval (Student's t)", SVG: svg}, true, nil
}

// reversed returns xs in reverse order.
func reversed(xs plotter.XYs) plotter.XYs {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// sweepBarPlot draws each series' mean with its interval as an error bar.
func sweepBarPlot(points []sweepPoint, metric, yLabel, panel string) (Figure, bool, error) {
	p := newPlot(yLabel+" ("+panel+")", "policy", yLabel)
	leg := newSideLegend()
	var names []string
	for i, pt := range points {
		st, ok := pt.agg.Metrics[metric]
		if !ok {
			continue
		}
		x := float64(len(names))
		names = append(names, pt.series)
		clr := seriesColor(i)
		pts, err := plotter.NewScatter(plotter.XYs{{X: x, Y: st.Mean}})
		if err != nil {
			return Figure{}, false, err
		}
		pts.Color, pts.Shape = clr, draw.CircleGlyph{}
		bar, err := plotter.NewLine(plotter.XYs{{X: x, Y: st.Low}, {X: x, Y: st.High}})
		if err != nil {
			return Figure{}, false, err
		}
		bar.Color, bar.Width = clr, vg.Points(2)
		p.Add(bar, pts)
		leg.add(pt.series, pts)
	}
	if len(names) == 0 {
		return Figure{}, false, nil
	}
	p.NominalX(names...)
	svg, err := renderSVG(p, leg, figureWidth, figureHeight)
	if err != nil {
		return Figure{}, false, err
	}
	return Figure{Title: p.Title.Text, Caption: "mean across seeds with its 95% confidence interval (Student's t)", SVG: svg}, true, nil
}
