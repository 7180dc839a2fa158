package pipeline

import (
	"fmt"
	"slices"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xsize"
)

// checkCatalog verifies a catalog independently of the solver that made
// it, with exact comparisons: at most K shapes, every shape fits at least
// one node type, and every request fits its assigned shape, which fits a
// node type the request may use (its application's placement
// constraints).
func checkCatalog(p *xsize.Problem, s *xsize.Solution) error {
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
		a := s.Assign[r]
		if a < 0 || a >= len(s.Shapes) || !binpack.Dominates(s.Shapes[a], req.Size) {
			return fmt.Errorf("request %d %v does not fit its shape", r, req.Size)
		}
		usable := false
		for n, node := range p.Nodes {
			usable = usable || (req.Nodes == nil || slices.Contains(req.Nodes, n)) && binpack.Dominates(node, s.Shapes[a])
		}
		if !usable {
			return fmt.Errorf("request %d %v (%s) is assigned shape %d %v, which fits no node type %s may use", r, req.Size, req.Label, a+1, s.Shapes[a], req.Label)
		}
	}
	return nil
}
