package dag

import "math/rand/v2"

// BackwardSGS schedules the reversed DAG forwards with the serial
// (parallel = false) or parallel SGS and the given rule, priorities
// computed on the reversed DAG, and mirrors the result in time: start =
// T − end_reversed, where T is the reversed makespan (ALGORITHMS §6.2,
// backward planning). Resource usage over time is mirrored, so capacity
// still holds, and every edge points the right way again. It returns a
// *NoFitError when some task fits no machine.
func BackwardSGS(d *DAG, machines [][]float64, rule Rule, parallel bool, seed uint64) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	return backwardSGS(d, machines, rule, parallel, seed), nil
}

func backwardSGS(d *DAG, machines [][]float64, rule Rule, parallel bool, seed uint64) *Schedule {
	r := d.Reverse()
	prio := Priority(r, rule, 0, rand.New(rand.NewPCG(seed, 1)))
	var s *Schedule
	if parallel {
		s = newEngine(r, machines).run(prio)
	} else {
		s = serialSGS(r, NewSpace(machines), prio)
	}
	mirror(s)
	return s
}

// mirror reflects a schedule in time: [a, b) becomes [T−b, T−a) with T the
// latest end, so the result starts at 0 when s did.
func mirror(s *Schedule) {
	var T int64
	for _, e := range s.End {
		T = max(T, e)
	}
	for i := range s.Start {
		s.Start[i], s.End[i] = T-s.End[i], T-s.Start[i]
	}
}
