package xsize

import (
	"slices"
	"testing"

	"github.com/capplan/capplan/binpack"
)

// checkSolution asserts the invariants every solver must keep: at most K
// shapes, each fitting some node type, every request covered by its
// assigned shape (dominated by it, and the shape fits a node type the
// request may use), which is its cheapest covering shape, and Cost equal
// to an independent recomputation.
func checkSolution(t *testing.T, p *Problem, s *Solution) {
	t.Helper()
	if len(s.Shapes) > p.K {
		t.Fatalf("%d shapes > K = %d", len(s.Shapes), p.K)
	}
	for j, c := range s.Shapes {
		if binpack.FirstFit(c, p.Nodes) < 0 {
			t.Fatalf("shape %d %v fits no node type", j, c)
		}
	}
	cost := func(c []float64) float64 {
		v := 0.0
		for d, x := range c {
			if p.Cost == MaxCost {
				v = max(v, x/p.Scale[d])
			} else {
				v += x / p.Scale[d]
			}
		}
		return v
	}
	// covers is the problem's relation, written out again: c ≥ r and c
	// fits one of the node types r may use.
	covers := func(c []float64, r Request) bool {
		if !binpack.Dominates(c, r.Size) {
			return false
		}
		for n, N := range p.Nodes {
			if (r.Nodes == nil || slices.Contains(r.Nodes, n)) && binpack.Dominates(N, c) {
				return true
			}
		}
		return false
	}
	total := 0.0
	for i, r := range p.Requests {
		j := s.Assign[i]
		if j < 0 || j >= len(s.Shapes) || !covers(s.Shapes[j], r) {
			t.Fatalf("request %d %v (nodes %v) not covered by assigned shape %d", i, r.Size, r.Nodes, j)
		}
		for k, c := range s.Shapes {
			if covers(c, r) && cost(c) < cost(s.Shapes[j]) {
				t.Fatalf("request %d assigned to shape %d but shape %d is cheaper", i, j, k)
			}
		}
		total += r.Weight * cost(s.Shapes[j])
	}
	if !approxEq(total, s.Cost) {
		t.Fatalf("Cost %v, recomputed %v", s.Cost, total)
	}
	if s.LowerBound > s.Cost*(1+1e-9) {
		t.Fatalf("LowerBound %v > Cost %v", s.LowerBound, s.Cost)
	}
}
