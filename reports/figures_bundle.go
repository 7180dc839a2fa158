package reports

import "github.com/capplan/capplan/plan"

// Figures draws every figure the documents of a bundle support, in report
// order: fair shares, the shape catalogue's projections, the ownership
// packing (per resource), the sizing, the DAG schedules and the simulated
// check. A document
// the bundle lacks contributes no figure. Figure names are unique.
func Figures(b *plan.Bundle) ([]Figure, error) {
	var figs []Figure
	if b.FairShare != nil && len(b.FairShare.Shares) > 0 {
		f, err := SharesFigure(b.FairShare)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	if b.Shapes != nil && len(b.Shapes.Shapes) > 0 {
		fs, err := ShapesFigures(b.Shapes, b.FairShare)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fs...)
	}
	if b.Ownership != nil && len(b.Ownership.Nodes) > 0 {
		fs, err := PackingFigures(b.Ownership, b.FairShare)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fs...)
	}
	if b.Sizing != nil {
		var curve []plan.SizingPoint
		if b.Plan != nil {
			curve = b.Plan.SizingCurve
		}
		f, err := SizingFigure(b.Sizing, curve)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	if b.DAG != nil {
		fs, err := GanttFigures(b.DAG)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fs...)
	}
	if b.Simulation != nil {
		fs, err := PlanSimulationFigures(b.Simulation, b.FairShare)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fs...)
	}
	return figs, nil
}
