package xsize

import (
	"fmt"
	"math"
	"slices"

	"github.com/capplan/capplan/binpack"
)

// Round rounds every shape of s up to a multiple of granularity (per
// dimension, real units; 0 leaves that dimension as is), e.g. cpu to whole
// cores and memory to GiB, without breaking dominance or node fit:
//
//  1. up_d = ⌈c_d/g_d⌉·g_d ≥ c_d keeps every request the shape held;
//  2. if up fits no node type (with placement constraints: if some request
//     assigned to the shape loses every node type it may use), then for
//     each node type N that c fits (with constraints: each meet of node
//     types, eligibility.go), each dimension with up_d > N_d falls back to
//     the largest multiple of g_d that is ≤ N_d and still ≥ the max of the
//     requests assigned to the shape, or else to c_d; the cheapest such
//     result (ties → first) that still serves every assigned request is
//     kept (c itself, at worst). It fits N and dominates the assigned
//     requests.
//
// The rounded catalog is sorted and deduplicated, and Assign and Cost are
// recomputed by Evaluate (so requests may move to a now-cheaper shape). The
// other fields of s are kept; Optimal is re-derived from LowerBound. It
// returns an error wrapping ErrInvalid if granularity or s does not match p.
func Round(p *Problem, s *Solution, granularity []float64) (*Solution, error) {
	in, err := newInstance(p)
	if err != nil {
		return nil, err
	}
	if len(granularity) != in.dim {
		return nil, &InputError{"granularity", -1, -1, fmt.Sprintf("%d values for %d dimensions", len(granularity), in.dim)}
	}
	for d, g := range granularity {
		if !finite(g) || g < 0 {
			return nil, &InputError{"granularity", -1, d, fmt.Sprintf("value %g, want finite ≥ 0", g)}
		}
	}
	if len(s.Assign) != len(p.Requests) {
		return nil, &InputError{"Assign", -1, -1, fmt.Sprintf("%d entries for %d requests", len(s.Assign), len(p.Requests))}
	}
	members := make([][]float64, len(s.Shapes)) // max of the assigned requests
	classes := make([][]int, len(s.Shapes))     // their classes
	for r, j := range s.Assign {
		if j < 0 || j >= len(s.Shapes) || !binpack.Dominates(s.Shapes[j], p.Requests[r].Size) {
			return nil, &InputError{"Assign", r, -1, "request not held by its assigned shape"}
		}
		if members[j] == nil {
			members[j] = make([]float64, in.dim)
		}
		for d, x := range p.Requests[r].Size {
			members[j][d] = max(members[j][d], x)
		}
		classes[j] = append(classes[j], in.class[r])
	}
	var shapes [][]float64
	for j, c := range s.Shapes {
		if len(c) != in.dim || !in.fitsNode(c) {
			return nil, &InputError{"Shapes", j, -1, "shape has the wrong length or fits no node type"}
		}
		if members[j] == nil {
			continue // holds no request
		}
		shapes = append(shapes, in.roundShape(c, members[j], classes[j], granularity))
	}
	slices.SortFunc(shapes, in.compareShapes)
	shapes = slices.CompactFunc(shapes, slices.Equal)
	cls, cost, err := in.evaluate(shapes)
	if err != nil {
		return nil, err
	}
	out := *s
	out.Shapes, out.Assign, out.Cost = shapes, in.requestAssign(cls), cost
	out.Optimal = cost <= out.LowerBound*(1+optTol)
	return &out, nil
}

// roundShape rounds c (which fits a node, dominates need and serves the
// classes members) as Round says.
func (in *instance) roundShape(c, need []float64, members []int, gran []float64) []float64 {
	up := make([]float64, in.dim)
	for d, x := range c {
		up[d] = roundUp(x, gran[d])
	}
	serves := func(r []float64) bool {
		for _, i := range members {
			if !in.eligible(r, i) {
				return false
			}
		}
		return true
	}
	if in.fitsNode(up) && (!in.constrained || serves(up)) {
		return up
	}
	tops := in.p.Nodes
	if in.constrained {
		tops = in.tops
	}
	var best []float64
	for _, N := range tops {
		if !binpack.Dominates(N, c) {
			continue
		}
		r := slices.Clone(up)
		for d := range r {
			if r[d] <= N[d] {
				continue
			}
			r[d] = c[d]
			if g := gran[d]; g > 0 {
				if m := roundDown(N[d], g); m >= need[d] {
					r[d] = m
				}
			}
		}
		if in.constrained && !serves(r) {
			continue
		}
		if best == nil || in.costOf(r) < in.costOf(best) {
			best = r
		}
	}
	if best == nil { // constrained, and no clipped rounding serves the members
		return slices.Clone(c)
	}
	return best
}

// roundUp returns the smallest multiple of g that is ≥ x (x if g = 0). The
// correction loop guards against x/g rounding down to an integer.
func roundUp(x, g float64) float64 {
	if g == 0 {
		return x
	}
	m := math.Ceil(x/g) * g
	for m < x {
		m += g
	}
	return m
}

// roundDown returns the largest multiple of g that is ≤ x.
func roundDown(x, g float64) float64 {
	m := math.Floor(x/g) * g
	for m > x {
		m -= g
	}
	return m
}
