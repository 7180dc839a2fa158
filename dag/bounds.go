package dag

import (
	"math"
	"time"
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
// Every one is ≤ the makespan of every feasible schedule. The first six
// are cheap (LowerBounds); the last five come from destructive
// improvement and search (AllBounds, Best) and are 0 when not computed.
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
	// Energetic is destructive improvement with propagation (precedence
	// windows, disjunctions, time-table, energetic reasoning) and shaving
	// on the task-level pooled relaxation (EnergeticLB).
	Energetic int64
	// Stage is destructive improvement at stage level, for DAGs of many
	// tasks in stages (StageLB).
	Stage int64
	// LP is the linear-programming test of destructive improvement over
	// feasible sets in time intervals (Brucker & Knust; see lpBound).
	LP int64
	// Search is the largest makespan T + 1 such that the exact search
	// refuted T, or the optimum it proved (see searcher).
	Search int64
	// LCG is the same from the search with nogood learning (lazy clause
	// generation, see lcg).
	LCG int64
	// Best is the maximum of the above, and BestBy the name (BoundNames)
	// of the bound that reached it first (the cheap bounds in table order,
	// then the destructive ones in the order they ran).
	Best   int64
	BestBy string
	// Work is the work each destructive bound spent, by name.
	Work map[string]int64
	// Elapsed is the wall-clock time of each bound by name, when measured
	// (AllBounds); it is the only machine-dependent field.
	Elapsed map[string]time.Duration
}

// BoundNames name the bounds of Bounds in table order: the names the
// documents use and BestBy reports.
var BoundNames = []string{"cpLength", "energy", "newLB", "nodePacking", "bin", "energetic", "stage", "lp", "search", "lcg"}

// Value returns the bound named name (BoundNames), or 0.
func (b *Bounds) Value(name string) int64 {
	switch name {
	case "cpLength":
		return b.CP
	case "energy":
		return b.Energy
	case "newLB":
		return b.NewLB
	case "nodePacking":
		return b.NodePacking
	case "bin":
		return b.Bin
	case "energetic":
		return b.Energetic
	case "stage":
		return b.Stage
	case "lp":
		return b.LP
	case "search":
		return b.Search
	case "lcg":
		return b.LCG
	}
	return 0
}

// settle sets Best and BestBy from the cheap bounds, in table order.
func (b *Bounds) settle() {
	b.Best, b.BestBy = 0, BoundNames[0]
	for _, name := range BoundNames {
		if v := b.Value(name); v > b.Best {
			b.Best, b.BestBy = v, name
		}
	}
}

// raise records that the bound named name was computed: it becomes Best
// (and BestBy) when it is larger. The destructive bounds start from Best,
// so one that refutes nothing equals it; BestBy then keeps the bound that
// reached the value first, in the order they were computed.
func (b *Bounds) raise(name string) {
	if v := b.Value(name); v > b.Best {
		b.Best, b.BestBy = v, name
	}
}

// run computes the destructive bound named name with f on share of bud's
// work: it records the value, the work and (when el is not nil) the
// wall-clock time, and raises Best.
func (b *Bounds) run(name string, bud *budget, share int64, el map[string]time.Duration, f func(*budget) int64) {
	t0 := time.Now()
	cb := bud.child(share)
	v := f(cb)
	b.addWork(name, cb.used)
	bud.merge(cb)
	switch name {
	case "stage":
		b.Stage = v
	case "energetic":
		b.Energetic = v
	case "lp":
		b.LP = v
	case "search":
		b.Search = v
	case "lcg":
		b.LCG = v
	}
	b.raise(name)
	if el != nil {
		el[name] = time.Since(t0)
	}
}

// addWork records work spent by a named bound.
func (b *Bounds) addWork(name string, w int64) {
	if b.Work == nil {
		b.Work = map[string]int64{}
	}
	b.Work[name] += w
}

// LowerBounds computes the cheap bounds (the first six of Bounds). The DAG
// must fit the machines (CheckFit); otherwise the bounds are meaningless.
func LowerBounds(d *DAG, machines [][]float64) Bounds {
	b := Bounds{
		CP:          CPLength(d),
		TWork:       TWork(d, machines),
		Energy:      EnergyLB(d, machines),
		NewLB:       NewLB(d, machines),
		NodePacking: NodePackingLB(d, machines),
		Bin:         BinLB(d, machines),
	}
	b.settle()
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
