package dag

// Assessment is the evidence about one schedule, produced here or observed
// in a trace: what it breaks, how long it takes and how far it is from the
// lower bounds.
type Assessment struct {
	// Violations found by Check; empty for a feasible schedule.
	Violations []Violation
	// Makespan is the schedule's span (max end − min start).
	Makespan int64
	// Bounds are the DAG's lower bounds on the machines.
	Bounds Bounds
	// Gap is Makespan/Bounds.Best − 1: at least 0 for a feasible schedule,
	// and an upper bound on its distance from the optimum.
	Gap float64
}

// Assess checks s and measures it against the lower bounds. A feasible
// schedule below Bounds.Best would contradict a bound; tests treat that
// as a bug. O(Check + LowerBounds).
func Assess(d *DAG, machines [][]float64, s *Schedule) Assessment {
	a := Assessment{Violations: Check(d, machines, s), Makespan: s.Makespan(), Bounds: LowerBounds(d, machines)}
	a.Gap = Gap(a.Makespan, a.Bounds.Best)
	return a
}

// Gap returns makespan/bound − 1, the relative distance of a makespan
// above a lower bound (0 when the bound is not positive). Use it for
// observed run times that come without a task-level schedule, such as
// AlibabaJob.ObservedSpan.
func Gap(makespan, bound int64) float64 {
	if bound <= 0 {
		return 0
	}
	return float64(makespan)/float64(bound) - 1
}

// AssessAll is Assess with every bound (AllBounds) within the budget of o:
// the makespan of a feasible schedule caps the destructive bounds, which
// stop when they prove it optimal. It returns a *NoFitError when some task
// fits no machine.
func AssessAll(d *DAG, machines [][]float64, s *Schedule, o Options) (Assessment, error) {
	a := Assessment{Violations: Check(d, machines, s), Makespan: s.Makespan()}
	ub := int64(0)
	if len(a.Violations) == 0 {
		ub = a.Makespan
	}
	b, err := AllBounds(d, machines, ub, o)
	if err != nil {
		return a, err
	}
	a.Bounds = b
	a.Gap = Gap(a.Makespan, b.Best)
	return a, nil
}
