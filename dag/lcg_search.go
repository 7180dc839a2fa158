package dag

import (
	"slices"
	"sort"
)

// The drivers of the learning search (lcg.go): one test of a makespan,
// the climb that raises a lower bound test by test and the descent that
// proves the best makespan optimal, the clauses learned carrying over
// from test to test.

// test searches for a schedule of makespan ≤ T under the assumption
// [M ≤ T]. A refutation leaves the learned unit [M ≥ T + 1] at the root;
// a schedule's start times are left in s.lb.
func (s *lcg) test(T int64) searchOutcome {
	M := int32(s.n)
	s.aborted = false
	s.backtrack(0)
	restarts, budget := 0, lcgRestart*luby(1)
	for {
		if !s.propagate() {
			lv := 0
			for _, l := range s.confl {
				lv = max(lv, s.levelOf(l))
			}
			if lv == 0 {
				// The root contradicts itself: no makespan in M's root
				// interval exists.
				return searchRefuted
			}
			s.backtrack(lv)
			lits, bt := s.analyze()
			s.backtrack(bt)
			s.learnClause(lits)
			s.conflicts++
			budget--
			if s.stop(T) {
				return searchStopped
			}
			if budget <= 0 {
				restarts++
				budget = lcgRestart * luby(restarts+1)
				s.backtrack(0)
				s.reduce()
			}
			continue
		}
		if s.level() == 0 {
			if s.lb[M] > T {
				return searchRefuted
			}
			if s.ub[M] > T {
				s.decide(lit{M, false, T})
				continue
			}
		}
		x := s.pick()
		if x < 0 {
			return searchFound
		}
		if s.stop(T) {
			return searchStopped
		}
		s.b.spend(int64(s.n))
		var q int64 // the part of x's domain the decision leaves open
		if s.split {
			q = (s.ub[x] - s.lb[x]) / 4
		}
		if s.dir == forward {
			s.decide(lit{int32(x), false, s.lb[x] + q})
		} else {
			s.decide(lit{int32(x), true, s.ub[x] - q})
		}
	}
}

// stop reports whether the budget is spent or the test of T became
// pointless: a schedule of makespan ≤ T + slack is known elsewhere (see
// searchResult): slack 1 for the climb, which stops below such a
// schedule, 0 for the descent, which such a schedule answers.
func (s *lcg) stop(T int64) bool {
	if s.b.done() {
		return true
	}
	if s.res != nil && s.res.elsewhere > 0 && s.res.elsewhere-s.slack <= T {
		s.aborted = true
		return true
	}
	return false
}

// pick returns the unfixed task of highest activity, or −1 when every
// task is fixed. Ties go to the task whose edge comes first in s.dir (the
// least earliest start forward, the greatest latest end backward), then
// to the least index.
func (s *lcg) pick() int {
	best := -1
	for i := 0; i < s.n; i++ {
		if s.lb[i] == s.ub[i] {
			continue
		}
		if best < 0 || s.act[i] > s.act[best] || s.act[i] == s.act[best] && s.dir.before(s.edge(i), s.edge(best)) {
			best = i
		}
	}
	return best
}

// edge returns the time a decision fixes task i against: its earliest
// start forward, its latest end backward.
func (s *lcg) edge(i int) int64 {
	if s.dir == forward {
		return s.lb[i]
	}
	return s.ub[i] + s.p.dur[i]
}

// reduce halves the learned clauses once there are too many: the less
// active half goes, except the clauses that are reasons on the trail
// (it is called at the root, whose entries may have learned reasons);
// the clauses that go are taken off the watch lists too. It charges a
// unit per clause it could drop; the pass over the watch lists goes
// uncharged, as skipping a deleted clause in wake did before the lists
// were purged.
func (s *lcg) reduce() {
	limit := lcgFirstReduce
	if len(s.cls) < limit*(1+int(s.conflicts/int64(10*limit))) {
		return
	}
	locked := map[*lcgClause]bool{}
	for i := range s.trail {
		if c := s.trail[i].cl; c != nil {
			locked[c] = true
		}
	}
	var free []*lcgClause
	for _, c := range s.cls {
		if !locked[c] {
			free = append(free, c)
		}
	}
	sort.SliceStable(free, func(a, b int) bool { return free[a].act < free[b].act })
	for _, c := range free[:len(free)/2] {
		c.deleted = true
	}
	s.cls = slices.DeleteFunc(s.cls, func(c *lcgClause) bool { return c.deleted })
	gone := func(w lcgWatch) bool { return w.c.deleted }
	for x := range s.watchLo {
		s.watchLo[x] = slices.DeleteFunc(s.watchLo[x], gone)
		s.watchHi[x] = slices.DeleteFunc(s.watchHi[x], gone)
	}
	s.b.spend(int64(len(free)))
}

// luby returns the i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1,
// 2, 4, …
func luby(i int) int {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1 << (k - 1)) + 1)
		}
	}
}

// lcgUp is destructive improvement by the learning search, as searchUp
// is by the exact search: from res.lb it tests T = lb, lb+1, … below
// stop, each refutation raising lb, and a schedule found at T is optimal
// (lb = ub = T). The clauses learned testing one T stay for the next. A
// schedule of makespan u published elsewhere lowers the stop to u − 1 and
// abandons a test it makes pointless. Its decisions build schedules in
// direction dir (see lcg.dir), splitting domains with split (lcg.split):
// a refutation holds whichever way the search went, and backward refutes
// more on short budgets (Best's climb), and with split on long ones too
// (lcgClimb; docs/dag/measurements.md).
func lcgUp(p *problem, res *searchResult, stop int64, b *budget, dir direction, split bool) {
	defer func() { res.finished = true }()
	hi := res.bound()
	if p.n == 0 || res.lb >= min(hi, stop) {
		return
	}
	s := newLCG(p, res.lb, hi, b)
	s.res, s.slack, s.dir, s.split = res, 1, dir, split
	s.energyAfter = 0 // the climb proves more with the rule at every level
	for res.lb < min(res.bound(), stop) && (res.elsewhere == 0 || res.lb < res.elsewhere-1) && !b.done() {
		switch s.test(res.lb) {
		case searchFound:
			res.start = slices.Clone(s.lb[:s.n])
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

// lcgDown proves a makespan optimal top down with the learning search: it
// tests u − 1, u the least
// makespan known; a refutation proves u optimal, a schedule lowers u and
// the next test begins, keeping the clauses learned (a clause valid under
// one makespan holds under every smaller one, and T is an assumption
// anyway).
func lcgDown(p *problem, res *searchResult, b *budget) {
	defer func() { res.finished = true }()
	if p.n == 0 || res.lb >= res.bound() || b.done() { // done: no share (Best, wide gaps)
		return
	}
	s := newLCG(p, res.lb, res.bound(), b)
	s.res, s.slack = res, 0
	for res.lb < res.bound() && !b.done() {
		T := res.bound() - 1
		switch s.test(T) {
		case searchFound:
			res.start = slices.Clone(s.lb[:s.n])
			res.ub = slices.Max(endsOf(p, res.start))
		case searchRefuted:
			res.lb = T + 1
		default:
			if !s.aborted {
				return
			}
		}
	}
}

// lcgClimb runs lcgUp from lo below hi (a makespan known to be feasible on
// p), backward with split decisions, and returns the bound reached and the
// schedule found at it (nil if none). On the 87 PSPLIB J60 instances Best
// leaves unproven, from Best's bound below its makespan, as AllBounds runs
// it, that reaches the published lower bound on 13 at 50M work units and
// 26 at 500M, against 10 and 24 forward with fixing decisions (12 and 23
// backward).
func lcgClimb(p *problem, lo, hi int64, b *budget) (int64, []int64) {
	res := &searchResult{lb: lo, ub: hi}
	lcgUp(p, res, hi, b, backward, true)
	return res.lb, res.start
}
