package dag

import "testing"

// MustCheck exposes mustCheck to the external tests (package dag_test),
// which read the shared datasets through datasets/dags.
func MustCheck(tb testing.TB, what, name string, d *DAG, machines [][]float64, s *Schedule) {
	tb.Helper()
	mustCheck(tb, what, instance{name: name, d: d, machines: machines}, s)
}

// LPClimbForTest runs the LP test of destructive improvement alone, from
// lo up to hi, within maxWork units; it returns the bound and the work
// spent.
func LPClimbForTest(d *DAG, machines [][]float64, lo, hi, maxWork int64) (int64, int64) {
	b := &budget{max: maxWork}
	return lpClimb(newProblem(d, machines), lo, hi, b), b.used
}

// LCGClimbForTest runs the learning search's climb alone from lo below
// hi within maxWork units; it returns the bound and whether it found a
// schedule there.
func LCGClimbForTest(d *DAG, machines [][]float64, lo, hi, maxWork int64) (int64, bool) {
	lb, start := lcgClimb(newProblem(d, machines), lo, hi, &budget{max: maxWork})
	return lb, start != nil
}
