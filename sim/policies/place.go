package policies

import "github.com/capplan/capplan/sim"

// PlaceRule picks the machine for a task among those with room
// (SIMULATE.md §3.0).
type PlaceRule uint8

const (
	// PlaceFirst takes the first fitting machine in (class, id) order.
	PlaceFirst PlaceRule = iota
	// PlaceBest takes the machine left with the least NormSum(free − r̂):
	// best fit.
	PlaceBest
	// PlaceAlign takes the machine of highest alignment
	// Σ_{r: cap>0} (r̂_r/cap_r)(free_r/cap_r) (Tetris; Graphene §2.2, §5.1).
	PlaceAlign
)

var placeNames = []string{"first", "best", "align"}

func (r PlaceRule) String() string { return placeNames[r] }

func placeRuleByName(s string) (PlaceRule, bool) {
	for i, n := range placeNames {
		if n == s {
			return PlaceRule(i), true
		}
	}
	return 0, false
}

// DefaultK is how many fitting machines best and align compare.
const DefaultK = 32

// Placement is a machine-choice rule and how many fitting machines, in
// (class, id) order, it compares (K = 0: all). Ties go to the lower
// machine id.
type Placement struct {
	Rule PlaceRule
	K    int
}

// Align returns the alignment of demand r on machine m: the dot product of
// demand and free capacity, both over the machine's capacity (sim.Align).
func Align(r, free, capacity sim.Vec) float64 { return sim.Align(r, free, capacity) }

// Choose returns the machine for task t under the rule, or NoMachine.
func (pl Placement) Choose(s *sim.State, t sim.TaskRef) sim.MachineID {
	if pl.Rule == PlaceFirst {
		return s.FirstFit(t)
	}
	r := s.Task(t).Demand()
	if pl.Rule == PlaceAlign && pl.K == 0 {
		if m := bestAligned(s, t, r); m == sim.NoMachine || s.Fits(t, m) {
			return m
		} // per-device fit (GPUs) refused the index's pick: scan every fit
	}
	C := s.C()
	best, bm := 0.0, sim.NoMachine
	n := 0
	s.ForEachFit(t, func(m sim.MachineID) bool {
		mv := s.Machine(m)
		var score float64
		if pl.Rule == PlaceAlign {
			score = Align(r, mv.Free(), mv.Cap())
		} else { // best fit: least leftover NormSum, negated to maximise
			f := mv.Free()
			for d, x := range r {
				if C[d] > 0 {
					score -= float64(f[d]-x) / float64(C[d])
				}
			}
		}
		if bm == sim.NoMachine || score > best || score == best && m < bm {
			best, bm = score, m
		}
		n++
		return pl.K == 0 || n < pl.K
	})
	return bm
}

// bestAligned returns the best-aligned machine over all fitting machines
// (K = all), exactly, from each eligible class's alignment trees
// (FreeIndex.BestAligned). Ties go to the lower id.
func bestAligned(s *sim.State, t sim.TaskRef, r sim.Vec) sim.MachineID {
	bm, best := sim.NoMachine, 0.0
	x := s.Index()
	for _, c := range s.Eligible(t).List() {
		m, v := x.BestAligned(c, r)
		if m != sim.NoMachine && (bm == sim.NoMachine || v > best || v == best && m < bm) {
			bm, best = m, v
		}
	}
	return bm
}
