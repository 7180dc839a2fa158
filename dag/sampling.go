package dag

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SampleList draws one precedence-feasible task list by regret-based
// biased random sampling (Drexl 1991; Kolisch & Hartmann 1999; ALGORITHMS
// §6.3): at each step, among the eligible tasks E (all predecessors
// listed), task j is chosen with probability proportional to
//
//	(ρ_j + 1)^α,   ρ_j = max_{i∈E} v_i − v_j
//
// for priority values v (smaller is better). α = 0 is uniform random
// sampling; large α approaches the deterministic rule. O(N·|E|).
func SampleList(d *DAG, prio []float64, alpha float64, rng *rand.Rand) []int {
	n := d.N()
	r := newReadiness(d)
	var elig []int
	for v := 0; v < n; v++ {
		if r.left[v] == 0 {
			elig = append(elig, v)
		}
	}
	push := func(v int) { elig = append(elig, v) }
	list := make([]int, 0, n)
	w := make([]float64, 0, n)
	for len(elig) > 0 {
		vmax := math.Inf(-1)
		for _, v := range elig {
			vmax = max(vmax, prio[v])
		}
		w = w[:0]
		var total float64
		for _, v := range elig {
			x := math.Pow(vmax-prio[v]+1, alpha)
			w = append(w, x)
			total += x
		}
		u := rng.Float64() * total
		k := 0
		for k < len(elig)-1 && u >= w[k] {
			u -= w[k]
			k++
		}
		v := elig[k]
		elig[k] = elig[len(elig)-1]
		elig = elig[:len(elig)-1]
		list = append(list, v)
		r.finish(v, push)
	}
	return list
}

// ListSchedule places a precedence-feasible task list with the serial SGS
// (each task at its earliest fit over all machines). It returns a
// *NoFitError when some task fits no machine, and panics when list is not
// a permutation of the tasks with every predecessor first.
func ListSchedule(d *DAG, machines [][]float64, list []int) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	seen := make([]bool, d.N())
	for _, v := range list {
		if v < 0 || v >= d.N() || seen[v] {
			panic(fmt.Sprintf("dag: task list repeats or misses task %d", v))
		}
		for _, p := range d.Preds(v) {
			if !seen[p] {
				panic(fmt.Sprintf("dag: task list puts %s before its predecessor %s", d.Tasks[v].ID, d.Tasks[p].ID))
			}
		}
		seen[v] = true
	}
	if len(list) != d.N() {
		panic(fmt.Sprintf("dag: task list has %d of %d tasks", len(list), d.N()))
	}
	s := NewSchedule(d.N())
	serialList(d, NewSpace(machines), list, nil, forward, 0, s)
	return s, nil
}
