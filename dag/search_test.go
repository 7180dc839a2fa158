package dag

import (
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
		res := &searchResult{lb: lo, ub: in.d.TotalDuration() + 1}
		searchUp(p, res, res.ub, &budget{max: 1 << 40})
		lb, start := res.lb, res.start
		if lb >= in.d.TotalDuration()+1 || start == nil {
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
