package dag

import "testing"

// MustCheck exposes mustCheck to the external tests (package dag_test),
// which read the shared datasets through datasets/dags.
func MustCheck(tb testing.TB, what, name string, d *DAG, machines [][]float64, s *Schedule) {
	tb.Helper()
	mustCheck(tb, what, instance{name: name, d: d, machines: machines}, s)
}

// ExactForTest runs the exact search on d (pooled) from the simple bounds
// up to ub within maxWork units.
func ExactForTest(d *DAG, machines [][]float64, ub, maxWork int64) (lb int64, optimal bool, work int64) {
	b := &budget{max: maxWork}
	lo := max(CPLength(d), EnergyLB(d, machines), EnergeticLB(d, machines))
	lb, _, optimal = exact(newProblem(d, machines), lo, ub, b)
	return lb, optimal, b.used
}

// LPClimbForTest runs the LP test of destructive improvement alone, from
// lo up to hi, within maxWork units.
func LPClimbForTest(d *DAG, machines [][]float64, lo, hi, maxWork int64) int64 {
	return lpClimb(newProblem(d, machines), lo, hi, &budget{max: maxWork})
}
