package vbp

import (
	"math/rand/v2"
	"sort"

	"github.com/capplan/capplan/binpack/internal/work"
)

// searcher is the state of the consistent neighbourhood search of search:
// a partial packing into a fixed set of feasible bins plus a pool of
// unpacked items that must end up fitting into k spare bins.
type searcher struct {
	p     *problem
	rng   *rand.Rand
	bins  [][]int
	loads [][]int64
	pool  []int
	k     int   // the pool must fit into k bins
	tabu  []int // tabu[i] > iter: item i may not leave its bin
	iter  int
	w     *work.Counter // the run's work counter
	stop  int64         // the search ends when w reaches it
	wt    []float64     // item weight in the pool objective (one of weights)
	// weights are the alternative item weights, used in turn by
	// successive attempts.
	weights [2][]float64
	// subs[b] caches the removable subsets of bin b by increasing
	// weight; nil after bin b changed.
	subs   [][]subset
	none   [1]subset
	anyNeg bool
	// scratch
	tmp, tmp2 []int64
	minS      []int64
}

// subset is one or two positions of a bin's items (−1 unused) and their
// total weight.
type subset struct {
	o    [2]int
	outW float64
}

// Search parameters, tuned on the Panigrahy set (see quality_test.go).
const (
	// searchRemove is how many bins an attempt empties into the pool;
	// the pool must then fit into searchRemove−1 bins.
	searchRemove = 3
	// searchStall is how many tabu iterations without a lighter pool
	// trigger the pack descent and, when that does not help either, end
	// an attempt.
	searchStall = 400
	// The tabu tenure is tenureMin + U[0, max(tenureSpread, B/tenureDiv))
	// iterations, B the number of bins.
	tenureMin, tenureSpread, tenureDiv = 8, 24, 3
	// maxPairPool bounds the pool size for which moves take two pool
	// items at once.
	maxPairPool = 24
	// descentPasses bounds the passes of descent: one pass helps a
	// little, more cost more than they give.
	descentPasses = 1
)

// search tries to remove bins from the complete packing pk with the
// consistent neighbourhood search of Buljubašić & Vasquez ("Consistent
// neighborhood search for one-dimensional bin packing and two-dimensional
// vector packing", Computers & OR 76, 2016). To go from m to m−1 bins it
// empties three bins into a pool and searches, over feasible partial
// packings of the other m−3 bins, for one whose pool fits into two bins
// (checked exactly by a small depth-first search). Each attempt alternates
//
//  1. tabu search with swap moves that exchange zero, one or two items of
//     a bin for one or two pool items, keeping the bin feasible, choosing
//     the largest decrease of the pool weight Σ wt (ties: larger pool,
//     then the seeded generator; a tabu item may leave its bin only for a
//     new best pool); items entering a bin are tabu for a while;
//  2. when the tabu search stalls, a descent that repacks each bin with
//     the heaviest subset of its items and the pool that fits (a small
//     knapsack).
//
// The first attempt after each success starts with one pass of a descent
// that concentrates the free room (see descent) and empties the least
// filled bins; a failed attempt (searchStall iterations without a lighter pool
// after the pack descent) restarts from the best packing with other
// weakly filled bins emptied. Successive attempts alternate two item
// weights over the normalised sizes w_k, where t_k is dimension k's total
// demand relative to the largest (so that tight dimensions count most):
//
//	quadratic: (Σ_k t_k⁴ w_k)² + d·Σ_k t_k⁴ w_k²   (keeps small items in the pool)
//	linear:    Σ_k t_k⁸ w_k                        (fills the tight dimensions)
//
// On the Panigrahy instances, the quadratic weight alone removes more bins
// from large instances, the linear one alone reaches the optimum more
// often on small ones, and the alternation does at least as well as the
// better of the two on both counts.
//
// The search stops at lb bins or when w reaches stop (one work unit is
// about one bin or one fit test scanned), so it is deterministic for a
// given rng. The result is never worse than pk, and every bin stays
// feasible throughout.
func (p *problem) search(pk Packing, lb int, rng *rand.Rand, w *work.Counter, stop int64) Packing {
	best := pk
	if len(best) <= lb || len(best) < 2 || p.n == 0 {
		return best
	}
	s := &searcher{p: p, rng: rng, w: w, stop: stop, tabu: make([]int, p.n), tmp: make([]int64, p.d), tmp2: make([]int64, p.d)}
	for _, ng := range p.neg {
		s.anyNeg = s.anyNeg || ng
	}
	s.setWeights()
	fails := 0
	for len(best) > lb && !s.w.Over(s.stop) {
		s.wt = s.weights[fails%2]
		s.reset(best, fails)
		if pk, ok := s.run(); ok {
			best = pk
			fails = 0
		} else {
			fails++
		}
	}
	return best
}

// setWeights computes the two item weights of search.
func (s *searcher) setWeights() {
	p := s.p
	t := make([]float64, p.d)
	for i := range p.w {
		for k, w := range p.w[i] {
			t[k] += w
		}
	}
	top := 0.0
	for _, v := range t {
		top = max(top, v)
	}
	for k := range t {
		v := 1.0
		if top > 0 {
			v = max(0, t[k]/top)
		}
		v *= v
		t[k] = v * v // t_k⁴
	}
	quad, lin := make([]float64, p.n), make([]float64, p.n)
	for i := range quad {
		v, q, l := 0.0, 0.0, 0.0
		for k, w := range p.w[i] {
			v += t[k] * w
			q += t[k] * w * w
			l += t[k] * t[k] * w
		}
		quad[i] = v*v + float64(p.d)*q
		lin[i] = l
	}
	s.weights = [2][]float64{quad, lin}
	s.w.Add(p.n * p.d / 4)
}

// reset loads pk and empties min(searchRemove, len(pk)) bins into the
// pool: on the first attempt the least filled ones after a descent, later
// a random choice among the weakest, a window that widens with the number
// of failed attempts.
func (s *searcher) reset(pk Packing, attempt int) {
	p := s.p
	s.bins = s.bins[:0]
	for _, b := range pk {
		s.bins = append(s.bins, append([]int(nil), b...))
	}
	s.loads = p.loads(s.bins)
	s.w.Add(len(s.bins))
	r := min(searchRemove, len(s.bins))
	s.k = r - 1
	if attempt == 0 {
		s.descent()
	}
	order := make([]int, len(s.bins))
	vol := make([]float64, len(s.bins))
	for b := range order {
		order[b] = b
		vol[b] = p.binVol(s.loads[b])
	}
	sort.SliceStable(order, func(a, b int) bool { return vol[order[a]] < vol[order[b]] })
	drop := order[:r]
	if attempt > 0 {
		w := min(len(order), r+2+attempt)
		cand := append([]int(nil), order[:w]...)
		for j := 0; j < r; j++ {
			x := j + s.rng.IntN(len(cand)-j)
			cand[j], cand[x] = cand[x], cand[j]
		}
		drop = cand[:r]
	}
	isDrop := make([]bool, len(s.bins))
	for _, b := range drop {
		isDrop[b] = true
	}
	s.pool = s.pool[:0]
	nb, nl := s.bins[:0], s.loads[:0]
	for b := range isDrop {
		if isDrop[b] {
			s.pool = append(s.pool, s.bins[b]...)
		}
	}
	for b := range isDrop {
		if !isDrop[b] {
			nb = append(nb, s.bins[b])
			nl = append(nl, s.loads[b])
		}
	}
	s.bins, s.loads = nb, nl
	for i := range s.tabu {
		s.tabu[i] = 0
	}
	s.iter = 0
	s.none[0] = subset{[2]int{-1, -1}, 0}
	s.subs = s.subs[:0]
	for range s.bins {
		s.subs = append(s.subs, nil)
	}
}

func (s *searcher) poolWeight() float64 {
	v := 0.0
	for _, i := range s.pool {
		v += s.wt[i]
	}
	return v
}

// run searches until the pool fits into k bins (returning the complete
// packing) or the attempt stalls or the budget is spent.
func (s *searcher) run() (Packing, bool) {
	bestW, lastImp := s.poolWeight(), 0
	descended := false
	for !s.w.Over(s.stop) {
		if extra, ok := s.poolPacks(); ok {
			out := make(Packing, 0, len(s.bins)+len(extra))
			for _, b := range s.bins {
				if len(b) > 0 {
					out = append(out, append([]int(nil), b...))
				}
			}
			return append(out, extra...), true
		}
		if w := s.poolWeight(); w < bestW-volEps {
			bestW, lastImp = w, s.iter
			descended = false
		}
		if s.iter-lastImp > searchStall {
			if descended || !s.packDescent() {
				return nil, false
			}
			descended = true
			lastImp = s.iter
			continue
		}
		if !s.swap(bestW) {
			if descended || !s.packDescent() {
				return nil, false
			}
			descended = true
		}
		s.iter++
	}
	return nil, false
}
