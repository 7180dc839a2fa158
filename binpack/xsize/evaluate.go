package xsize

import (
	"fmt"
	"slices"
)

// Evaluate assigns every request to its cheapest covering shape (one that
// dominates it and, when Request.Nodes limits it, fits a node type it may
// use; ties → lowest index) and returns Σ w·cost(shape). Dominance is
// decided on exact real-unit values. It returns an error wrapping
// ErrInvalid if the Problem or a shape is malformed, and one wrapping
// ErrInfeasible (naming the request) if some request has no covering
// shape. Whether an unused shape fits a node is not checked here. Cost
// O(|Requests|·|shapes|·D·|node types|).
func Evaluate(p *Problem, shapes [][]float64) (assign []int, cost float64, err error) {
	in, err := newInstance(p)
	if err != nil {
		return nil, 0, err
	}
	for j, s := range shapes {
		if len(s) != in.dim {
			return nil, 0, &InputError{"shapes", j, -1, fmt.Sprintf("%d values for %d dimensions", len(s), in.dim)}
		}
	}
	cls, cost, err := in.evaluate(shapes)
	if err != nil {
		return nil, 0, err
	}
	return in.requestAssign(cls), cost, nil
}

// evaluate assigns classes to shapes and returns the total cost.
func (in *instance) evaluate(shapes [][]float64) ([]int, float64, error) {
	costs := make([]float64, len(shapes))
	for j, s := range shapes {
		costs[j] = in.costOf(s)
	}
	cls := in.assign(shapes, costs)
	total := 0.0
	for i, j := range cls {
		if j < 0 {
			return nil, 0, fmt.Errorf("%w: request class %v fits no shape", ErrInfeasible, in.size[i])
		}
		total += in.w[i] * costs[j]
	}
	return cls, total, nil
}

// assign returns, per class, its cheapest covering shape (ties → lowest
// index), or -1.
func (in *instance) assign(shapes [][]float64, costs []float64) []int {
	cls := make([]int, in.n())
	for i := range in.size {
		cls[i] = in.cheapest(i, shapes, costs)
	}
	return cls
}

func (in *instance) requestAssign(cls []int) []int {
	out := make([]int, len(in.class))
	for r, c := range in.class {
		out[r] = cls[c]
	}
	return out
}

// finalize turns any covering set of node-fitting shapes into a Solution:
// it alternates assignment (cheapest covering shape) and the shrink lemma
// (each shape becomes the coordinate-wise max of its members; ALGORITHMS.md
// §1.2) until nothing changes. Neither step raises the cost and every shape
// only shrinks, so the loop ends; shrunk shapes still fit their node
// types, so they still cover their members.
// Empty and duplicate shapes are dropped and the rest sorted.
func (in *instance) finalize(shapes [][]float64, method string) (*Solution, error) {
	cur := make([][]float64, 0, len(shapes))
	for _, s := range shapes {
		if !in.fitsNode(s) {
			return nil, fmt.Errorf("xsize: internal error: candidate shape %v fits no node type", s)
		}
		cur = append(cur, slices.Clone(s))
	}
	for {
		costs := make([]float64, len(cur))
		for j, s := range cur {
			costs[j] = in.costOf(s)
		}
		cls := in.assign(cur, costs)
		next := make([][]float64, len(cur))
		for i, j := range cls {
			if j < 0 {
				return nil, fmt.Errorf("%w: request class %v fits no shape", ErrInfeasible, in.size[i])
			}
			if next[j] == nil {
				next[j] = make([]float64, in.dim)
			}
			for d, x := range in.size[i] {
				next[j][d] = max(next[j][d], x)
			}
		}
		next = slices.DeleteFunc(next, func(s []float64) bool { return s == nil })
		if slices.EqualFunc(next, cur, slices.Equal) {
			break
		}
		cur = next
	}
	slices.SortFunc(cur, in.compareShapes)
	cur = slices.CompactFunc(cur, slices.Equal)
	cls, cost, err := in.evaluate(cur)
	if err != nil {
		return nil, err
	}
	return &Solution{Shapes: cur, Assign: in.requestAssign(cls), Cost: cost, Method: method}, nil
}
