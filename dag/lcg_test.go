package dag

import (
	"slices"
	"testing"
)

// TestLCGBruteForce: on random tiny instances on one machine the learning
// search's climb ends at the brute-force optimum with a schedule of that
// makespan that passes the checker; on two machines (pooled) it never
// exceeds brute force.
func TestLCGBruteForce(t *testing.T) {
	rng := newTestRand(47)
	for trial := 0; trial < 400; trial++ {
		in := randomTiny(t, rng, 7)
		want := bruteOpt(in.d, in.machines)
		p := newProblem(in.d, in.machines)
		lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
		top := in.d.TotalDuration() + 1
		lb, start := lcgClimb(p, lo, top, &budget{max: 1 << 40})
		if start == nil {
			t.Fatalf("trial %d: the climb found no schedule (lb %d)", trial, lb)
		}
		if lb > want {
			t.Fatalf("trial %d (%d machines): bound %d above brute force %d", trial, len(in.machines), lb, want)
		}
		if len(in.machines) == 1 {
			if lb != want {
				t.Fatalf("trial %d: optimum %d, brute force %d", trial, lb, want)
			}
			s := NewSchedule(in.d.N())
			for i, st := range start {
				s.Start[i], s.End[i], s.Machine[i] = st, st+in.d.Tasks[i].Duration, 0
			}
			mustCheck(t, "lcg", in, s)
			if s.Makespan() > lb {
				t.Fatalf("trial %d: schedule makespan %d, claimed %d", trial, s.Makespan(), lb)
			}
		}
	}
}

// TestLCGDownElsewhere: told of a schedule of the optimal makespan
// found elsewhere (res.elsewhere, as the lockstep's verdict does),
// lcgDown, the learning search top down, tests optimum − 1 only: it refutes it (lb = optimum) and
// finds no schedule of its own; told of one a tick longer, it tests
// optimum and finds a schedule of the optimal makespan, then proves it.
// On one machine the pooled problem is the problem, so brute force gives
// the optimum.
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

// TestLCGAgreesWithSearch: on random instances of up to 18 tasks, too
// many for brute force, the learning search and the exact search (cut-set
// dominance, no learning: an independent method) reach the same optimum
// of the pooled problem, and the learning search's schedule passes the
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
		lb, start := lcgClimb(p, lo, top, &budget{max: 1 << 40})
		if start == nil || res.start == nil {
			t.Fatalf("trial %d: no schedule (lcg %v, search %v)", trial, start != nil, res.start != nil)
		}
		if lb != res.lb {
			t.Fatalf("trial %d (%d tasks): learning search optimum %d, exact search %d", trial, p.n, lb, res.lb)
		}
		if ms := slices.Max(endsOf(p, start)); ms != lb {
			t.Fatalf("trial %d: schedule of makespan %d, optimum %d", trial, ms, lb)
		}
		if len(in.machines) == 1 {
			s := NewSchedule(in.d.N())
			for i, st := range start {
				s.Start[i], s.End[i], s.Machine[i] = st, st+in.d.Tasks[i].Duration, 0
			}
			mustCheck(t, "lcg", in, s)
		}
	}
}
