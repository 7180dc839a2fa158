package vbp

import (
	"slices"
	"sort"
)

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
	s.w.Add(len(out))
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
	steps0 := s.w.Used()
	s.w.Add(4 + np)
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
			s.w.Add(1)
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
					// with is the bin's load with xi in: yi must fit on it
					// (with a negative size, xi alone may overshoot).
					with := s.tmp2
					copy(with, base)
					p.add(with, xi, 1)
					for y := x + 1; y < np; y++ {
						yi := s.pool[y]
						d := outW - s.wt[xi] - s.wt[yi]
						if worse(d) {
							break
						}
						checks++
						if p.fits(with, yi) && (!tabu || curW+d < bestW-volEps) {
							consider(b, [2]int{x, y}, o, d, nout-2)
						}
					}
				}
			}
		}
	}
	s.w.Add(checks / 2)
	// Fit tests and residuals cost O(d): scale the iteration's work so
	// that a unit takes about the same time in any dimension.
	s.w.Add(int((s.w.Used() - steps0) * int64(p.d-3) / 12))
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
		if !slices.Contains(out, i) {
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
		if !slices.Contains(in, i) {
			np2 = append(np2, i)
		}
	}
	s.pool = append(np2, out...)
	return true
}
