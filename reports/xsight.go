package reports

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// XSightFigures draws X-Flex's X-Sight views of every run that recorded
// them (SIMULATE.md §4.3, X-Flex §2.1):
//   - xsight-util-POLICY-APP: the use of the application's own containers
//     over time, stacked: used by itself, lent to others, and on top the
//     others' containers it borrows, in % of what it owns (X-Sight view 1);
//   - xsight-pair-POLICY-A-B: the sharing imbalance S_AB(t) of two
//     applications between the bounds ±Δ_AB, shaded in the colour of the
//     application it favours, red beyond the bound (X-Flex Fig. 2);
//   - xsight-packing-POLICY-T: the nodes' containers at time T, one row per
//     node, widths by cpu, filled in their owner's colour (pale when idle),
//     hatched in the user's colour when another application borrows them
//     (X-Sight view 3).
func XSightFigures(set *plan.SimulationSet) ([]Figure, error) {
	var figs []Figure
	for _, r := range set.Runs {
		x := r.XSight
		if x == nil {
			continue
		}
		owners := newOwnerOrder(nil)
		for _, a := range x.Apps {
			owners.of(a.App)
		}
		pol := fileSafe(r.Policy.Name)
		for _, a := range x.Apps {
			f, err := xsightUtil(r.Policy.Name, &a, owners)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f.named("xsight-util-"+pol+"-"+fileSafe(a.App)))
		}
		for _, p := range x.Pairs {
			f, err := xsightPair(r.Policy.Name, &p, owners)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f.named("xsight-pair-"+pol+"-"+fileSafe(p.A)+"-"+fileSafe(p.B)))
		}
		for _, s := range x.Snapshots {
			f, err := xsightPacking(r.Policy.Name, &s, owners)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f.named(fmt.Sprintf("xsight-packing-%s-%g", pol, s.T)))
		}
	}
	return figs, nil
}

// xsFigure is a rendered figure waiting for its file name.
type xsFigure struct {
	title, caption string
	svg            []byte
}

func (f xsFigure) named(name string) Figure {
	return Figure{Name: name, Title: f.title, Caption: f.caption, SVG: f.svg}
}

func render(p *plot.Plot, leg *sideLegend, caption string, height vg.Length) (xsFigure, error) {
	b, err := renderSVG(p, leg, figureWidth, height)
	if err != nil {
		return xsFigure{}, err
	}
	return xsFigure{title: p.Title.Text, caption: caption, svg: b}, nil
}

// pale mixes c with white: the colour of an idle container or of a
// shaded area.
func pale(c color.RGBA, f float64) color.RGBA {
	m := func(x uint8) uint8 { return uint8(float64(x) + (255-float64(x))*f) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), 0xFF}
}

func xsightUtil(policy string, a *plan.SimXApp, owners *ownerOrder) (xsFigure, error) {
	p := newPlot(fmt.Sprintf("X-Sight: %s's %d containers under %s", a.App, a.Containers, policy), "time (s)",
		"% of the containers "+a.App+" owns")
	leg := newSideLegend()
	own := seriesColor(owners.of(a.App))
	used, lent, borrowed := own, pale(own, 0.55), color.RGBA{0x59, 0x59, 0x59, 0xFF}
	// Three stacked bands, each one polygon over the step functions.
	levels := make([][4]float64, len(a.T)) // per bucket: 0, own, +lent, +borrowed
	top := 100.0
	for i := range a.T {
		y0 := 100 * a.OwnUsed[i]
		y1 := y0 + 100*a.Lent[i]
		y2 := y1 + 100*a.Borrowed[i]
		levels[i] = [4]float64{0, y0, y1, y2}
		top = max(top, y2)
	}
	for k, clr := range []color.RGBA{used, lent, borrowed} {
		var pts plotter.XYs
		for i, t := range a.T { // upper edge, left to right
			pts = append(pts, plotter.XY{X: t, Y: levels[i][k+1]}, plotter.XY{X: t + a.Step, Y: levels[i][k+1]})
		}
		for i := len(a.T) - 1; i >= 0; i-- { // lower edge, back
			pts = append(pts, plotter.XY{X: a.T[i] + a.Step, Y: levels[i][k]}, plotter.XY{X: a.T[i], Y: levels[i][k]})
		}
		if len(pts) == 0 {
			continue
		}
		poly, err := plotter.NewPolygon(pts)
		if err != nil {
			return xsFigure{}, err
		}
		poly.Color, poly.LineStyle.Width = clr, 0
		p.Add(poly)
	}
	if len(a.T) > 0 {
		l, err := horizontalLine(100, a.T[0], a.T[len(a.T)-1]+a.Step, boundColor)
		if err != nil {
			return xsFigure{}, err
		}
		p.Add(l)
		leg.add("owned (100%)", l)
	}
	leg.add("used by "+a.App, legendBox(used))
	leg.add("lent to others", legendBox(lent))
	leg.add("borrowed from others", legendBox(borrowed))
	p.Y.Min, p.Y.Max = 0, top*1.05
	return render(p, leg, "How "+a.App+"'s own containers are used over time, and what it borrows.", figureHeight)
}

func xsightPair(policy string, pr *plan.SimXPair, owners *ownerOrder) (xsFigure, error) {
	p := newPlot(fmt.Sprintf("X-Sight: sharing between %s and %s under %s", pr.A, pr.B, policy), "time (s)",
		"imbalance (normalised size × s; > 0: "+pr.A+" owes "+pr.B+")")
	leg := newSideLegend()
	ca, cb := seriesColor(owners.of(pr.A)), seriesColor(owners.of(pr.B))
	lo, hi := -pr.Bound, pr.Bound
	var segs []segment // the curve cut where it crosses 0 and ±Δ
	for i := 0; i+1 < len(pr.T); i++ {
		segs = append(segs, splitAt(pr.T[i], pr.T[i+1], pr.Share[i], pr.Share[i+1], 0, pr.Bound, -pr.Bound)...)
		lo, hi = min(lo, pr.Share[i], pr.Share[i+1]), max(hi, pr.Share[i], pr.Share[i+1])
	}
	// Shade towards the application favoured: one polygon per run of
	// segments on one side of 0.
	side := func(sg segment) int {
		switch m := (sg.s0 + sg.s1) / 2; {
		case m > 0:
			return 1
		case m < 0:
			return -1
		}
		return 0
	}
	for i := 0; i < len(segs); {
		k := i
		for k < len(segs) && side(segs[k]) == side(segs[i]) {
			k++
		}
		if sd := side(segs[i]); sd != 0 {
			pts := plotter.XYs{{X: segs[i].t0, Y: 0}}
			for _, sg := range segs[i:k] {
				pts = append(pts, plotter.XY{X: sg.t0, Y: sg.s0}, plotter.XY{X: sg.t1, Y: sg.s1})
			}
			pts = append(pts, plotter.XY{X: segs[k-1].t1, Y: 0})
			poly, err := plotter.NewPolygon(pts)
			if err != nil {
				return xsFigure{}, err
			}
			poly.Color, poly.LineStyle.Width = pale(cb, 0.6), 0
			if sd > 0 {
				poly.Color = pale(ca, 0.6)
			}
			p.Add(poly)
		}
		i = k
	}
	// The curve: one polyline per run inside or beyond the bound, red
	// beyond.
	black := color.RGBA{0x20, 0x20, 0x20, 0xFF}
	out := func(sg segment) bool { m := (sg.s0 + sg.s1) / 2; return m > pr.Bound || m < -pr.Bound }
	redShown := false
	for i := 0; i < len(segs); {
		k := i
		for k < len(segs) && out(segs[k]) == out(segs[i]) {
			k++
		}
		pts := plotter.XYs{{X: segs[i].t0, Y: segs[i].s0}}
		for _, sg := range segs[i:k] {
			pts = append(pts, plotter.XY{X: sg.t1, Y: sg.s1})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return xsFigure{}, err
		}
		l.Width, l.Color = vg.Points(1.5), black
		if out(segs[i]) {
			l.Color = boundColor
			if !redShown {
				leg.add("beyond the bound", l)
				redShown = true
			}
		}
		p.Add(l)
		i = k
	}
	if len(pr.T) > 0 {
		for _, y := range []float64{pr.Bound, -pr.Bound} {
			l, err := horizontalLine(y, pr.T[0], pr.T[len(pr.T)-1], color.Gray{Y: 110})
			if err != nil {
				return xsFigure{}, err
			}
			p.Add(l)
			if y > 0 || pr.Bound == 0 {
				leg.add(fmt.Sprintf("±Δ = %.3g", pr.Bound), l)
			}
		}
	}
	leg.add(pr.A+" favoured", legendBox(pale(ca, 0.6)))
	leg.add(pr.B+" favoured", legendBox(pale(cb, 0.6)))
	pad := max(0.05*(hi-lo), 1e-3)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	return render(p, leg, fmt.Sprintf("Sharing imbalance of %s and %s over time; %.0f s beyond the bound.", pr.A, pr.B, pr.Beyond), figureHeight)
}

// segment is a piece of a linear segment.
type segment struct{ t0, t1, s0, s1 float64 }

// splitAt cuts the segment (t0, s0)–(t1, s1) where it crosses any level.
func splitAt(t0, t1, s0, s1 float64, levels ...float64) []segment {
	cuts := []float64{t0}
	for _, lv := range levels {
		if (s0-lv)*(s1-lv) < 0 {
			cuts = append(cuts, t0+(lv-s0)/(s1-s0)*(t1-t0))
		}
	}
	cuts = append(cuts, t1)
	sortFloats(cuts)
	at := func(t float64) float64 {
		if t1 == t0 {
			return s0
		}
		return s0 + (s1-s0)*(t-t0)/(t1-t0)
	}
	var out []segment
	for i := 0; i+1 < len(cuts); i++ {
		out = append(out, segment{cuts[i], cuts[i+1], at(cuts[i]), at(cuts[i+1])})
	}
	return out
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for k := i; k > 0 && xs[k] < xs[k-1]; k-- {
			xs[k], xs[k-1] = xs[k-1], xs[k]
		}
	}
}

func xsightPacking(policy string, s *plan.SimXSnapshot, owners *ownerOrder) (xsFigure, error) {
	p := newPlot(fmt.Sprintf("X-Sight: containers at %g s under %s", s.T, policy), "cpu (cores), containers in plan order", "node")
	leg := newSideLegend()
	var boxes hatchedRects
	var names []string
	maxX := 0.0
	n := len(s.Nodes)
	used := map[string]bool{}
	for i, node := range s.Nodes {
		y := float64(n - 1 - i)
		names = append(names, node.Name)
		x := 0.0
		for _, c := range node.Containers {
			w := c.Size["cpu"]
			if w <= 0 {
				w = 1
			}
			own := seriesColor(owners.of(c.Owner))
			b := hatchedRect{rect: rect{x0: x + 0.04, x1: x + w - 0.04, y0: y - 0.38, y1: y + 0.38, color: pale(own, 0.7)}, am: c.Shape == "am" || c.Job == "AM"}
			if c.User != "" {
				b.color = own
				if c.User != c.Owner {
					b.hatch = seriesColor(owners.of(c.User))
					b.color = pale(own, 0.35)
					used["borrowed"] = true
				}
			}
			boxes = append(boxes, b)
			x += w
		}
		maxX = max(maxX, x)
	}
	p.Add(boxes)
	for _, name := range owners.names {
		leg.add("owner "+name, legendBox(seriesColor(owners.of(name))))
	}
	leg.add("idle (pale)", legendBox(pale(color.RGBA{0x80, 0x80, 0x80, 0xFF}, 0.7)))
	leg.add("AM container", legendBox(pale(color.RGBA{0x80, 0x80, 0x80, 0xFF}, 0.7)))
	if used["borrowed"] {
		leg.add("hatched: borrowed", legendBox(pale(color.RGBA{0x80, 0x80, 0x80, 0xFF}, 0.35)))
	}
	rev := make([]string, n)
	for i := range names {
		rev[n-1-i] = names[i]
	}
	p.NominalY(rev...)
	p.X.Min, p.X.Max = 0, maxX
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	h := min(max(figureHeight, vg.Length(n)*vg.Points(26)+vg.Inch), figureMaxHeight)
	return render(p, leg, fmt.Sprintf("Containers of every node at %g s: fill = owner, pale = idle, hatched = borrowed.", s.T), h)
}
