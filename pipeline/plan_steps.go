package pipeline

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/plan"
)

// planShapesEps is the ε at which the plan's X-Size PTAS stops: `capplan
// shapes`' default.
const planShapesEps = 0.1

// stepOut is what one independent job of a plan produced: documents (in
// the order of steps) and warnings, or a fatal error.
type stepOut struct {
	steps    []plan.PlanStep
	warnings []plan.PlanWarning
	// point is a sizing's point of the curve (sizing jobs); curve marks
	// the jobs of the curve's other points.
	point *plan.SizingPoint
	curve bool
}

// run runs the plan's independent jobs, Workers at a time — the fair
// share → shapes → packing chain, each sizing, the DAG schedules — and
// files their documents, steps and warnings in pipeline order, so that
// the result does not depend on timing.
func (st *planState) run(res *PlanResult) error {
	var mu sync.Mutex
	done := func(step string, d time.Duration) {
		mu.Lock()
		st.took(res, step, d)
		mu.Unlock()
	}
	b := res.Bundle
	var simOut stepOut // the simulated check runs after the packing, in the chain's job, and is filed last
	jobs := []func(*stepOut) error{func(out *stepOut) error { return st.chain(b, out, &simOut, done) }}
	var multipliers []float64
	if st.types != nil {
		multipliers = append([]float64{1}, st.curve...)
		for _, m := range multipliers {
			jobs = append(jobs, func(out *stepOut) error { return st.sizing(b, m, out, done) })
		}
	}
	if st.o.WorkloadPath != "" || st.o.Inputs.Example {
		jobs = append(jobs, func(out *stepOut) error { return st.dags(b, out, done) })
	}
	outs := make([]stepOut, len(jobs))
	if err := par.For(len(jobs), st.workers, func(i int) error { return jobs[i](&outs[i]) }); err != nil {
		return err
	}
	p := b.Plan
	for _, out := range append(outs, simOut) {
		if out.curve && b.Sizing == nil {
			continue // the forecast's own sizing failed, with a warning
		}
		p.Steps = append(p.Steps, out.steps...)
		p.Warnings = append(p.Warnings, out.warnings...)
		if out.point != nil {
			p.SizingCurve = append(p.SizingCurve, *out.point)
		}
	}
	if len(p.SizingCurve) < 2 {
		p.SizingCurve = nil // the sizing document holds its own point
	}
	return nil
}

// chain runs fair shares, shapes and the ownership packing of the shapes,
// then the simulated check on that packing (filed in simOut).
func (st *planState) chain(b *plan.Bundle, out, simOut *stepOut, done func(string, time.Duration)) error {
	o := st.o
	_, err := st.step(out, done, plan.PlanStep{Name: plan.StepFairShare, Kind: plan.KindFairShare, File: PlanFairShareFile}, func() (*plan.Header, error) {
		r, err := FairShare(FairShareOptions{Inputs: st.inputs, PerNode: true, Generator: o.Generator})
		if err != nil {
			return nil, err
		}
		b.FairShare = r.Doc
		return &r.Doc.Header, nil
	})
	if err != nil {
		return err
	}
	ok, err := st.step(out, done, plan.PlanStep{Name: plan.StepShapes, Kind: plan.KindShapeCatalog, File: PlanShapesFile}, func() (*plan.Header, error) {
		r, err := Shapes(ShapesOptions{Inputs: st.inputs, K: o.K, Eps: planShapesEps, Seed: o.Seed, Generator: o.Generator})
		if err != nil {
			return nil, err
		}
		b.Shapes = r.Doc
		return &r.Doc.Header, nil
	})
	if err != nil || !ok {
		out.warnings = append(out.warnings, plan.PlanWarning{Step: plan.StepOwnership, Message: "skipped: the ownership packing packs the shapes, which could not be computed"})
		st.simulationSkipped(simOut)
		return err
	}
	ok, err = st.step(out, done, plan.PlanStep{Name: plan.StepOwnership, Kind: plan.KindPackingPlan, File: PlanPackingFile}, func() (*plan.Header, error) {
		r, err := Pack(PackOptions{Inputs: st.inputs, Catalog: b.Shapes, ShapesPath: PlanShapesFile, Seed: o.Seed, Generator: o.Generator})
		if err != nil {
			return nil, err
		}
		b.Ownership = r.Doc
		return &r.Doc.Header, nil
	})
	switch {
	case err != nil:
		return err
	case !ok:
		st.simulationSkipped(simOut)
		return nil
	case st.sim != nil:
		return st.simulation(b, simOut, done)
	}
	return nil
}

// step runs one step of the chain, which computes its document from the
// in-memory inputs and returns its header: on success the header records
// the plan's input files and the step is listed; a bad option or input is
// returned as an error; any other failure becomes the step's warning (ok
// false).
func (st *planState) step(out *stepOut, done func(string, time.Duration), s plan.PlanStep, run func() (*plan.Header, error)) (ok bool, err error) {
	t0 := time.Now()
	h, err := run()
	done(s.Name, time.Since(t0))
	switch {
	case err == nil:
		h.Inputs = st.loaded.Inputs
		out.steps = append(out.steps, s)
		return true, nil
	case fatal(err):
		return false, err
	}
	out.warnings = append(out.warnings, stepFailed(s.Name, err))
	return false, nil
}

// sizing sizes the cluster for the forecast times m: the plan's sizing
// document for m = 1, a point of the curve for the others.
func (st *planState) sizing(b *plan.Bundle, m float64, out *stepOut, done func(string, time.Duration)) error {
	t0 := time.Now()
	name, label := plan.StepSizing, sizingLabel(m)
	in := st.inputs
	out.curve = m != 1
	if m != 1 {
		name = plan.StepSizing + " (" + label + ")"
		in.Demand = scaleDemand(in.Demand, m)
	}
	doc, err := Size(SizeOptions{Inputs: in, NodeTypes: st.o.Size, Seed: st.o.Seed, Generator: st.o.Generator})
	done(name, time.Since(t0))
	switch {
	case fatal(err):
		return err
	case err != nil && m == 1:
		out.warnings = append(out.warnings, plan.PlanWarning{Step: plan.StepSizing,
			Message: fmt.Sprintf("no feasible node mix of %s holds the forecast: %v", st.o.Size, err)})
		return nil
	case err != nil:
		out.warnings = append(out.warnings, plan.PlanWarning{Step: plan.StepSizing,
			Message: fmt.Sprintf("sizing curve: no feasible node mix of %s holds the %s: %v", st.o.Size, label, err)})
		return nil
	}
	out.point = sizingPoint(label, doc)
	if m == 1 {
		doc.Inputs = st.loaded.Inputs
		b.Sizing = doc
		out.steps = append(out.steps, plan.PlanStep{Name: plan.StepSizing, Kind: plan.KindPackingPlan, File: PlanSizingFile})
	}
	return nil
}

// sizingPoint is a sizing's point on the curve: its nodes, its cost (the
// node count for one unpriced node type) and the lower bound on it.
func sizingPoint(label string, doc *plan.PackingPlan) *plan.SizingPoint {
	pt := &plan.SizingPoint{Label: label, Nodes: doc.NodesUsed, Cost: doc.Cost, LowerBound: doc.CostLowerBound}
	if len(doc.NodeTypes) == 0 {
		pt.Cost, pt.LowerBound = float64(doc.NodesUsed), float64(doc.LowerBound)
	}
	return pt
}

// scaleDemand returns a copy of d with every request count multiplied by
// m and rounded up to a whole request (⌈count × m⌉, at least 1): the
// forecast m times as large. m > 0.
func scaleDemand(d *datasets.Demand, m float64) *datasets.Demand {
	out := &datasets.Demand{Source: d.Source, Applications: make([]datasets.Application, len(d.Applications))}
	for a, app := range d.Applications {
		app.Requests = append([]datasets.Request(nil), app.Requests...)
		for r := range app.Requests {
			app.Requests[r].Count = max(1, int64(math.Ceil(float64(app.Requests[r].Count)*m)))
		}
		out.Applications[a] = app
	}
	return out
}

// dags schedules the workload's jobs on the cluster's nodes (the example
// workload on the example cluster), leaving out those with a task no
// machine holds.
func (st *planState) dags(b *plan.Bundle, out *stepOut, done func(string, time.Duration)) error {
	t0 := time.Now()
	r, err := DAGSchedule(DAGScheduleOptions{Input: st.dagInput(), Method: "best", Seed: st.o.Seed, Generator: st.o.Generator})
	done(plan.StepDAG, time.Since(t0))
	switch {
	case fatal(err):
		return err
	case err != nil:
		out.warnings = append(out.warnings, stepFailed(plan.StepDAG, err))
		return nil
	}
	b.DAG = r.Doc
	out.steps = append(out.steps, plan.PlanStep{Name: plan.StepDAG, Kind: plan.KindDAGSchedule, File: PlanDAGFile})
	for _, rj := range r.Doc.Rejected {
		out.warnings = append(out.warnings, plan.PlanWarning{Step: plan.StepDAG,
			Message: fmt.Sprintf("job %s cannot run on any machine of the cluster, left out: %s", rj.Job, rj.Reason)})
	}
	return nil
}

// dagInput is the DAG input of the plan's workload: the workload (or the
// example's) on the cluster's nodes, jobs that fit no machine left out.
func (st *planState) dagInput() DAGInput {
	o := st.o
	return DAGInput{Path: o.WorkloadPath, Example: o.Inputs.Example, ClusterPath: o.Inputs.ClusterPath,
		RackLabel: o.Inputs.RackLabel, Workers: o.Workers, RejectUnfit: true}
}
