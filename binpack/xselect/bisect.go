package xselect

import "math"

// search runs steps 1–2b of Solve from the complete packing best of
// λ = 0. In incremental mode it first probes fromLambda (a feasible start
// for the bisection whenever the previous plan is still good).
// Breakpoints that fail the structural test (plausible) are skipped
// without a probe: the top probe walks down to the largest plausible
// breakpoint, and a midpoint moves up to the next plausible one.
func (s *searcher) search(ub float64, best *packing) (float64, *packing) {
	lo := 0.0
	hi := s.snap(ub)
	for range maxWalk {
		if hi == 0 || s.plausible(hi) {
			break
		}
		hi = s.prev(hi)
	}
	if s.frozen != nil {
		// Incremental: first the λ the previous plan already covers,
		// which keepFrom packs at once unless the rules changed.
		if l0 := s.fromLambda(); l0 > 0 && l0 < hi && s.probes < s.opt.MaxProbes && !s.late() {
			s.probes++
			if pk, ok := s.probe(l0, nil); ok {
				lo, best = l0, pk
			}
		}
	}
	first, top := true, hi
	for hi > 0 && s.probes < s.opt.MaxProbes {
		if s.late() {
			break
		}
		lam := hi
		if !first {
			lam = max(s.snap((lo+hi)/2), s.next(lo))
			for lam < hi && !s.plausible(lam) {
				lam = s.next(lam)
			}
			if lam >= hi {
				break
			}
		}
		first = false
		s.probes++
		pk, ok := s.probe(lam, nil)
		if ok {
			lo, best = lam, pk
			if lam == hi {
				return lo, best // λ_hi packs: nothing above can
			}
		} else {
			hi = lam
		}
	}
	return s.sweep(lo, top, best, nil)
}

// targeted is the second phase of the incremental λ search, run after
// the first (search, on the mutable set incremental chose once) has found
// lo with packing best. Each probe now packs on a mutable set chosen for
// its own λ by the targeter (the bottleneck applications' deficits at λ
// and the nodes with free room or surplus containers they may use), and a
// bisection between lo and the breakpoint below LambdaUpper, followed by
// the colocation sweep, looks for a larger λ. A set never holds more than
// MutableNodes nodes, so any complete probe is a valid plan, and the
// result is never below lo. Skipped when no place beyond the forced nodes
// is free. Cost: that of the probes plus, per probe, the targeter's
// O(N log N·(containers and apps per node)) and setMutable.
func (s *searcher) targeted(ub, lo float64, best *packing) (float64, *packing) {
	top := s.snap(ub)
	if s.limit <= len(s.forced) || lo >= top {
		return lo, best
	}
	target := newTargeter(s)
	hi := top
	for s.probes < s.opt.MaxProbes && !s.late() {
		lam := max(s.snap((lo+hi)/2), s.next(lo))
		if lam >= hi {
			break
		}
		s.probes++
		if pk, ok := s.probe(lam, target); ok {
			lo, best = lam, pk
		} else {
			hi = lam
		}
	}
	return s.sweep(lo, top, best, target)
}

// colocSweep bounds the failed probes in a row of the colocation sweep.
const colocSweep = 4

// sweep is step 2b of Solve, run only with Colocate rules, which make
// feasibility non-monotone: a needer's containers must share nodes with
// its partners', so a λ where a partner's count has just gone up can pack
// while a smaller λ cannot, and the bisection may have skipped it. From
// lo, probe the next plausible breakpoint where some partner's count
// steps up (below top, the λ_hi probe, which failed); stop after
// colocSweep failures in a row, at top, or when the probes or the work
// run out. Its probes use target (nil outside the targeted phase).
func (s *searcher) sweep(lo, top float64, best *packing, target *targeter) (float64, *packing) {
	if len(s.full.p.Colocate) == 0 || lo >= top {
		return lo, best
	}
	cur := lo
	for fails := 0; fails < colocSweep && s.probes < s.opt.MaxProbes && !s.late(); {
		lam := math.Inf(1)
		for _, pr := range s.full.p.Colocate {
			for _, m := range s.full.p.Apps[pr[1]].Mix {
				if m > 0 {
					lam = math.Min(lam, float64(Count(cur, m)+1)/m)
				}
			}
		}
		for lam < top && !s.plausible(lam) {
			lam = s.next(lam)
		}
		if lam >= top {
			break
		}
		cur = lam
		s.probes++
		if pk, ok := s.probe(lam, target); ok {
			lo, best, fails = lam, pk, 0
		} else {
			fails++
		}
	}
	return lo, best
}
