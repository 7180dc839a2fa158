package dag

import (
	"slices"
	"testing"
)

// TestExactBruteForce: on random tiny instances on one machine the exact
// search's optimum equals brute force, its schedule passes the checker
// and has that makespan; on two machines (pooled) it never exceeds brute
// force.
func TestExactBruteForce(t *testing.T) {
	rng := newTestRand(41)
	for trial := 0; trial < 400; trial++ {
		in := randomTiny(t, rng, 7)
		want := bruteOpt(in.d, in.machines)
		p := newProblem(in.d, in.machines)
		lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
		lb, start, optimal := exact(p, lo, in.d.TotalDuration()+1, &budget{max: 1 << 40})
		if !optimal {
			t.Fatalf("trial %d: search did not finish", trial)
		}
		if lb > want {
			t.Fatalf("trial %d (%d machines): search optimum %d above brute force %d", trial, len(in.machines), lb, want)
		}
		if len(in.machines) == 1 {
			if lb != want {
				t.Fatalf("trial %d: search optimum %d, brute force %d", trial, lb, want)
			}
			if start != nil {
				s := NewSchedule(in.d.N())
				for i, st := range start {
					s.Start[i], s.End[i], s.Machine[i] = st, st+in.d.Tasks[i].Duration, 0
				}
				mustCheck(t, "exact", in, s)
				if s.Makespan() > lb {
					t.Fatalf("trial %d: schedule makespan %d, claimed %d", trial, s.Makespan(), lb)
				}
			}
		}
	}
}

// TestSearchDownElsewhere: told of a schedule of the optimal makespan
// found elsewhere (res.elsewhere, as the lockstep's verdict does),
// searchDown tests optimum − 1 only: it refutes it (lb = optimum) and
// finds no schedule of its own; told of one a tick longer, it tests
// optimum and finds a schedule of the optimal makespan, then proves it.
// On one machine the pooled problem is the problem, so brute force gives
// the optimum.
func TestSearchDownElsewhere(t *testing.T) {
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
		searchDown(p, res, &budget{max: 1 << 40})
		if res.lb != want || res.start != nil || res.ub != top || !res.finished {
			t.Fatalf("trial %d: elsewhere %d: lb %d, ub %d, schedule %v, finished %v", trial, want, res.lb, res.ub, res.start != nil, res.finished)
		}
		res = &searchResult{lb: lo, ub: top, elsewhere: want + 1}
		searchDown(p, res, &budget{max: 1 << 40})
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
