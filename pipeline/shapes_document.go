package pipeline

import (
	"fmt"
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/plan"
)

// newShapeCatalog builds the ShapeCatalog document of a solution.
func newShapeCatalog(h plan.Header, in *shapeInput, sol *xsize.Solution, granularity []float64) *plan.ShapeCatalog {
	p := in.Problem
	h.APIVersion, h.Kind = plan.APIVersion, plan.KindShapeCatalog
	doc := &plan.ShapeCatalog{
		Header:       h,
		Resources:    p.Dims,
		Scale:        map[string]float64{},
		K:            p.K,
		Method:       sol.Method,
		CostFunction: "sum",
		WeightBy:     in.WeightBy,
		Cost:         sol.Cost,
		LowerBound:   sol.LowerBound,
		Epsilon:      sol.Epsilon,
		Optimal:      sol.Optimal,
	}
	if p.Cost == xsize.MaxCost {
		doc.CostFunction = "max"
	}
	if sol.LowerBound > 0 {
		doc.Ratio = sol.Cost / sol.LowerBound
	}
	base := func(j int, v float64) float64 { return v / in.Units[j] }
	for j, dim := range p.Dims {
		doc.Scale[dim] = base(j, p.Scale[j])
		if granularity != nil && granularity[j] > 0 {
			if doc.Rounding == nil {
				doc.Rounding = map[string]float64{}
			}
			doc.Rounding[dim] = base(j, granularity[j])
		}
	}
	names := make([]string, len(sol.Shapes))
	perShape := make([][]wasteAcc, len(sol.Shapes))
	total := make([]wasteAcc, len(p.Dims))
	for s, shape := range sol.Shapes {
		names[s] = fmt.Sprintf("s%d", s+1)
		perShape[s] = make([]wasteAcc, len(p.Dims))
		sh := plan.Shape{Name: names[s], Size: map[string]float64{}, Cost: shapeCost(p, shape)}
		for j, dim := range p.Dims {
			sh.Size[dim] = base(j, shape[j])
		}
		for n, cap := range p.Nodes {
			if binpack.Dominates(cap, shape) {
				sh.Fits = append(sh.Fits, in.Groups[n]...)
			}
		}
		sort.Strings(sh.Fits)
		doc.Shapes = append(doc.Shapes, sh)
	}
	for r, req := range p.Requests {
		s := sol.Assign[r]
		cl := in.Classes[r]
		a := plan.Assignment{Application: cl.Application, Request: map[string]float64{}, Count: cl.Count, Duration: cl.Duration, Shape: names[s]}
		for j, dim := range p.Dims {
			if req.Size[j] != 0 {
				a.Request[dim] = base(j, req.Size[j])
			}
			n := float64(cl.Count)
			for _, acc := range []*wasteAcc{&perShape[s][j], &total[j]} {
				acc.requested += n * base(j, req.Size[j])
				acc.allocated += n * base(j, sol.Shapes[s][j])
			}
		}
		doc.Shapes[s].Requests += float64(cl.Count)
		doc.Shapes[s].Classes++
		doc.Assignments = append(doc.Assignments, a)
	}
	for s := range doc.Shapes {
		doc.Shapes[s].Waste = wastes(p.Dims, perShape[s])
	}
	doc.Waste = wastes(p.Dims, total)
	for _, st := range sol.Steps {
		step := plan.ShapeStep{Epsilon: st.Eps, Rays: st.Rays, States: st.States, Outcome: st.Status}
		if !math.IsNaN(st.Cost) && !math.IsInf(st.Cost, 0) {
			step.Cost = st.Cost
		}
		doc.Steps = append(doc.Steps, step)
	}
	return doc
}

type wasteAcc struct{ requested, allocated float64 }

func wastes(dims []string, acc []wasteAcc) []plan.Waste {
	out := make([]plan.Waste, len(dims))
	for j, dim := range dims {
		w := plan.Waste{Resource: dim, Requested: acc[j].requested, Allocated: acc[j].allocated}
		w.Wasted = w.Allocated - w.Requested
		if w.Requested > 0 {
			w.Percent = 100 * w.Wasted / w.Requested
		}
		out[j] = w
	}
	return out
}

func shapeCost(p *xsize.Problem, shape []float64) float64 {
	return binpack.ShapeCost(shape, p.Scale, p.Cost)
}
