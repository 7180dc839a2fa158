package vbp

import (
	"math/rand/v2"
	"sort"
)

// searcher is the state of the pool-based tabu search of search: a partial
// packing into a fixed set of bins plus a pool of unpacked items.
type searcher struct {
	p     *problem
	rng   *rand.Rand
	bins  [][]int
	loads [][]int64
	pool  []int
	tabu  []int // tabu[i] > iter: item i may not leave its bin
	iter  int
	steps int // work counter (one unit ≈ one bin scanned), compared with limit
	limit int
	tmp   []int64
	subs  [][2]int
	wt    []float64 // item weight in the pool objective
}

// searchStall is how many iterations without a lighter pool trigger a
// descent or, failing that, end one attempt to remove a bin.
const searchStall = 300

// maxDescents caps the descents of one attempt.
const maxDescents = 20

// search tries to remove bins from the complete packing pk by a consistent
// neighbourhood search in the spirit of Buljubašić & Vasquez ("Consistent
// neighborhood search for one-dimensional bin packing and two-dimensional
// vector packing", Computers & OR 76, 2016). It first concentrates the free
// room by descent (see descent), deletes the least filled bin and puts its
// items into a pool, then alternates
//
//  1. greedy best-fit insertion of pool items (largest first), and
//  2. the best non-tabu swap that exchanges one or two pool items with zero,
//     one or two items of a bin, preferring the largest decrease of the
//     pool's weight Σ wt (wt = vol² + d·Σ_k w_k², so one big item in the
//     pool costs more than several small ones), then the most pool items;
//     ties are broken by the seeded generator.
//
// Items just put into a bin are tabu (may not leave) for 3 + U[0, max(8, B/8))
// iterations, B the bin count.
// When the pool empties, the packing has one bin fewer; it is kept and the
// search goes on to remove the next bin. When the pool weight has not
// decreased for searchStall iterations, a descent reshuffles the bins (up
// to maxDescents times); when that changes nothing, the attempt restarts
// from the best packing, deleting one of its five least filled bins at
// random. The search stops at lb bins or after limit work units (about one
// bin scanned each), so it is deterministic for a given rng. The result is
// never worse than pk and every intermediate bin stays feasible.
func (p *problem) search(pk Packing, lb int, rng *rand.Rand, limit int) Packing {
	best := pk
	s := &searcher{p: p, rng: rng, limit: limit, tabu: make([]int, p.n), tmp: make([]int64, p.d)}
	s.wt = make([]float64, p.n)
	for i := range s.wt {
		// Squared weights make a big item in the pool cost much more
		// than several small ones, so the search prefers to keep small,
		// easily placed items in the pool.
		s.wt[i] = p.vol[i] * p.vol[i]
		for _, w := range p.w[i] {
			s.wt[i] += float64(p.d) * w * w
		}
	}
	attempt := 0
	for len(best) > lb && s.steps < s.limit {
		s.reset(best, attempt)
		attempt++
		if s.run() {
			best = s.packing()
			attempt = 0
		}
	}
	return best
}

// reset loads pk, deletes one weakly filled bin (on the first attempt, the
// least filled after a descent; else one of the five least filled at
// random) and puts its items in the pool.
func (s *searcher) reset(pk Packing, attempt int) {
	p := s.p
	s.bins = s.bins[:0]
	for _, b := range pk {
		s.bins = append(s.bins, append([]int(nil), b...))
	}
	s.loads = p.loads(s.bins)
	order := make([]int, len(s.bins))
	vol := make([]float64, len(s.bins))
	for b := range order {
		order[b] = b
		for _, i := range s.bins[b] {
			vol[b] += p.vol[i]
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return vol[order[a]] < vol[order[b]] })
	e := order[0]
	if attempt > 0 {
		e = order[s.rng.IntN(min(5, len(order)))]
	}
	if attempt == 0 {
		s.descent()
		for b := range vol {
			vol[b] = s.binVol(b)
		}
		sort.SliceStable(order, func(a, b int) bool { return vol[order[a]] < vol[order[b]] })
		e = order[0]
	}
	s.pool = append(s.pool[:0], s.bins[e]...)
	last := len(s.bins) - 1
	s.bins[e], s.loads[e] = s.bins[last], s.loads[last]
	s.bins, s.loads = s.bins[:last], s.loads[:last]
	for i := range s.tabu {
		s.tabu[i] = 0
	}
	s.iter = 0
}

func (s *searcher) packing() Packing {
	out := make(Packing, 0, len(s.bins))
	for _, b := range s.bins {
		if len(b) > 0 {
			out = append(out, append([]int(nil), b...))
		}
	}
	return out
}

func (s *searcher) poolVol() float64 {
	v := 0.0
	for _, i := range s.pool {
		v += s.wt[i]
	}
	return v
}

// run searches until the pool is empty (true) or the attempt stalls or the
// budget is spent (false).
func (s *searcher) run() bool {
	bestVol, lastImp := s.poolVol(), 0
	descents := 0
	for s.steps < s.limit {
		s.insertGreedy()
		if len(s.pool) == 0 {
			return true
		}
		if v := s.poolVol(); v < bestVol-volEps {
			bestVol, lastImp = v, s.iter
		}
		if s.iter-lastImp > searchStall && descents < maxDescents && s.descent() {
			descents++
			lastImp = s.iter
			continue
		}
		if s.iter-lastImp > searchStall {
			return false
		}
		if !s.swap() {
			return false
		}
		s.iter++
	}
	return false
}

// insertGreedy inserts pool items, largest volume first, each into the bin
// where it fits with the least normalised slack left.
func (s *searcher) insertGreedy() {
	p := s.p
	sort.SliceStable(s.pool, func(a, b int) bool { return s.wt[s.pool[a]] > s.wt[s.pool[b]] })
	keep := s.pool[:0]
	for _, x := range s.pool {
		bestB, bestSlack := -1, 0.0
		s.steps += len(s.bins)
		for b := range s.bins {
			if p.fits(s.loads[b], x) {
				sl := s.slack(b)
				if bestB < 0 || sl < bestSlack-volEps {
					bestB, bestSlack = b, sl
				}
			}
		}
		if bestB < 0 {
			keep = append(keep, x)
			continue
		}
		s.bins[bestB] = append(s.bins[bestB], x)
		p.add(s.loads[bestB], x, 1)
		s.tabu[x] = s.iter + 1 + s.rng.IntN(5)
	}
	s.pool = keep
}

func (s *searcher) slack(b int) float64 {
	v := 0.0
	for k, l := range s.loads[b] {
		v += float64(s.p.cap[k]-l) / float64(s.p.cap[k])
	}
	return v
}

// swap applies the best non-tabu exchange between the pool and one bin and
// reports whether one exists.
func (s *searcher) swap() bool {
	p := s.p
	type move struct {
		b         int
		in        [2]int // pool positions, -1 unused
		out       [2]int // bin positions, -1 unused
		delta     float64
		countGain int
	}
	best := move{b: -1}
	ties := 0
	consider := func(b int, in, out [2]int, delta float64, cg int) {
		if best.b >= 0 {
			if delta < best.delta-volEps {
				return
			}
			if delta <= best.delta+volEps {
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
	np := len(s.pool)
	pairs := np <= 24
	for b, bin := range s.bins {
		s.steps += np + 1
		if pairs {
			s.steps += np * (np - 1) / 2
		}
		// Enumerate removed subsets explicitly: none, one, or two items.
		subs := append(s.subs[:0], [2]int{-1, -1})
		for a := range bin {
			if s.tabu[bin[a]] > s.iter {
				continue
			}
			subs = append(subs, [2]int{a, -1})
			for c := a + 1; c < len(bin); c++ {
				if s.tabu[bin[c]] <= s.iter {
					subs = append(subs, [2]int{a, c})
				}
			}
		}
		s.subs = subs
		for _, o := range subs {
			base := s.tmp
			copy(base, s.loads[b])
			outVol, nout := 0.0, 0
			for _, oi := range o {
				if oi >= 0 {
					p.add(base, bin[oi], -1)
					outVol += s.wt[bin[oi]]
					nout++
				}
			}
			for x := 0; x < np; x++ {
				xi := s.pool[x]
				if nout > 0 && p.fits(base, xi) {
					consider(b, [2]int{x, -1}, o, s.wt[xi]-outVol, nout-1)
				}
				if !pairs {
					continue
				}
				for y := x + 1; y < np; y++ {
					yi := s.pool[y]
					if s.fits2(base, xi, yi) {
						consider(b, [2]int{x, y}, o, s.wt[xi]+s.wt[yi]-outVol, nout-2)
					}
				}
			}
		}
	}
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
	// Remove out items from the bin.
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
		s.tabu[x] = s.iter + 3 + s.rng.IntN(max(8, len(s.bins)/8))
	}
	s.bins[b] = nb
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

func (s *searcher) binVol(b int) float64 {
	v := 0.0
	for k, l := range s.loads[b] {
		v += float64(l) / float64(s.p.cap[k])
	}
	return v
}

// descent moves and swaps single items between bins while that increases
// Σ_b vol_b², which concentrates the free room into fewer bins, and reports
// whether it changed anything. Cost O(B²·s²·d) per pass.
func (s *searcher) descent() bool {
	p := s.p
	changed := false
	vol := make([]float64, len(s.bins))
	for b := range vol {
		vol[b] = s.binVol(b)
	}
	for pass := 0; pass < 10 && s.steps < s.limit; pass++ {
		improved := false
		for b := range s.bins {
			s.steps += len(s.bins)
			for c := range s.bins {
				if c == b {
					continue
				}
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
