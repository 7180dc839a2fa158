package dag

import (
	"slices"
	"testing"
)

// TestSearchesBruteForce: on random tiny instances on one machine, the
// exact search's climb and the learning search's both end at the
// brute-force optimum with a schedule of that makespan that passes the
// checker; on two machines (pooled) neither exceeds brute force.
func TestSearchesBruteForce(t *testing.T) {
	searches := map[string]func(p *problem, lo, top int64) (int64, []int64){
		"exact": func(p *problem, lo, top int64) (int64, []int64) {
			res := &searchResult{lb: lo, ub: top}
			searchUp(p, res, top, &budget{max: 1 << 40})
			return res.lb, res.start
		},
		"lcg": func(p *problem, lo, top int64) (int64, []int64) {
			return lcgClimb(p, lo, top, &budget{max: 1 << 40}) // backward, split
		},
		"lcg-forward": func(p *problem, lo, top int64) (int64, []int64) {
			return lcgUpFixing(p, lo, top, forward)
		},
		// the climb with the energy rule as lcgDown runs it (on the
		// tested makespan's root until lcgEnergyAfter conflicts)
		"lcg-root-energy": func(p *problem, lo, top int64) (int64, []int64) {
			s := newLCG(p, lo, top, &budget{max: 1 << 40})
			for ; lo < top; lo++ {
				if s.test(lo) == searchFound {
					return lo, slices.Clone(s.lb[:s.n])
				}
			}
			return top, nil
		},
	}
	for _, name := range []string{"exact", "lcg", "lcg-root-energy"} {
		rng := newTestRand(41)
		for trial := 0; trial < 400; trial++ {
			in := randomTiny(t, rng, 7)
			want := bruteOpt(in.d, in.machines)
			p := newProblem(in.d, in.machines)
			lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
			lb, start := searches[name](p, lo, in.d.TotalDuration()+1)
			if start == nil {
				t.Fatalf("%s, trial %d: no schedule found (bound %d)", name, trial, lb)
			}
			if lb > want {
				t.Fatalf("%s, trial %d (%d machines): optimum %d above brute force %d", name, trial, len(in.machines), lb, want)
			}
			if len(in.machines) > 1 {
				continue
			}
			if lb != want {
				t.Fatalf("%s, trial %d: optimum %d, brute force %d", name, trial, lb, want)
			}
			s := NewSchedule(in.d.N())
			for i, st := range start {
				s.Start[i], s.End[i], s.Machine[i] = st, st+in.d.Tasks[i].Duration, 0
			}
			mustCheck(t, name, in, s)
			if s.Makespan() > lb {
				t.Fatalf("%s, trial %d: schedule makespan %d, claimed %d", name, trial, s.Makespan(), lb)
			}
		}
	}
}
