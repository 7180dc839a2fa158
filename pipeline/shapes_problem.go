package pipeline

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/datasets"
)

// shapeInput is the X-Size problem of a cluster and a demand, with what is
// needed to map a solution back to the inputs.
type shapeInput struct {
	Problem *xsize.Problem
	// Units[d] converts base units to the problem's units (1, or 1000 for a
	// dimension with sub-unit quantities such as 500m cpu): every value in
	// Problem is an integer in those units, so fits are decided exactly.
	Units []float64
	// Classes describes each Problem.Requests entry.
	Classes []shapeClass
	// Groups names the node groups of each Problem.Nodes entry.
	Groups [][]string
	// WeightBy is "count" or "duration".
	WeightBy string
}

// shapeClass is one request class: an application's request shape.
type shapeClass struct {
	Application string
	Count       int64
	Duration    float64
}

// exactFloat is the largest integer up to which float64 is exact.
const exactFloat = 1 << 53

// newShapeInput builds the X-Size problem: dimensions are the cluster's
// resources with non-zero aggregate capacity (the normalisation Scale),
// one request per (application, request shape) weighted by its count (or
// count × duration when byDuration), limited to the node capacities of the
// machine types its application may use (selector, minCapacity,
// tolerations: datasets.Coalesce), and the distinct node capacities.
func newShapeInput(c *datasets.Cluster, d *datasets.Demand, k int, cost xsize.Cost, byDuration bool) (*shapeInput, error) {
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		return nil, err
	}
	in := &shapeInput{WeightBy: "count"}
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
	groupNode := map[string]int{}
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
		groupNode[g.Name] = n
	}
	for ai, a := range d.Applications {
		nodes := eligibleNodes(inst, ai, groupNode, len(p.Nodes))
		for ri, r := range a.Requests {
			size := make([]float64, len(dims))
			for res, q := range r.Shape {
				j := slices.Index(p.Dims, res)
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
			p.Requests = append(p.Requests, xsize.Request{Size: size, Weight: w, Label: a.Name, Nodes: nodes})
			in.Classes = append(in.Classes, shapeClass{Application: a.Name, Count: r.Count, Duration: r.Duration})
		}
	}
	if len(p.Requests) == 0 {
		return nil, fmt.Errorf("%s: no application has requests: X-Size needs a request profile", d.Source)
	}
	in.Problem = p
	return in, nil
}

// eligibleNodes returns the indices of the node capacities application a
// of inst may use (those of the node groups of its eligible machine
// types), or nil when it may use all n.
func eligibleNodes(inst *datasets.Instance, a int, groupNode map[string]int, n int) []int {
	ok := make([]bool, n)
	for _, t := range inst.Applications[a].Types {
		for _, g := range inst.Types[t].Groups {
			ok[groupNode[g]] = true
		}
	}
	var out []int
	for j, yes := range ok {
		if yes {
			out = append(out, j)
		}
	}
	switch len(out) {
	case n:
		return nil
	case 0:
		return []int{} // none: xsize refuses the request
	}
	return out
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

// granularity converts per-resource rounding quantities (e.g. cpu=1,
// memory=1Gi) into the problem's units, one entry per dimension (0 = no
// rounding).
func (in *shapeInput) granularity(round map[string]resource.Quantity) ([]float64, error) {
	g := make([]float64, len(in.Problem.Dims))
	for res, q := range round {
		j := slices.Index(in.Problem.Dims, res)
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
