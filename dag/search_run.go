package dag

import "slices"

// The drivers of the exact search (searcher, search.go): one test of a
// makespan, the top-down and bottom-up sequences of tests Best and
// AllBounds run, and what they publish to the other workers.

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
	s.b, s.T, s.aborted = b, T, false
	return s.feasible(st)
}

// searchDown proves a makespan optimal top down: it asks for a schedule
// of makespan ≤ u − 1, u the least makespan known (res.bound()); a
// refutation proves u optimal at once (and subsumes every smaller T), a
// schedule lowers ub and the question is asked again, until the budget
// runs out. A schedule published elsewhere that meets the tested makespan
// abandons the test for the next one.
func searchDown(p *problem, res *searchResult, b *budget) {
	defer func() { res.finished = true }()
	s, root := newSearcher(p, b), newPropagator(p, true)
	s.res = res
	for res.lb < res.bound() && !b.done() {
		T := res.bound() - 1
		switch s.test(root, T, b) {
		case searchFound:
			res.start = slices.Clone(s.start)
			res.ub = slices.Max(endsOf(p, s.start))
		case searchRefuted:
			res.lb = T + 1
		default:
			if !s.aborted {
				return
			}
		}
	}
}

// searchUp is destructive improvement by search: from lb it asks for a
// schedule of makespan ≤ T for T = lb, lb+1, … below stop; each
// refutation raises lb, and a schedule found at T is optimal (lb = ub =
// T). Best stops it at ub − 1, the makespan searchDown tests first.
//
// A schedule of makespan u published elsewhere (res.elsewhere) lowers the
// stop to u − 1 too (searchDown then tests it) and abandons a test it
// makes pointless.
func searchUp(p *problem, res *searchResult, stop int64, b *budget) {
	defer func() { res.finished = true }()
	s, root := newSearcher(p, b), newPropagator(p, true)
	s.res, s.slack = res, 1
	for res.lb < min(res.bound(), stop) && (res.elsewhere == 0 || res.lb < res.elsewhere-1) && !b.done() {
		switch s.test(root, res.lb, b) {
		case searchFound:
			res.start = slices.Clone(s.start)
			res.ub = res.lb
		case searchRefuted:
			res.lb++
		default:
			if !s.aborted {
				return
			}
		}
	}
}

// exact runs searchDown with half the budget, then searchUp with the
// rest, on one goroutine; it returns the lower bound reached, the best
// schedule found (nil if none beat ub) and whether lb = ub was proved.
func exact(p *problem, lo, ub int64, b *budget) (lb int64, start []int64, optimal bool) {
	res := &searchResult{lb: lo, ub: ub}
	down := b.child(b.left() / 2)
	searchDown(p, res, down)
	b.merge(down)
	searchUp(p, res, res.ub, b)
	return res.lb, res.start, res.lb >= res.ub
}

// endsOf returns the end times of start times.
func endsOf(p *problem, start []int64) []int64 {
	e := make([]int64, len(start))
	for i, s := range start {
		e[i] = s + p.dur[i]
	}
	return e
}
