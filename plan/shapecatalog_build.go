package plan

import (
	"fmt"
	"math"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/datasets"
)

// ShapeInput is the X-Size problem of a cluster and a demand, with what is
// needed to map a solution back to the inputs.
type ShapeInput struct {
	Problem *xsize.Problem
	// Units[d] converts base units to the problem's units (1, or 1000 for a
	// dimension with sub-unit quantities such as 500m cpu): every value in
	// Problem is an integer in those units, so fits are decided exactly.
	Units []float64
	// Classes describes each Problem.Requests entry.
	Classes []ShapeClass
	// Groups names the node groups of each Problem.Nodes entry.
	Groups [][]string
	// WeightBy is "count" or "duration".
	WeightBy string
}

// ShapeClass is one request class: an application's request shape.
type ShapeClass struct {
	Application string
	Count       int64
	Duration    float64
}

// exactFloat is the largest integer up to which float64 is exact.
const exactFloat = 1 << 53

// NewShapeInput builds the X-Size problem: dimensions are the cluster's
// resources with non-zero aggregate capacity (the normalisation Scale),
// one request per (application, request shape) weighted by its count (or
// count × duration when byDuration), and the distinct node capacities.
func NewShapeInput(c *datasets.Cluster, d *datasets.Demand, k int, cost xsize.Cost, byDuration bool) (*ShapeInput, error) {
	in := &ShapeInput{WeightBy: "count"}
	if byDuration {
		in.WeightBy = "duration"
	}
	// Dimensions with capacity somewhere, and their exact units.
	var dims []int
	for i := range c.Resources {
		for _, g := range c.Groups {
			if !g.Capacity[i].IsZero() {
				dims = append(dims, i)
				break
			}
		}
	}
	p := &xsize.Problem{K: k, Cost: cost}
	in.Units = make([]float64, len(dims))
	for j, i := range dims {
		res := c.Resources[i]
		p.Dims = append(p.Dims, res)
		in.Units[j] = exactUnit(c.Groups, i, d, res)
	}
	value := func(j int, q resource.Quantity) (float64, error) {
		v := float64(q.MilliValue())
		if in.Units[j] == 1 {
			v = float64(q.Value())
		}
		if v >= exactFloat {
			return 0, fmt.Errorf("%s quantity %s is too large for exact shape sizing", p.Dims[j], q.String())
		}
		return v, nil
	}
	// Node capacities: distinct vectors, in group order.
	index := map[string]int{}
	p.Scale = make([]float64, len(dims))
	for _, g := range c.Groups {
		vec := make([]float64, len(dims))
		for j, i := range dims {
			v, err := value(j, g.Capacity[i])
			if err != nil {
				return nil, err
			}
			vec[j] = v
			p.Scale[j] += v * float64(g.Count)
		}
		key := fmt.Sprint(vec)
		n, ok := index[key]
		if !ok {
			n = len(p.Nodes)
			index[key] = n
			p.Nodes = append(p.Nodes, vec)
			in.Groups = append(in.Groups, nil)
		}
		in.Groups[n] = append(in.Groups[n], g.Name)
	}
	for _, a := range d.Applications {
		for ri, r := range a.Requests {
			size := make([]float64, len(dims))
			for res, q := range r.Shape {
				j := indexOf(p.Dims, res)
				if j < 0 {
					return nil, fmt.Errorf("%s: application %s request %d asks for %s, which no node has", d.Source, a.Name, ri, res)
				}
				v, err := value(j, q)
				if err != nil {
					return nil, err
				}
				size[j] = v
			}
			w := float64(r.Count)
			if byDuration {
				if r.Duration <= 0 {
					return nil, fmt.Errorf("%s: applications %s: requests[%d] has no duration; weighting by duration needs one on every request", d.Source, a.Name, ri)
				}
				w *= r.Duration
			}
			p.Requests = append(p.Requests, xsize.Request{Size: size, Weight: w, Label: a.Name})
			in.Classes = append(in.Classes, ShapeClass{Application: a.Name, Count: r.Count, Duration: r.Duration})
		}
	}
	if len(p.Requests) == 0 {
		return nil, fmt.Errorf("%s: no application has requests: X-Size needs a request profile", d.Source)
	}
	in.Problem = p
	return in, nil
}

// exactUnit returns 1 when every capacity (of groups, in resource i) and
// every request quantity of res is a whole number of base units, else 1000
// (milli-units): in that unit every value is an integer, so fits can be
// decided exactly.
func exactUnit(groups []datasets.NodeGroup, i int, d *datasets.Demand, res string) float64 {
	for _, g := range groups {
		if g.Capacity[i].MilliValue()%1000 != 0 {
			return 1000
		}
	}
	for _, a := range d.Applications {
		for _, r := range a.Requests {
			if q, ok := r.Shape[res]; ok && q.MilliValue()%1000 != 0 {
				return 1000
			}
		}
	}
	return 1
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// Granularity converts per-resource rounding quantities (e.g. cpu=1,
// memory=1Gi) into the problem's units, one entry per dimension (0 = no
// rounding).
func (in *ShapeInput) Granularity(round map[string]resource.Quantity) ([]float64, error) {
	g := make([]float64, len(in.Problem.Dims))
	for res, q := range round {
		j := indexOf(in.Problem.Dims, res)
		if j < 0 {
			return nil, fmt.Errorf("rounding names %q, not a dimension of this problem (%v)", res, in.Problem.Dims)
		}
		if q.Sign() <= 0 {
			return nil, fmt.Errorf("rounding for %s must be positive, got %s", res, q.String())
		}
		g[j] = float64(q.MilliValue()) / 1000 * in.Units[j]
	}
	return g, nil
}

// NewShapeCatalog builds the ShapeCatalog document of a solution.
func NewShapeCatalog(h Header, in *ShapeInput, sol *xsize.Solution, granularity []float64) *ShapeCatalog {
	p := in.Problem
	h.APIVersion, h.Kind = APIVersion, KindShapeCatalog
	doc := &ShapeCatalog{
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
		sh := Shape{Name: names[s], Size: map[string]float64{}, Cost: shapeCost(p, shape)}
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
		a := Assignment{Application: cl.Application, Request: map[string]float64{}, Count: cl.Count, Duration: cl.Duration, Shape: names[s]}
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
		step := ShapeStep{Epsilon: st.Eps, Rays: st.Rays, States: st.States, Outcome: st.Status}
		if !math.IsNaN(st.Cost) && !math.IsInf(st.Cost, 0) {
			step.Cost = st.Cost
		}
		doc.Steps = append(doc.Steps, step)
	}
	return doc
}

type wasteAcc struct{ requested, allocated float64 }

func wastes(dims []string, acc []wasteAcc) []Waste {
	out := make([]Waste, len(dims))
	for j, dim := range dims {
		w := Waste{Resource: dim, Requested: acc[j].requested, Allocated: acc[j].allocated}
		w.Wasted = w.Allocated - w.Requested
		if w.Requested > 0 {
			w.Percent = 100 * w.Wasted / w.Requested
		}
		out[j] = w
	}
	return out
}

func shapeCost(p *xsize.Problem, shape []float64) float64 {
	var sum, mx float64
	for j, v := range shape {
		f := v / p.Scale[j]
		sum += f
		mx = math.Max(mx, f)
	}
	if p.Cost == xsize.MaxCost {
		return mx
	}
	return sum
}

// CheckCatalog verifies a catalog independently of the solver that made
// it, with exact comparisons: at most K shapes, every shape fits at least
// one node type, and every request fits its assigned shape.
func CheckCatalog(p *xsize.Problem, s *xsize.Solution) error {
	if len(s.Shapes) > p.K {
		return fmt.Errorf("catalog has %d shapes, K is %d", len(s.Shapes), p.K)
	}
	for i, sh := range s.Shapes {
		fits := false
		for _, n := range p.Nodes {
			fits = fits || binpack.Dominates(n, sh)
		}
		if !fits {
			return fmt.Errorf("shape %d %v fits no node type", i+1, sh)
		}
	}
	if len(s.Assign) != len(p.Requests) {
		return fmt.Errorf("catalog assigns %d of %d requests", len(s.Assign), len(p.Requests))
	}
	for r, req := range p.Requests {
		if a := s.Assign[r]; a < 0 || a >= len(s.Shapes) || !binpack.Dominates(s.Shapes[a], req.Size) {
			return fmt.Errorf("request %d %v does not fit its shape", r, req.Size)
		}
	}
	return nil
}
