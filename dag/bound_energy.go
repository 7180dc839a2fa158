package dag

import "math"

// TWork returns, per resource r, Graphene's TWork (Table 1):
//
//	TWork_r = (1/C_r) · Σ_t dur_t · demand_{t,r},   C_r = Σ_m cap_{m,r}
//
// the makespan with perfect packing into the pooled capacity and no
// dependencies; +Inf when C_r = 0 but some task needs r. O(N·K).
func TWork(d *DAG, machines [][]float64) []float64 {
	return twork(d, d.allTasks(), Pool(machines)[0])
}

// twork is TWork over a subset of tasks and a pooled capacity.
func twork(d *DAG, tasks []int, pool []float64) []float64 {
	w := make([]float64, d.K())
	for _, v := range tasks {
		t := &d.Tasks[v]
		for r, x := range t.Demand {
			w[r] += float64(t.Duration) * x
		}
	}
	for r := range w {
		switch {
		case w[r] == 0:
		case pool[r] == 0:
			w[r] = math.Inf(1)
		default:
			w[r] /= pool[r]
		}
	}
	return w
}

// EnergyLB is the capacity (energy) bound LB1 of Klein & Scholl (EJOR
// 1999): ⌈max_r TWork_r⌉, or 0 for no resources. Valid for machines
// because pooling only removes constraints. O(N·K).
func EnergyLB(d *DAG, machines [][]float64) int64 {
	return energy(d, d.allTasks(), Pool(machines)[0])
}

func energy(d *DAG, tasks []int, pool []float64) int64 {
	var best int64
	for _, w := range twork(d, tasks, pool) {
		best = max(best, ceilBound(w))
	}
	return best
}

// allTasks returns 0..N-1.
func (d *DAG) allTasks() []int {
	a := make([]int, d.N())
	for i := range a {
		a[i] = i
	}
	return a
}
