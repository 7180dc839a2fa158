package dag

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLCGDownElsewhere: told of a schedule of the optimal makespan found
// elsewhere (res.elsewhere, as the lockstep's verdict does), lcgDown, the
// learning search top down, tests optimum − 1 only: it refutes it (lb =
// optimum) and finds no schedule of its own; told of one a tick longer,
// it tests optimum and finds a schedule of the optimal makespan, then
// proves it. On one machine the pooled problem is the problem, so brute
// force gives the optimum.
func TestLCGDownElsewhere(t *testing.T) {
	rng := newTestRand(43)
	checked := 0
	for trial := 0; trial < 200; trial++ {
		in := randomTiny(t, rng, 7)
		if len(in.machines) != 1 {
			continue
		}
		want := bruteOpt(in.d, in.machines)
		p := newProblem(in.d, in.machines)
		lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
		if lo >= want {
			continue // nothing to refute
		}
		top := in.d.TotalDuration() + 1
		res := &searchResult{lb: lo, ub: top, elsewhere: want}
		lcgDown(p, res, &budget{max: 1 << 40})
		if res.lb != want || res.start != nil || res.ub != top || !res.finished {
			t.Fatalf("trial %d: elsewhere %d: lb %d, ub %d, schedule %v, finished %v", trial, want, res.lb, res.ub, res.start != nil, res.finished)
		}
		res = &searchResult{lb: lo, ub: top, elsewhere: want + 1}
		lcgDown(p, res, &budget{max: 1 << 40})
		if res.lb != want || res.ub != want || res.start == nil {
			t.Fatalf("trial %d: elsewhere %d: lb %d, ub %d, schedule %v (optimum %d)", trial, want+1, res.lb, res.ub, res.start != nil, want)
		}
		if ms := slices.Max(endsOf(p, res.start)); ms != want {
			t.Fatalf("trial %d: schedule of makespan %d, optimum %d", trial, ms, want)
		}
		checked++
	}
	t.Logf("%d instances with a bound below the optimum", checked)
	if checked < 20 {
		t.Fatalf("only %d instances exercised the test", checked)
	}
}

// lcgUpFixing climbs from lo below top (a feasible makespan) with
// decisions that fix starts, building in direction dir, without a work
// limit, and returns the bound reached and the schedule found at it.
func lcgUpFixing(p *problem, lo, top int64, dir direction) (int64, []int64) {
	res := &searchResult{lb: lo, ub: top}
	lcgUp(p, res, top, &budget{max: 1 << 40}, dir, false)
	return res.lb, res.start
}

// TestLCGAgreesWithSearch: on random instances of up to 18 tasks, too
// many for brute force, the learning search, climbing forward, backward
// and backward with split decisions, and the exact search (cut-set
// dominance, no learning: an independent method) reach the same optimum
// of the pooled problem, and the learning search's schedules pass the
// checker on one machine.
func TestLCGAgreesWithSearch(t *testing.T) {
	rng := newTestRand(53)
	for trial := 0; trial < 150; trial++ {
		in := randomTiny(t, rng, 18)
		p := newProblem(in.d, in.machines)
		lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
		top := in.d.TotalDuration() + 1
		res := &searchResult{lb: lo, ub: top}
		searchUp(p, res, top, &budget{max: 1 << 40})
		if res.start == nil {
			t.Fatalf("trial %d: the exact search found no schedule", trial)
		}
		climbs := []struct {
			name  string
			climb func() (int64, []int64)
		}{
			{"forward", func() (int64, []int64) { return lcgUpFixing(p, lo, top, forward) }},
			{"backward", func() (int64, []int64) { return lcgUpFixing(p, lo, top, backward) }},
			{"lcgClimb (backward, split)", func() (int64, []int64) { return lcgClimb(p, lo, top, &budget{max: 1 << 40}) }},
		}
		for _, c := range climbs {
			lb, start := c.climb()
			if lb != res.lb || start == nil || slices.Max(endsOf(p, start)) != lb {
				t.Fatalf("trial %d (%d tasks): the %s climb ends at %d (schedule %v), exact search %d",
					trial, p.n, c.name, lb, start != nil, res.lb)
			}
			if len(in.machines) == 1 {
				s := NewSchedule(in.d.N())
				for i, st := range start {
					s.Start[i], s.End[i], s.Machine[i] = st, st+in.d.Tasks[i].Duration, 0
				}
				mustCheck(t, "lcg "+c.name, in, s)
			}
		}
	}
}

// TestLCGClausesHold: every clause the learning search learns on random
// small problems (1–2 resources, zero durations, random capacities) holds
// for every feasible schedule of makespan ≤ hi, the top of M's root
// interval, and every makespan value M it allows, listed exhaustively; the
// climb, forward or backward, fixing or splitting domains, ends at the
// enumerated optimum. A clause cutting off a feasible schedule would be an
// unsound explanation or analysis.
func TestLCGClausesHold(t *testing.T) {
	rng := newTestRand(59)
	clauses := 0
	for trial := 0; trial < 3000; trial++ {
		p := randomProblem(rng, 7)
		opt := int64(-1)
		for T := p.criticalPath(); opt < 0; T++ {
			if enumerateSchedules(p, T, 1, func([]int64) {}) > 0 {
				opt = T
			}
		}
		hi := opt + int64(rng.IntN(3))
		var feasible [][]int64
		if enumerateSchedules(p, hi, 20_000, func(st []int64) { feasible = append(feasible, slices.Clone(st)) }) > 20_000 {
			continue
		}
		lo := int64(rng.IntN(int(opt) + 1))
		res := &searchResult{lb: lo, ub: hi}
		s := newLCG(p, lo, hi, &budget{max: 1 << 40})
		if trial%2 == 1 {
			s.energyAfter = 0 // the energy rule at every level
		}
		if trial%4 >= 2 {
			s.dir = backward
		}
		s.split = trial%8 >= 4
		var learned [][]lit
		s.learned = func(c []lit) { learned = append(learned, slices.Clone(c)) }
		s.res, s.slack = res, 1
		for res.lb < hi {
			out := s.test(res.lb)
			if out == searchFound {
				break
			}
			res.lb++
		}
		if res.lb != min(opt, hi) {
			t.Fatalf("trial %d: climb ends at %d, optimum %d (hi %d)", trial, res.lb, opt, hi)
		}
		for _, c := range learned {
			clauses++
			for _, st := range feasible {
				ms := slices.Max(endsOf(p, st))
				for M := max(lo, ms); M <= hi; M++ {
					if !clauseHoldsAt(p, c, st, M) {
						t.Fatalf("trial %d: learned clause %v excludes the feasible schedule %v at makespan %d", trial, c, st, M)
					}
				}
			}
		}
	}
	t.Logf("%d learned clauses checked", clauses)
	if clauses < 1000 {
		t.Fatalf("only %d clauses learned: the test exercises too little", clauses)
	}
}

// clauseHoldsAt reports whether some literal of c holds for start times st
// and makespan M.
func clauseHoldsAt(p *problem, c []lit, st []int64, M int64) bool {
	for _, l := range c {
		v := M
		if int(l.x) < p.n {
			v = st[l.x]
		}
		if l.ge && v >= l.v || !l.ge && v <= l.v {
			return true
		}
	}
	return false
}

// randomProblem returns a pooled problem of 2..maxN tasks (durations 0–4,
// one or two resources of capacity 1–5, random demands and forward edges).
func randomProblem(rng *rand.Rand, maxN int) *problem {
	n, k := 2+rng.IntN(maxN-1), 1+rng.IntN(2)
	p := &problem{n: n, k: k, dur: make([]int64, n), dem: make([]int64, n*k), cap: make([]int64, k),
		succ: make([][]int, n), pred: make([][]int, n)}
	for r := range p.cap {
		p.cap[r] = int64(1 + rng.IntN(5))
	}
	for i := 0; i < n; i++ {
		p.dur[i] = int64(rng.IntN(5))
		for r := 0; r < k; r++ {
			p.dem[i*k+r] = int64(rng.IntN(int(p.cap[r]) + 1))
		}
		for j := i + 1; j < n; j++ {
			if rng.Float64() < 0.25 {
				p.succ[i] = append(p.succ[i], j)
				p.pred[j] = append(p.pred[j], i)
			}
		}
		p.topo = append(p.topo, i)
	}
	return p
}

// enumerateSchedules calls f with every feasible start-time vector of
// makespan ≤ hi, tasks in index order (a topological order here), and
// returns how many it found, stopping past limit.
func enumerateSchedules(p *problem, hi int64, limit int, f func([]int64)) int {
	st := make([]int64, p.n)
	use := make([]int64, p.k*int(hi+1))
	count := 0
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == p.n {
			count++
			if count > limit {
				return false
			}
			f(st)
			return true
		}
		var est int64
		for _, q := range p.pred[i] {
			est = max(est, st[q]+p.dur[q])
		}
		d, dem := p.dur[i], p.demand(i)
		for t := est; t+d <= hi; t++ {
			fits := true
			for y := t; y < t+d && fits; y++ {
				for r, c := range dem {
					fits = fits && use[int(y)*p.k+r]+c <= p.cap[r]
				}
			}
			if !fits {
				continue
			}
			for y := t; y < t+d; y++ {
				for r, c := range dem {
					use[int(y)*p.k+r] += c
				}
			}
			st[i] = t
			more := rec(i + 1)
			for y := t; y < t+d; y++ {
				for r, c := range dem {
					use[int(y)*p.k+r] -= c
				}
			}
			if !more {
				return false
			}
		}
		return true
	}
	rec(0)
	return count
}
