package reports

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/plan"
)

// simFigurePrefix starts the names of the simulated check's figures in a
// bundle, so they never collide with the DAG step's (gantt-…) and file
// under its report section.
const simFigurePrefix = "sim-"

// PlanSimulationFigures draws the figures of a plan's simulated check
// (simulation.json), names prefixed "sim-":
//   - sim-cdf-jct: the CDF of job completion times per policy (as
//     `capplan simulate`'s cdf-jct);
//   - sim-util-POLICY: the utilisation of each resource over time;
//   - sim-shares-POLICY: each application's share held over time against
//     its planned share (plan.SimOwnership), for the applications that had
//     jobs;
//   - sim-xsight-POLICY-APP (policies other than the baseline): X-Sight's
//     view of the application's own containers, used, lent, and what it
//     borrowed (XSightFigures' xsight-util).
//
// fs, when given, fixes the applications' colours as in the other
// figures of the bundle.
func PlanSimulationFigures(set *plan.SimulationSet, fs *plan.FairShare) ([]Figure, error) {
	var figs []Figure
	add := func(name, caption string, f simFigure, err error) error {
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		b, err := renderSVG(f.p, f.leg, figureWidth, figureHeight)
		if err != nil {
			return fmt.Errorf("reports: figure %s: %w", name, err)
		}
		figs = append(figs, Figure{Name: simFigurePrefix + name, Title: f.p.Title.Text, Caption: caption, SVG: b})
		return nil
	}
	f, err := jctCDF(set)
	if err := add("cdf-jct", "The fraction of jobs finished within each completion time, per policy: further left is faster.", f, err); err != nil {
		return nil, err
	}
	owners := newOwnerOrder(fs)
	for _, r := range set.Runs {
		pol := fileSafe(r.Policy.Name)
		f, err := utilPlot(set, &r)
		if err := add("util-"+pol, "Allocated over capacity per resource over time; a task is charged its container's size.", f, err); err != nil {
			return nil, err
		}
		if r.Ownership == nil {
			continue
		}
		f, err = ownedSharesPlot(&r, owners)
		if err := add("shares-"+pol, "Each application's share held (solid) against its planned share, the containers it owns (dashed, same colour), over time.", f, err); err != nil {
			return nil, err
		}
	}
	for _, r := range set.Runs {
		if r.XSight == nil || r.Policy.Name == set.Baseline || r.Ownership == nil {
			continue
		}
		for _, a := range r.XSight.Apps {
			if !hadJobs(r.Ownership, a.App) {
				continue
			}
			f, err := xsightUtil(r.Policy.Name, &a, owners)
			if err != nil {
				return nil, fmt.Errorf("reports: figure xsight %s: %w", a.App, err)
			}
			figs = append(figs, f.named(simFigurePrefix+"xsight-"+fileSafe(r.Policy.Name)+"-"+fileSafe(a.App)))
		}
	}
	return figs, nil
}

// hadJobs reports whether the application had jobs in the run.
func hadJobs(o *plan.SimOwnership, app string) bool {
	for _, a := range o.Apps {
		if a.Application == app {
			return a.Active > 0
		}
	}
	return false
}

// ownedSharesPlot draws, for the applications that had jobs, the share
// held per bucket as a step line and the planned share as a dashed line in
// the same colour, in % of the containers' charge.
func ownedSharesPlot(r *plan.SimulationRun, owners *ownerOrder) (simFigure, error) {
	o := r.Ownership
	p := newPlot("Shares held against the plan, "+r.Policy.Name, "time (s)", "% of the containers' charge")
	f := simFigure{p, newSideLegend()}
	top := 0.0
	for _, a := range o.Apps {
		if a.Active <= 0 {
			continue
		}
		clr := seriesColor(owners.of(a.Application))
		pts := make(plotter.XYs, 0, 2*len(a.Share))
		for i, x := range a.Share {
			t0 := o.Start + float64(i)*o.Step
			pts = append(pts, plotter.XY{X: t0, Y: 100 * x}, plotter.XY{X: t0 + o.Step, Y: 100 * x})
			top = max(top, 100*x)
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return f, err
		}
		l.Color, l.Width = clr, vg.Points(1.5)
		p.Add(l)
		f.leg.add(a.Application, l)
		planned, err := horizontalLine(100*a.PlannedShare, pts[0].X, pts[len(pts)-1].X, clr)
		if err != nil {
			return f, err
		}
		p.Add(planned)
		f.leg.add("  planned "+FormatPercent(a.PlannedShare), planned)
		top = max(top, 100*a.PlannedShare)
	}
	p.Add(plotter.NewGrid())
	p.Y.Min, p.Y.Max = 0, max(top*1.05, 1)
	return f, nil
}
