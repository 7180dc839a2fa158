package xsize

import (
	"math"
	"slices"

	"github.com/capplan/capplan/binpack/internal/work"
)

// lsTol: LocalSearch accepts a move only if it lowers the cost by more than
// this fraction, so float noise cannot make it cycle.
const lsTol = 1e-12

// lsState is a catalog of K slots (nil = free) with, per class, its
// cheapest (best) and second-cheapest dominating slot, so that replacing
// one slot is priced in O(n·D) (the usual k-median swap bookkeeping).
// Pricing charges w: n units per swap priced, n·K per re-assignment
// (LocalOptions.MaxWork); once w is done, try accepts no move.
type lsState struct {
	in           *instance
	w            *work.Counter
	shapes       [][]float64
	cost         []float64
	best, second []int
	total        float64
}

func newLSState(in *instance, shapes [][]float64, w *work.Counter) *lsState {
	s := &lsState{in: in, w: w, shapes: make([][]float64, in.k), cost: make([]float64, in.k),
		best: make([]int, in.n()), second: make([]int, in.n())}
	for j, g := range shapes {
		s.shapes[j] = slices.Clone(g)
	}
	s.settle()
	return s
}

// recompute refreshes costs, best/second and the total (+Inf if a class is
// uncovered).
func (s *lsState) recompute() {
	for j, g := range s.shapes {
		s.cost[j] = math.Inf(1)
		if g != nil {
			s.cost[j] = s.in.costOf(g)
		}
	}
	s.total = 0
	s.w.Add(len(s.in.size) * len(s.shapes))
	for i := range s.in.size {
		b, c := -1, -1
		for j, g := range s.shapes {
			if g == nil || !s.in.covers(g, i) {
				continue
			}
			switch {
			case b < 0 || s.cost[j] < s.cost[b]:
				b, c = j, b
			case c < 0 || s.cost[j] < s.cost[c]:
				c = j
			}
		}
		s.best[i], s.second[i] = b, c
		if b < 0 {
			s.total = math.Inf(1)
		} else {
			s.total += s.in.w[i] * s.cost[b]
		}
	}
}

// settle alternates assignment and shrinking (each slot becomes the max of
// its members; empty slots are freed) until nothing changes.
func (s *lsState) settle() {
	for {
		s.recompute()
		if math.IsInf(s.total, 1) {
			return
		}
		next := make([][]float64, len(s.shapes))
		for i, j := range s.best {
			if next[j] == nil {
				next[j] = make([]float64, s.in.dim)
			}
			for d, x := range s.in.size[i] {
				next[j][d] = max(next[j][d], x)
			}
		}
		if slices.EqualFunc(next, s.shapes, slices.Equal) {
			return
		}
		s.shapes = next
	}
}

// delta returns the cost change if slot j is replaced by g (nil frees it).
func (s *lsState) delta(j int, g []float64) float64 {
	cg := math.Inf(1)
	if g != nil {
		cg = s.in.costOf(g)
	}
	d := 0.0
	s.w.Add(len(s.in.size))
	for i := range s.in.size {
		cur := s.cost[s.best[i]]
		nw := cur
		if s.best[i] == j {
			nw = math.Inf(1)
			if s.second[i] >= 0 {
				nw = s.cost[s.second[i]]
			}
		}
		if cg < nw && s.in.covers(g, i) {
			nw = cg
		}
		if math.IsInf(nw, 1) {
			return math.Inf(1)
		}
		d += s.in.w[i] * (nw - cur)
	}
	return d
}

// try replaces slot j by g and settles if that lowers the cost.
func (s *lsState) try(j int, g []float64) bool {
	if s.w.Done() || (g != nil && !s.in.fitsNode(g)) {
		return false
	}
	if s.delta(j, g) >= -lsTol*s.total {
		return false
	}
	s.shapes[j] = slices.Clone(g)
	s.settle()
	return true
}

// members returns the classes whose cheapest slot is j.
func (s *lsState) members(j int) []int {
	var out []int
	for i, b := range s.best {
		if b == j {
			out = append(out, i)
		}
	}
	return out
}

func (s *lsState) snapshot() [][]float64 {
	var out [][]float64
	for _, g := range s.shapes {
		if g != nil {
			out = append(out, slices.Clone(g))
		}
	}
	return out
}
