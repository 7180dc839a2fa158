package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/capplan/capplan/plan"
)

// Figure is one rendered figure: a file name and its SVG bytes.
type Figure struct {
	Name string
	SVG  []byte
}

// Figure size.
const (
	figureWidth  = 16 * vg.Centimeter
	figureHeight = 10 * vg.Centimeter
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
//     task, coloured by stage, killed runs grey (Carbyne Fig. 8).
func SimulationFigures(set *plan.SimulationSet) ([]Figure, error) {
	var figs []Figure
	add := func(name string, p *plot.Plot, err error) error {
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		b, err := renderSVG(p)
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		figs = append(figs, Figure{Name: name, SVG: b})
		return nil
	}
	p, err := jctCDF(set)
	if err := add("cdf-jct.svg", p, err); err != nil {
		return nil, err
	}
	if set.Baseline != "" && len(set.Runs) > 1 {
		p, err := fiCDF(set)
		if err := add("cdf-fi.svg", p, err); err != nil {
			return nil, err
		}
	}
	p, err = jctBars(set)
	if err := add("bars.svg", p, err); err != nil {
		return nil, err
	}
	for _, r := range set.Runs {
		p, err := utilPlot(set, &r)
		if err := add("util-"+fileSafe(r.Policy.Name)+".svg", p, err); err != nil {
			return nil, err
		}
		for _, g := range r.Gantt {
			p, err := ganttPlot(&r, &g)
			if err := add("gantt-"+fileSafe(g.Job)+"-"+fileSafe(r.Policy.Name)+".svg", p, err); err != nil {
				return nil, err
			}
		}
	}
	return figs, nil
}

// renderSVG draws p into SVG bytes.
func renderSVG(p *plot.Plot) ([]byte, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(figureWidth, figureHeight), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// fileSafe keeps letters, digits, '.', '_' and '-'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
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

// addLines adds one line per series with the plotutil palette.
func addLines(p *plot.Plot, names []string, series []plotter.XYs) error {
	for i, pts := range series {
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(names[i], l)
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	return nil
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

func jctCDF(set *plan.SimulationSet) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Job completion times, " + set.Workload.Name
	p.X.Label.Text = "JCT (s)"
	p.Y.Label.Text = "fraction of jobs"
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
	return p, addLines(p, names, series)
}

func fiCDF(set *plan.SimulationSet) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Factor of improvement over " + set.Baseline
	p.X.Label.Text = "FI = JCT(" + set.Baseline + ") / JCT(policy)"
	p.Y.Label.Text = "fraction of jobs"
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
		return nil, err
	}
	one.Color = color.Gray{Y: 128}
	one.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(one)
	return p, addLines(p, names, series)
}

func jctBars(set *plan.SimulationSet) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Average JCT and makespan"
	p.Y.Label.Text = "seconds"
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
		return nil, err
	}
	a.Color = plotutil.Color(0)
	a.Offset = -w / 2
	m, err := plotter.NewBarChart(mk, w)
	if err != nil {
		return nil, err
	}
	m.Color = plotutil.Color(1)
	m.Offset = w / 2
	p.Add(a, m, plotter.NewGrid())
	p.Legend.Add("avg JCT", a)
	p.Legend.Add("makespan", m)
	p.Legend.Top = true
	p.NominalX(names...)
	return p, nil
}

func utilPlot(set *plan.SimulationSet, r *plan.SimulationRun) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Utilisation, " + r.Policy.Name
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "allocated / capacity"
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
	return p, addLines(p, names, series)
}

func ganttPlot(r *plan.SimulationRun, g *plan.SimGanttJob) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Job %s under %s", g.Job, r.Policy.Name)
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "task"
	stages := map[int]bool{}
	for _, run := range g.Runs {
		end := run.End
		if end <= run.Start {
			end = run.Start + 1e-9
		}
		box, err := plotter.NewPolygon(plotter.XYs{{X: run.Start, Y: float64(run.Task) - 0.4}, {X: end, Y: float64(run.Task) - 0.4},
			{X: end, Y: float64(run.Task) + 0.4}, {X: run.Start, Y: float64(run.Task) + 0.4}})
		if err != nil {
			return nil, err
		}
		box.LineStyle.Width = 0
		box.Color = plotutil.Color(run.Stage)
		if run.Kind == "killed" {
			box.Color = color.Gray{Y: 170}
		}
		p.Add(box)
		if !stages[run.Stage] && run.Kind != "killed" {
			stages[run.Stage] = true
			p.Legend.Add(fmt.Sprintf("stage %d", run.Stage), box)
		}
	}
	p.Legend.Top = true
	return p, nil
}
