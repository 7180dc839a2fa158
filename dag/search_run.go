package dag

import "slices"

// The drivers of the exact search (searcher, search.go): one test of a
// makespan, the bottom-up sequence of tests AllBounds runs, and what the
// searches (this one and the learning search, lcg) publish to the other
// workers of Best.

// searchResult is what a search worker publishes: lb, every makespan
// below it refuted; ub, the least makespan of a schedule the search found
// (or was given); start, the schedule of makespan ub it found (nil if
// none). Workers under a lockstep write it only between barriers.
// elsewhere is written the other way, by the lockstep's verdict while the
// worker is paused: the least makespan of a schedule another worker found
// (0: none), so that the search stops testing makespans already met.
type searchResult struct {
	lb, ub    int64
	start     []int64
	elsewhere int64
	// finished: the worker returned (written last).
	finished bool
}

// bound returns the least makespan known to be feasible: ub, or a shorter
// schedule found elsewhere.
func (r *searchResult) bound() int64 {
	if r.elsewhere > 0 {
		return min(r.ub, r.elsewhere)
	}
	return r.ub
}

// searchTest searches for a schedule of makespan ≤ T: the root windows
// are propagated and shaved, then searched.
func (s *searcher) test(root *propagator, T int64, b *budget) searchOutcome {
	p := s.p
	st := newWindows(p.n, s.w, T)
	ok := root.fixpointAll(st) && (p.n > shaveLimit || root.shave(st, b))
	b.spend(root.take())
	if !ok {
		return searchRefuted
	}
	s.b, s.T = b, T
	return s.feasible(st)
}

// searchUp is destructive improvement by search: from res.lb it asks for
// a schedule of makespan ≤ T for T = lb, lb+1, … below stop; each
// refutation raises lb, and a schedule found at T is optimal (lb = ub =
// T).
func searchUp(p *problem, res *searchResult, stop int64, b *budget) {
	s, root := newSearcher(p, b), newPropagator(p, true)
	for res.lb < min(res.ub, stop) && !b.done() {
		switch s.test(root, res.lb, b) {
		case searchFound:
			res.start = slices.Clone(s.start)
			res.ub = res.lb
		case searchRefuted:
			res.lb++
		default:
			return
		}
	}
}

// endsOf returns the end times of start times.
func endsOf(p *problem, start []int64) []int64 {
	e := make([]int64, len(start))
	for i, s := range start {
		e[i] = s + p.dur[i]
	}
	return e
}
