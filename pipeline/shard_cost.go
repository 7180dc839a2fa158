package pipeline

import (
	"math"

	"github.com/capplan/capplan/dag"
)

// costUnit is the unit of every cost estimate: microseconds of one core of
// the reference machine (the 2-core machine the coefficients were fitted
// on). Shards are balanced on these estimates, so an estimate off by a
// constant factor balances as well: a model only needs to rank and
// proportion the items.
const costUnit = "estimated µs"

// The cost models of one DAG job with n tasks and e task edges, fitted by
// least squares on per-job times over the Alibaba v2018 sample (1,994
// jobs, 2.2 million tasks, 576 million task edges, one 96-core machine
// each; README, Sharding):
//
//	bounds (dag.LowerBounds; dag.Assess for check):  10 + n + e/48
//	one scheduler (graphene, the baselines, SGS):    bounds + 1.3·n^1.5 + e/5
//	best (every scheduler, then the GA to a bound):  bounds + 4·n^1.5 + e/5
//
// The n^1.5 terms fit the list schedulers better than n or n² (R² 0.58 for
// graphene; 0.33 for best, whose search mostly stops early at a lower
// bound, which no model of the input can foresee).
const (
	dagBoundsPerJob     = 10
	dagBoundsEdgesPerUS = 48
	dagEdgesPerUS       = 5
	// dagPassTenths and dagBestTenths are the n^1.5 coefficients in
	// tenths of a µs.
	dagPassTenths = 13
	dagBestTenths = 40
)

// dagBoundsCost estimates dag.LowerBounds (and dag.Assess) on d.
func dagBoundsCost(d *dag.DAG) int64 {
	n, e := int64(d.N()), int64(d.Edges())
	return dagBoundsPerJob + n + e/dagBoundsEdgesPerUS
}

// dagScheduleCost estimates scheduling d with method ("" is best) and
// comparing compare other methods.
func dagScheduleCost(method string, compare int, d *dag.DAG) int64 {
	n, e := int64(d.N()), int64(d.Edges())
	n15 := n * int64(math.Sqrt(float64(n))) // ⌊√n⌋: sqrt is correctly rounded, so exact and the same everywhere
	pass := dagPassTenths*n15/10 + e/dagEdgesPerUS
	run := pass
	if method == "" || method == "best" {
		run = dagBestTenths*n15/10 + e/dagEdgesPerUS
	}
	return dagBoundsCost(d) + run + int64(compare)*pass
}

// sweepPolicyFactor is the cost of simulating one task under a policy, in
// tenths of a µs: user CPU time over tasks of `capplan simulate --workload
// fb --wparam jobs=3000` (234,958 tasks on 18 machines). A policy not
// listed (a newer one) costs sweepDefaultFactor.
var sweepPolicyFactor = map[string]int64{
	"fifo": 15, "fifo-strict": 9, "drf": 15, "sjf": 12, "srtf": 10,
	"tetris": 15, "tetrisfair": 15, "cp": 35, "capacity": 18,
}

// sweepDefaultFactor is the cost per task of a policy without a measured
// factor: the largest measured, rounded up, so that new (often costlier)
// policies are not underestimated.
const sweepDefaultFactor = 40

// sweepCellCost estimates a cell: the workload's tasks times the policy's
// cost per task, in µs.
func sweepCellCost(policy string, tasks int64) int64 {
	f, ok := sweepPolicyFactor[policy]
	if !ok {
		f = sweepDefaultFactor
	}
	return max(1, tasks*f/10)
}

// sweepTasks loads (or generates) the cell's workload once and counts its
// tasks: the size of every cell on that workload and size. It also checks
// that the workload loads, so that a bad parameter is reported before any
// cell runs.
func sweepTasks(o *SweepOptions, c *sweepCell) (int64, error) {
	so := c.simulateOptions(o)
	w, err := loadWorkload(&so)
	if err != nil {
		return 0, err
	}
	if w.jobs != nil {
		return w.numTasks, nil
	}
	var n int64
	src := w.source()
	for j, ok := src.Next(); ok; j, ok = src.Next() {
		n += int64(j.NumTasks())
	}
	return n, nil
}
