package xsize

import (
	"fmt"
	"math"
)

// ExactOptions bounds the brute-force solver.
type ExactOptions struct {
	// MaxGrid caps the candidate grid size Π_d (distinct values of d)
	// (default DefaultMaxGrid).
	MaxGrid int64
	// MaxCombinations caps Σ_{k≤K} C(m, k) over the m tight candidates
	// (default DefaultMaxCombinations).
	MaxCombinations float64
}

// Default size guards of Exact.
const (
	DefaultMaxGrid         = 1 << 20
	DefaultMaxCombinations = 1e9
)

// Exact solves the problem optimally, for either Cost, by enumerating
// subsets of at most K tight candidate-grid points (ALGORITHMS.md §1.2: by
// the shrink lemma an optimum uses only tight grid points that fit a node).
// Candidates are taken in increasing cost order, so a request's first
// covering candidate is its cheapest; a branch stops when a candidate adds
// nothing new, and is cut when cost-so-far plus (uncovered weight × cost of
// the next candidate) reaches the incumbent. It returns ErrTooLarge (before
// any search) when the grid or Σ_{k≤K} C(m,k) exceeds the options'
// guards, and ErrInfeasible when no K candidates cover every request.
// Worst case O(C(m,K)·n/64) with m ≤ n^D.
func Exact(p *Problem, o ExactOptions) (*Solution, error) {
	in, err := newInstance(p)
	if err != nil {
		return nil, err
	}
	if o.MaxGrid <= 0 {
		o.MaxGrid = DefaultMaxGrid
	}
	if o.MaxCombinations <= 0 {
		o.MaxCombinations = DefaultMaxCombinations
	}
	cands, err := in.tightGrid(o.MaxGrid)
	if err != nil {
		return nil, err
	}
	if c := combinations(len(cands), in.k); c > o.MaxCombinations {
		return nil, fmt.Errorf("%w: %.3g candidate subsets > %.3g", ErrTooLarge, c, o.MaxCombinations)
	}
	e := &enumerator{in: in, cands: cands, all: full(in.n()), best: math.Inf(1)}
	e.search(0, newBitset(in.n()), 0, nil)
	if e.bestSet == nil {
		return nil, fmt.Errorf("%w: no %d node-fitting shapes cover every request", ErrInfeasible, in.k)
	}
	shapes := make([][]float64, len(e.bestSet))
	for i, c := range e.bestSet {
		shapes[i] = cands[c].shape
	}
	s, err := in.finalize(shapes, "exact")
	if err != nil {
		return nil, err
	}
	s.Optimal = true
	s.LowerBound = s.Cost
	return s, nil
}

// combinations returns Σ_{k=1..K} C(m, k) as a float.
func combinations(m, K int) float64 {
	total, c := 0.0, 1.0
	for k := 1; k <= K && k <= m; k++ {
		c = c * float64(m-k+1) / float64(k)
		total += c
	}
	return total
}

type enumerator struct {
	in      *instance
	cands   []candidate
	all     bitset
	best    float64
	bestSet []int
}

func (e *enumerator) search(from int, covered bitset, cost float64, chosen []int) {
	uncovered := weightAndNot(e.all, covered, e.in.w)
	if uncovered == 0 {
		if cost < e.best {
			e.best = cost
			e.bestSet = append([]int(nil), chosen...)
		}
		return
	}
	if len(chosen) == e.in.k {
		return
	}
	for c := from; c < len(e.cands); c++ {
		cd := e.cands[c]
		// Every later candidate costs at least cd.cost, so this bound holds
		// for the rest of the loop too.
		if cost+uncovered*cd.cost >= e.best {
			return
		}
		add := weightAndNot(cd.cover, covered, e.in.w)
		if add == 0 && cd.cover.subsetOf(covered) {
			continue
		}
		next := make(bitset, len(covered))
		for i := range next {
			next[i] = covered[i] | cd.cover[i]
		}
		e.search(c+1, next, cost+add*cd.cost, append(chosen, c))
	}
}
