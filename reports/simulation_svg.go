package reports

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// SimulationFigures renders the simulation figures (SIMULATE.md §4.3) with
// gonum.org/v1/plot, without embedded fonts, so the bytes depend only on
// the document:
//   - cdf-jct.svg: the CDF of job completion times per policy (Carbyne
//     Fig. 6, Choosy Fig. 9);
//   - cdf-fi.svg (with a baseline): the CDF of the factor of improvement of
//     each policy over the baseline, FI = 1 marked (Carbyne Figs. 7 and 12,
//     Graphene Fig. 12a);
//   - bars.svg: average JCT and makespan per policy (Carbyne Figs. 1, 4);
//   - util-POLICY.svg: utilisation of each resource over time (Graphene
//     Fig. 13);
//   - gantt-JOB-POLICY.svg: the task runs of each traced job, one row per
//     task, coloured by stage, killed runs grey (Carbyne Fig. 8);
//   - shares-POLICY-vs-COMPARATOR.svg: users' shares over time against a
//     CMMF comparator (Choosy Figs. 10–14);
//   - with X-Sight views, XSightFigures.
func SimulationFigures(set *plan.SimulationSet) ([]Figure, error) {
	var figs []Figure
	add := func(name string, f simFigure, err error) error {
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		b, err := renderSVG(f.p, f.leg, figureWidth, figureHeight)
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		figs = append(figs, Figure{Name: name, Title: f.p.Title.Text, SVG: b})
		return nil
	}
	f, err := jctCDF(set)
	if err := add("cdf-jct", f, err); err != nil {
		return nil, err
	}
	if set.Baseline != "" && len(set.Runs) > 1 {
		f, err := fiCDF(set)
		if err := add("cdf-fi", f, err); err != nil {
			return nil, err
		}
	}
	f, err = jctBars(set)
	if err := add("bars", f, err); err != nil {
		return nil, err
	}
	for _, r := range set.Runs {
		f, err := utilPlot(set, &r)
		if err := add("util-"+fileSafe(r.Policy.Name), f, err); err != nil {
			return nil, err
		}
		for _, g := range r.Gantt {
			f, err := ganttPlot(&r, &g)
			if err := add("gantt-"+fileSafe(g.Job)+"-"+fileSafe(r.Policy.Name), f, err); err != nil {
				return nil, err
			}
		}
	}
	sh, err := sharesFigures(set)
	if err != nil {
		return nil, err
	}
	xs, err := XSightFigures(set)
	if err != nil {
		return nil, err
	}
	return append(append(figs, sh...), xs...), nil
}

// cdfPoints returns the empirical CDF of xs as a step line.
func cdfPoints(xs []float64) plotter.XYs {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	pts := make(plotter.XYs, 0, 2*len(xs))
	for i, x := range xs {
		pts = append(pts, plotter.XY{X: x, Y: float64(i) / float64(len(xs))}, plotter.XY{X: x, Y: float64(i+1) / float64(len(xs))})
	}
	return pts
}

// simFigure is a plot with the legend drawn beside it (renderSVG).
type simFigure struct {
	p   *plot.Plot
	leg *sideLegend
}

// addLines adds one line per series in the report palette.
func addLines(f simFigure, names []string, series []plotter.XYs) (simFigure, error) {
	p := f.p
	for i, pts := range series {
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return f, err
		}
		l.Color = seriesColor(i)
		l.Dashes = plotutil.Dashes(i / len(palette))
		l.Width = vg.Points(1.5)
		p.Add(l)
		f.leg.add(names[i], l)
	}
	p.Add(plotter.NewGrid())
	return f, nil
}

// logX puts a log scale on x when the positive values span more than two
// decades.
func logX(p *plot.Plot, series []plotter.XYs) {
	lo, hi := math.Inf(1), 0.0
	for _, s := range series {
		for _, pt := range s {
			if pt.X > 0 {
				lo, hi = min(lo, pt.X), max(hi, pt.X)
			}
		}
	}
	if hi > 0 && hi/lo > 100 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		for _, s := range series {
			for i := range s {
				s[i].X = max(s[i].X, lo) // log scale needs positive values
			}
		}
	}
}

func jctCDF(set *plan.SimulationSet) (simFigure, error) {
	p := newPlot("Job completion times, "+set.Workload.Name, "JCT (s)", "fraction of jobs")
	f := simFigure{p, newSideLegend()}
	var names []string
	var series []plotter.XYs
	for _, r := range set.Runs {
		var xs []float64
		for _, j := range r.Jobs {
			if j.JCT != nil {
				xs = append(xs, *j.JCT)
			}
		}
		names = append(names, r.Policy.Name)
		series = append(series, cdfPoints(xs))
	}
	logX(p, series)
	return addLines(f, names, series)
}

func fiCDF(set *plan.SimulationSet) (simFigure, error) {
	p := newPlot("Factor of improvement over "+set.Baseline, "FI = JCT("+set.Baseline+") / JCT(policy)", "fraction of jobs")
	f := simFigure{p, newSideLegend()}
	var names []string
	var series []plotter.XYs
	for _, r := range set.Runs {
		if r.Compare == nil || r.Compare.Paired == 0 {
			continue
		}
		var xs []float64
		for _, f := range r.Compare.PerJob {
			xs = append(xs, f.FI)
		}
		names = append(names, r.Policy.Name)
		series = append(series, cdfPoints(xs))
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return f, err
	}
	one.Color = color.Gray{Y: 128}
	one.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(one)
	return addLines(f, names, series)
}

func jctBars(set *plan.SimulationSet) (simFigure, error) {
	p := newPlot("Average JCT and makespan", "", "seconds")
	f := simFigure{p, newSideLegend()}
	var avg, mk plotter.Values
	var names []string
	for _, r := range set.Runs {
		avg = append(avg, r.Summary.AvgJCT)
		mk = append(mk, r.Summary.Makespan)
		names = append(names, r.Policy.Name)
	}
	w := vg.Points(12)
	a, err := plotter.NewBarChart(avg, w)
	if err != nil {
		return f, err
	}
	a.Color = seriesColor(0)
	a.Offset = -w / 2
	m, err := plotter.NewBarChart(mk, w)
	if err != nil {
		return f, err
	}
	m.Color = seriesColor(1)
	m.Offset = w / 2
	p.Add(a, m, plotter.NewGrid())
	f.leg.add("avg JCT", a)
	f.leg.add("makespan", m)
	p.NominalX(names...)
	return f, nil
}

func utilPlot(set *plan.SimulationSet, r *plan.SimulationRun) (simFigure, error) {
	p := newPlot("Utilisation, "+r.Policy.Name, "time (s)", "allocated / capacity")
	f := simFigure{p, newSideLegend()}
	p.Y.Min, p.Y.Max = 0, 1
	var names []string
	var series []plotter.XYs
	for _, res := range set.Cluster.Resources {
		xs := r.Series.Utilization[res]
		pts := make(plotter.XYs, 0, 2*len(xs))
		for i, u := range xs {
			t0 := r.Series.Start + float64(i)*r.Series.Step
			pts = append(pts, plotter.XY{X: t0, Y: u}, plotter.XY{X: t0 + r.Series.Step, Y: u})
		}
		names = append(names, res)
		series = append(series, pts)
	}
	if err := addOffline(f, set, r); err != nil {
		return f, err
	}
	return addLines(f, names, series)
}

// addOffline draws, per resource, what the --against packing plan
// allocates: a dashed line in the resource's colour.
func addOffline(f simFigure, set *plan.SimulationSet, r *plan.SimulationRun) error {
	if set.Offline == nil || len(r.Series.Running) == 0 {
		return nil
	}
	end := r.Series.Start + float64(len(r.Series.Running))*r.Series.Step
	for i, res := range set.Cluster.Resources {
		a, ok := set.Offline.Allocated[res]
		if !ok {
			continue
		}
		l, err := horizontalLine(a, r.Series.Start, end, seriesColor(i))
		if err != nil {
			return err
		}
		f.p.Add(l)
		f.leg.add(fmt.Sprintf("%s: %s plan", res, set.Offline.Plan), l)
	}
	return nil
}

func ganttPlot(r *plan.SimulationRun, g *plan.SimGanttJob) (simFigure, error) {
	p := newPlot(fmt.Sprintf("Job %s under %s", g.Job, r.Policy.Name), "time (s)", "task")
	f := simFigure{p, newSideLegend()}
	stages := map[int]bool{}
	for _, run := range g.Runs {
		end := run.End
		if end <= run.Start {
			end = run.Start + 1e-9
		}
		box, err := plotter.NewPolygon(plotter.XYs{{X: run.Start, Y: float64(run.Task) - 0.4}, {X: end, Y: float64(run.Task) - 0.4},
			{X: end, Y: float64(run.Task) + 0.4}, {X: run.Start, Y: float64(run.Task) + 0.4}})
		if err != nil {
			return f, err
		}
		box.LineStyle.Width = 0
		box.Color = seriesColor(run.Stage)
		if run.Kind == "killed" {
			box.Color = color.Gray{Y: 170}
		}
		p.Add(box)
		if !stages[run.Stage] && run.Kind != "killed" {
			stages[run.Stage] = true
			f.leg.add(fmt.Sprintf("stage %d", run.Stage), box)
		}
	}
	return f, nil
}
