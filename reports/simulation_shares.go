package reports

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// maxShareUsers bounds the users a shares figure draws (those with the
// largest allocation over the run).
const maxShareUsers = 8

// sharesFigures draws, for every run compared with a CMMF comparator
// (Choosy Figs. 10–14), each user's share of the cluster over time under
// the run (solid) and under the comparator (dashed, same colour), for the
// users with the largest allocations.
func sharesFigures(set *plan.SimulationSet) ([]Figure, error) {
	var figs []Figure
	byName := map[string]*plan.SimulationRun{}
	for i := range set.Runs {
		byName[set.Runs[i].Policy.Name] = &set.Runs[i]
	}
	for i := range set.Runs {
		r := &set.Runs[i]
		for _, f := range r.RMSE {
			cmp := byName[f.Comparator]
			if cmp == nil {
				continue
			}
			p := newPlot(fmt.Sprintf("Shares under %s (solid) and %s (dashed)", r.Policy.Name, f.Comparator), "time (s)", "% of the cluster")
			leg := newSideLegend()
			users := topUsers(r, maxShareUsers)
			for k, u := range users {
				for _, run := range []*plan.SimulationRun{r, cmp} {
					pts := stepPoints(run.Series.Start, run.Series.Step, run.Series.Shares[u], 100)
					if len(pts) == 0 {
						continue
					}
					l, err := plotter.NewLine(pts)
					if err != nil {
						return nil, err
					}
					l.Color, l.Width = seriesColor(k), vg.Points(1.2)
					if run == cmp {
						l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
					} else {
						leg.add(u, l)
					}
					p.Add(l)
				}
			}
			p.Add(plotter.NewGrid())
			b, err := renderSVG(p, leg, figureWidth, figureHeight)
			if err != nil {
				return nil, err
			}
			figs = append(figs, Figure{Name: "shares-" + fileSafe(r.Policy.Name) + "-vs-" + fileSafe(f.Comparator), Title: p.Title.Text,
				Caption: fmt.Sprintf("Users' shares of the cluster over time; mean RMSE of the sorted vectors %.3f%%.", f.Mean), SVG: b})
		}
	}
	return figs, nil
}

// topUsers returns the n users of largest total share in run r, largest
// first (ties: name).
func topUsers(r *plan.SimulationRun, n int) []string {
	type us struct {
		name  string
		total float64
	}
	var all []us
	for _, name := range sortedNames(r.Series.Shares) {
		var t float64
		for _, x := range r.Series.Shares[name] {
			t += x
		}
		if t > 0 {
			all = append(all, us{name, t})
		}
	}
	slices.SortStableFunc(all, func(a, b us) int {
		switch {
		case a.total > b.total:
			return -1
		case a.total < b.total:
			return 1
		}
		return 0
	})
	var out []string
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].name)
	}
	return out
}

// stepPoints draws a bucketed series as a step line, scaled, with points
// only where the value changes (a share series is mostly flat).
func stepPoints(start, step float64, xs []float64, scale float64) plotter.XYs {
	var pts plotter.XYs
	for b, x := range xs {
		t0 := start + float64(b)*step
		if b > 0 && x == xs[b-1] {
			continue
		}
		if b > 0 {
			pts = append(pts, plotter.XY{X: t0, Y: scale * xs[b-1]})
		}
		pts = append(pts, plotter.XY{X: t0, Y: scale * x})
	}
	if n := len(xs); n > 0 {
		pts = append(pts, plotter.XY{X: start + float64(n)*step, Y: scale * xs[n-1]})
	}
	return pts
}
