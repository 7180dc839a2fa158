package dag

import (
	"math"
)

// boundTol absorbs float64 rounding before a fractional bound is rounded
// up to whole ticks: ceil(x − boundTol·max(1, x)). Rounding up is sound
// because tasks with integer durations can always be left-shifted to
// integer start times without lengthening a schedule.
const boundTol = 1e-9

// ceilBound rounds a fractional lower bound up to whole ticks.
func ceilBound(x float64) int64 {
	if math.IsInf(x, 1) {
		return math.MaxInt64
	}
	return int64(math.Ceil(x - boundTol*math.Max(1, x)))
}

// Bounds collects the lower bounds on the makespan of a DAG on machines.
// Every one is ≤ the makespan of every feasible schedule.
type Bounds struct {
	// CP is the critical-path length (LB0).
	CP int64
	// TWork is Graphene's TWork per resource: Σ dur·demand / pooled
	// capacity, unrounded (+Inf when a resource with demand has none).
	TWork []float64
	// Energy is ⌈max_r TWork_r⌉ (LB1).
	Energy int64
	// NewLB is the stage-structure bound of ALGORITHMS §3.2, including the
	// cut bound.
	NewLB int64
	// NodePacking is the heaviest pairwise-incompatible set found.
	NodePacking int64
	// Bin is the per-machine bound for tasks that cannot co-reside.
	Bin int64
	// Best is the maximum of the above.
	Best int64
}

// LowerBounds computes every bound. The DAG must fit the machines
// (CheckFit); otherwise the bounds are meaningless.
func LowerBounds(d *DAG, machines [][]float64) Bounds {
	b := Bounds{
		CP:          CPLength(d),
		TWork:       TWork(d, machines),
		Energy:      EnergyLB(d, machines),
		NewLB:       NewLB(d, machines),
		NodePacking: NodePackingLB(d, machines),
		Bin:         BinLB(d, machines),
	}
	b.Best = max(b.CP, b.Energy, b.NewLB, b.NodePacking, b.Bin)
	return b
}

// CheckFit returns a *NoFitError listing every task that fits no machine
// even when the machine is empty, or nil. O(N·M·K).
func CheckFit(d *DAG, machines [][]float64) error {
	var e NoFitError
	for i := range d.Tasks {
		t := &d.Tasks[i]
		var best []Shortfall
		bestN := -1
		for _, c := range machines {
			var sf []Shortfall
			for r, x := range t.Demand {
				if !fitsCap(x, c[r]) {
					sf = append(sf, Shortfall{Resource: d.Resources[r], Demand: x, Capacity: c[r]})
				}
			}
			if bestN < 0 || len(sf) < bestN {
				best, bestN = sf, len(sf)
			}
			if bestN == 0 {
				break
			}
		}
		if bestN != 0 {
			e.Tasks = append(e.Tasks, t.ID)
			e.Shortfalls = append(e.Shortfalls, best)
		}
	}
	if len(e.Tasks) > 0 {
		return &e
	}
	return nil
}
