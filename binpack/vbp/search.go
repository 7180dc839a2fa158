package vbp

import (
	"math/rand/v2"
	"sort"
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
	steps int // work counter, compared with limit (see search)
	limit int
	wt    []float64 // item weight in the pool objective (one of weights)
	// weights are the alternative item weights, used in turn by
	// successive attempts.
	weights [2][]float64
	// subs[b] caches the removable subsets of bin b by increasing
	// weight; nil after bin b changed.
	subs   [][]subset
	none   [1]subset
	anyNeg bool
	// scratch
	tmp  []int64
	minS []int64
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
// The search stops at lb bins or after limit work units (one unit is
// about one bin or one fit test scanned), so it is deterministic for a
// given rng. The result is never worse than pk, and every bin stays
// feasible throughout.
func (p *problem) search(pk Packing, lb int, rng *rand.Rand, limit int) Packing {
	best := pk
	if len(best) <= lb || len(best) < 2 || p.n == 0 {
		return best
	}
	s := &searcher{p: p, rng: rng, limit: limit, tabu: make([]int, p.n), tmp: make([]int64, p.d)}
	for _, ng := range p.neg {
		s.anyNeg = s.anyNeg || ng
	}
	s.setWeights()
	fails := 0
	for len(best) > lb && s.steps < s.limit {
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
	s.steps += p.n * p.d / 4
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
	s.steps += len(s.bins)
	r := min(searchRemove, len(s.bins))
	s.k = r - 1
	if attempt == 0 {
		s.descent()
	}
	order := make([]int, len(s.bins))
	vol := make([]float64, len(s.bins))
	for b := range order {
		order[b] = b
		vol[b] = s.binVol(b)
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

func (s *searcher) binVol(b int) float64 {
	v := 0.0
	for k, l := range s.loads[b] {
		v += float64(l) / float64(s.p.cap[k])
	}
	return v
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
	for s.steps < s.limit {
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

// poolPacks reports whether the pool fits into s.k bins and returns those
// bins. It first compares the pool's total size with k bins, then runs a
// depth-first search over assignments (items by decreasing volume, a new
// bin only after the used ones), cut off after a node limit.
func (s *searcher) poolPacks() (Packing, bool) {
	p := s.p
	s.steps += 2 + len(s.pool)
	if len(s.pool) == 0 {
		return nil, true
	}
	tot := s.tmp
	for k := range tot {
		tot[k] = 0
	}
	for _, i := range s.pool {
		p.add(tot, i, 1)
	}
	for k, v := range tot {
		if v > int64(s.k)*p.cap[k] {
			return nil, false
		}
	}
	items := append([]int(nil), s.pool...)
	sort.SliceStable(items, func(a, b int) bool { return p.vol[items[a]] > p.vol[items[b]] })
	loads := make([][]int64, s.k)
	for b := range loads {
		loads[b] = make([]int64, p.d)
	}
	assign := make([]int, len(items))
	used, nodes := 0, 0
	const nodeLimit = 4000
	var dfs func(j int) bool
	dfs = func(j int) bool {
		if j == len(items) {
			return true
		}
		nodes++
		if nodes > nodeLimit {
			return false
		}
		x := items[j]
		for b := 0; b <= used && b < s.k; b++ {
			if !p.fits(loads[b], x) {
				continue
			}
			opened := b == used
			if opened {
				used++
			}
			p.add(loads[b], x, 1)
			assign[j] = b
			if dfs(j + 1) {
				return true
			}
			p.add(loads[b], x, -1)
			if opened {
				used--
			}
		}
		return false
	}
	ok := dfs(0)
	s.steps += nodes
	if !ok {
		return nil, false
	}
	out := make(Packing, used)
	for j, x := range items {
		out[assign[j]] = append(out[assign[j]], x)
	}
	return out, true
}

// subsets returns the removable subsets (one or two items) of bin b by
// increasing weight, cached until the bin changes.
func (s *searcher) subsets(b int) []subset {
	if s.subs[b] != nil {
		return s.subs[b]
	}
	bin := s.bins[b]
	out := make([]subset, 0, len(bin)*(len(bin)+1)/2)
	for a := range bin {
		out = append(out, subset{[2]int{a, -1}, s.wt[bin[a]]})
		for c := a + 1; c < len(bin); c++ {
			out = append(out, subset{[2]int{a, c}, s.wt[bin[a]] + s.wt[bin[c]]})
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].outW < out[y].outW })
	s.steps += len(out)
	s.subs[b] = out
	return out
}

// swap applies the best exchange between the pool and one bin: up to two
// items leave the bin, one or two pool items enter it, and the bin stays
// feasible. A tabu item may leave only when the move makes the pool
// lighter than bestW (aspiration). It reports whether any move exists.
//
// With the pool sorted by decreasing weight and each bin's subsets by
// increasing weight, a scan stops as soon as even the heaviest pool items
// could not beat the best move so far. Insertions (nothing leaves) are
// scanned first; they give a good incumbent early.
func (s *searcher) swap(bestW float64) bool {
	p := s.p
	type move struct {
		b         int
		in        [2]int // pool positions, −1 unused
		out       [2]int // bin positions, −1 unused
		delta     float64
		countGain int
	}
	sort.SliceStable(s.pool, func(a, b int) bool { return s.wt[s.pool[a]] > s.wt[s.pool[b]] })
	np := len(s.pool)
	if np == 0 {
		return false
	}
	steps0 := s.steps
	s.steps += 4 + np
	best := move{b: -1}
	ties := 0
	curW := s.poolWeight()
	consider := func(b int, in, out [2]int, delta float64, cg int) {
		if best.b >= 0 {
			if delta > best.delta+volEps {
				return
			}
			if delta >= best.delta-volEps {
				if cg < best.countGain {
					return
				}
				if cg == best.countGain {
					ties++
					if s.rng.IntN(ties) != 0 {
						return
					}
				} else {
					ties = 1
				}
			} else {
				ties = 1
			}
		} else {
			ties = 1
		}
		best = move{b: b, in: in, out: out, delta: delta, countGain: cg}
	}
	worse := func(delta float64) bool { return best.b >= 0 && delta > best.delta+volEps }
	pairs := np >= 2 && np <= maxPairPool
	maxIn := s.wt[s.pool[0]]
	if pairs {
		maxIn += s.wt[s.pool[1]]
	}
	// minS[k] is the smallest pool size in dimension k: a bin with less
	// room admits no pool item (where sizes are non-negative).
	minS := s.minS[:0]
	for k := 0; k < p.d; k++ {
		m := p.size[s.pool[0]][k]
		for _, x := range s.pool[1:] {
			m = min(m, p.size[x][k])
		}
		minS = append(minS, m)
	}
	s.minS = minS
	checks := 0
	for pass := 0; pass < 2; pass++ {
		for b, bin := range s.bins {
			s.steps++
			subs := s.none[:]
			if pass == 1 {
				subs = s.subsets(b)
			}
			for _, sub := range subs {
				o, outW := sub.o, sub.outW
				if worse(outW - maxIn) {
					break // the subsets are sorted by weight
				}
				checks++
				nout, tabu := 0, false
				for _, oi := range o {
					if oi >= 0 {
						nout++
						tabu = tabu || s.tabu[bin[oi]] > s.iter
					}
				}
				if tabu && curW+outW-maxIn >= bestW-volEps {
					continue
				}
				base := s.tmp
				copy(base, s.loads[b])
				for _, oi := range o {
					if oi >= 0 {
						p.add(base, bin[oi], -1)
					}
				}
				room := true
				for k, v := range base {
					if !p.neg[k] && v+minS[k] > p.cap[k] {
						room = false
						break
					}
				}
				if !room {
					continue
				}
				// Singles: the first fitting item is the heaviest.
				for x := 0; x < np; x++ {
					d := outW - s.wt[s.pool[x]]
					if worse(d) {
						break
					}
					checks++
					if p.fits(base, s.pool[x]) && (!tabu || curW+d < bestW-volEps) {
						consider(b, [2]int{x, -1}, o, d, nout-1)
					}
				}
				if !pairs {
					continue
				}
				for x := 0; x+1 < np; x++ {
					xi := s.pool[x]
					if worse(outW - s.wt[xi] - s.wt[s.pool[x+1]]) {
						break
					}
					if !s.anyNeg {
						checks++
						if !p.fits(base, xi) {
							continue
						}
					}
					for y := x + 1; y < np; y++ {
						yi := s.pool[y]
						d := outW - s.wt[xi] - s.wt[yi]
						if worse(d) {
							break
						}
						checks++
						if s.fits2(base, xi, yi) && (!tabu || curW+d < bestW-volEps) {
							consider(b, [2]int{x, y}, o, d, nout-2)
						}
					}
				}
			}
		}
	}
	s.steps += checks / 2
	// Fit tests and residuals cost O(d): scale the iteration's work so
	// that a unit takes about the same time in any dimension.
	s.steps += (s.steps - steps0) * (p.d - 3) / 12
	if best.b < 0 {
		return false
	}
	b := best.b
	bin := s.bins[b]
	var out []int
	for _, o := range best.out {
		if o >= 0 {
			out = append(out, bin[o])
		}
	}
	var in []int
	for _, x := range best.in {
		if x >= 0 {
			in = append(in, s.pool[x])
		}
	}
	nb := bin[:0]
	for _, i := range bin {
		if !contains(out, i) {
			nb = append(nb, i)
		} else {
			p.add(s.loads[b], i, -1)
		}
	}
	for _, x := range in {
		nb = append(nb, x)
		p.add(s.loads[b], x, 1)
		s.tabu[x] = s.iter + tenureMin + s.rng.IntN(max(tenureSpread, len(s.bins)/tenureDiv))
	}
	s.bins[b] = nb
	s.subs[b] = nil
	np2 := s.pool[:0]
	for _, i := range s.pool {
		if !contains(in, i) {
			np2 = append(np2, i)
		}
	}
	s.pool = append(np2, out...)
	return true
}

func (s *searcher) fits2(load []int64, x, y int) bool {
	p := s.p
	for k := range load {
		if load[k]+p.size[x][k]+p.size[y][k] > p.cap[k] {
			return false
		}
	}
	return true
}

func contains(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// packDescent repacks every bin in turn with the subset of its items and
// the pool items of largest total weight that fits (a knapsack solved by
// depth-first branch and bound, cut off after a node limit; the current
// content is the incumbent). It reports whether the pool got lighter.
func (s *searcher) packDescent() bool {
	p := s.p
	improved := false
	load := make([]int64, p.d)
	for b := range s.bins {
		cand := append(append([]int(nil), s.bins[b]...), s.pool...)
		sort.SliceStable(cand, func(x, y int) bool { return s.wt[cand[x]] > s.wt[cand[y]] })
		suffix := make([]float64, len(cand)+1)
		for j := len(cand) - 1; j >= 0; j-- {
			suffix[j] = suffix[j+1] + max(0, s.wt[cand[j]])
		}
		bestW := 0.0
		for _, i := range s.bins[b] {
			bestW += s.wt[i]
		}
		var bestSet []int
		for k := range load {
			load[k] = 0
		}
		cur := make([]int, 0, len(cand))
		nodes := 0
		const nodeLimit = 3000
		var dfs func(j int, w float64)
		dfs = func(j int, w float64) {
			nodes++
			if w > bestW+volEps {
				bestW = w
				bestSet = append(bestSet[:0], cur...)
			}
			for ; j < len(cand) && nodes < nodeLimit; j++ {
				if w+suffix[j] <= bestW+volEps {
					return
				}
				x := cand[j]
				if !p.fits(load, x) {
					continue
				}
				p.add(load, x, 1)
				cur = append(cur, x)
				dfs(j+1, w+s.wt[x])
				cur = cur[:len(cur)-1]
				p.add(load, x, -1)
			}
		}
		dfs(0, 0)
		s.steps += 1 + nodes/4
		if bestSet == nil {
			continue
		}
		in := make(map[int]bool, len(bestSet))
		for _, x := range bestSet {
			in[x] = true
		}
		s.bins[b] = append(s.bins[b][:0], bestSet...)
		s.subs[b] = nil
		for k := range s.loads[b] {
			s.loads[b][k] = 0
		}
		for _, x := range bestSet {
			p.add(s.loads[b], x, 1)
		}
		s.pool = s.pool[:0]
		for _, x := range cand {
			if !in[x] {
				s.pool = append(s.pool, x)
			}
		}
		improved = true
	}
	return improved
}

// descent moves and swaps single items between bins while that increases
// Σ_b vol_b², which concentrates the free room into fewer bins, and reports
// whether it changed anything. Cost O(B²·s²·d) per pass, s items per bin.
func (s *searcher) descent() bool {
	p := s.p
	changed := false
	vol := make([]float64, len(s.bins))
	for b := range vol {
		vol[b] = s.binVol(b)
	}
	for pass := 0; pass < descentPasses && s.steps < s.limit; pass++ {
		improved := false
		for b := range s.bins {
			s.steps += len(s.bins)
			for c := range s.bins {
				if c == b {
					continue
				}
				// Up to |b|·(1+|c|) tests of O(d) each.
				s.steps += len(s.bins[b]) * (1 + len(s.bins[c])) * (p.d + 3) / 8
				old := vol[b]*vol[b] + vol[c]*vol[c]
			scan:
				for yi := 0; yi < len(s.bins[b]); yi++ {
					y := s.bins[b][yi]
					// Shift y from b to c.
					if nb, nc := vol[b]-p.vol[y], vol[c]+p.vol[y]; nb*nb+nc*nc > old+volEps && p.fits(s.loads[c], y) && s.fitsAfter(b, -1, y) {
						s.moveItem(b, yi, c)
						vol[b], vol[c] = nb, nc
						improved, changed = true, true
						break scan
					}
					for zi := 0; zi < len(s.bins[c]); zi++ {
						z := s.bins[c][zi]
						dv := p.vol[z] - p.vol[y]
						nb, nc := vol[b]+dv, vol[c]-dv
						if nb*nb+nc*nc <= old+volEps {
							continue
						}
						if s.fitsAfter(b, z, y) && s.fitsAfter(c, y, z) {
							s.moveItem(b, yi, c)
							s.moveItem(c, zi, b)
							vol[b], vol[c] = nb, nc
							improved, changed = true, true
							break scan
						}
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	return changed
}

// fitsAfter reports whether bin b stays feasible after adding item in
// (if ≥ 0) and removing item out.
func (s *searcher) fitsAfter(b, in, out int) bool {
	p := s.p
	for k, l := range s.loads[b] {
		l -= p.size[out][k]
		if in >= 0 {
			l += p.size[in][k]
		}
		if l > p.cap[k] {
			return false
		}
	}
	return true
}

// moveItem moves the item at position pos of bin b to bin c.
func (s *searcher) moveItem(b, pos, c int) {
	p := s.p
	y := s.bins[b][pos]
	s.bins[b] = append(s.bins[b][:pos], s.bins[b][pos+1:]...)
	p.add(s.loads[b], y, -1)
	s.bins[c] = append(s.bins[c], y)
	p.add(s.loads[c], y, 1)
}
