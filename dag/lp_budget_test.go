package dag_test

import (
	"fmt"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets/dags"
)

// TestLPClimbKeepsBudget: the LP test stops pricing when its budget runs
// out (a round that does not price every interval certifies nothing), so
// it overruns a budget by at most about one pricing problem and one
// propagation, never by whole rounds. Before, on these ProGen J120
// projects from the energetic bound, a 6M budget was overrun by up to
// 16.7M, taken from the phases after it in Best.
func TestLPClimbKeepsBudget(t *testing.T) {
	const slack = 400_000 // two pricing problems' worth of nodes
	set := dags.ProGenSet(120)
	for _, P := range []int{6, 27, 31, 48, 55} {
		in, err := set[P-1].Generate(fmt.Sprintf("j120%d_1", P), uint64(1000*P+1))
		if err != nil {
			t.Fatal(err)
		}
		d, ms := in.DAG, in.Machines()
		lo := dag.EnergeticLB(d, ms)
		for _, w := range []int64{1_000_000, 3_000_000, 6_000_000} {
			lb, used := dag.LPClimbForTest(d, ms, lo, d.TotalDuration(), w)
			if used > w+slack {
				t.Errorf("%s: LP climb from %d spent %d work units of a budget of %d", in.DAG.Name, lo, used, w)
			}
			if lb < lo {
				t.Errorf("%s: LP climb returned %d below its start %d", in.DAG.Name, lb, lo)
			}
		}
	}
}
