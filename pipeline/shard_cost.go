package pipeline

import "github.com/capplan/capplan/dag"

// costUnit is the unit of every cost estimate: microseconds of one core of
// the reference machine (the machine the coefficients were fitted on).
const costUnit = "estimated µs"

// Cost models of one DAG job, fitted by least squares on the per-job times
// of the Alibaba v2018 sample (1,994 jobs, 2.2 million tasks, 576 million
// task edges; one 96-core machine each) on a 2-core machine; see
// README "Sharding" for the fit. A model needs only to rank and
// proportion the jobs: shards are balanced on these estimates, so an
// estimate off by a constant factor balances as well.
const (
	// dagBoundsPerJob, dagBoundsPerTask and dagBoundsEdgesPerMicro: the
	// lower bounds cost ≈ 100 + 2.5·tasks + edges/64 µs.
	dagBoundsPerJob        = 100
	dagBoundsPerTaskX2     = 5
	dagBoundsEdgesPerMicro = 64
)

// dagBoundsCost estimates dag.LowerBounds (and dag.Assess, which adds a
// linear pass) on d.
func dagBoundsCost(d *dag.DAG) int64 {
	n, e := int64(d.N()), int64(d.Edges())
	return dagBoundsPerJob + dagBoundsPerTaskX2*n/2 + e/dagBoundsEdgesPerMicro
}

// dagScheduleCost estimates scheduling d with method (best with work
// budget maxWork, 0: the default).
func dagScheduleCost(method string, maxWork int64, d *dag.DAG) int64 {
	n, e := int64(d.N()), int64(d.Edges())
	return dagBoundsCost(d) + 150*n + e/5
}

// sweepPolicyFactor is the estimated cost of simulating one task under a
// policy, in µs (see README "Sharding"); a policy not listed costs
// sweepDefaultFactor.
var sweepPolicyFactor = map[string]int64{}

const sweepDefaultFactor = 10

// sweepCellCost estimates a cell: the workload's tasks times the policy's
// cost per task.
func sweepCellCost(policy string, tasks int64) int64 {
	f, ok := sweepPolicyFactor[policy]
	if !ok {
		f = sweepDefaultFactor
	}
	return max(1, tasks) * f
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
