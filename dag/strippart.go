package dag

import (
	"cmp"
	"slices"
)

// StripPart is the level-partition baseline after Augustine, Banerjee &
// Irani, "Strip packing with precedence constraints and strip packing with
// release times", SPAA 2006 (ALGORITHMS §6.1; reconstructed from the
// idea, the paper's body was not available):
//
//  1. ASAP intervals [ES_t, EF_t) with unlimited resources.
//  2. Recursively split the span of a task set at its midpoint: the tasks
//     whose ASAP interval contains the midpoint are pairwise independent
//     and form one level; recurse on the tasks ending by it and those
//     starting after it. A zero-duration task at the midpoint goes left:
//     its predecessors end by the midpoint, its successors start at or
//     after it. Both sides shrink, since the task ending last is not on
//     the left and the task starting first not on the right.
//  3. Run the levels in order left, middle, right, each packed alone as a
//     block after the previous block ends: longest task first, earliest
//     fit over the machines.
//
// Precedence holds because an edge a → b has EF_a ≤ ES_b, so a's level
// comes first. Not work-conserving: tasks of different levels never share
// time, which is why it underperforms (Graphene §7). It returns a
// *NoFitError when some task fits no machine. O(N log N) levels work plus
// the packing.
func StripPart(d *DAG, machines [][]float64) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	cpm := Critical(d, 0)
	var levels [][]int
	var split func(tasks []int)
	split = func(tasks []int) {
		if len(tasks) == 0 {
			return
		}
		lo, hi := cpm.ES[tasks[0]], cpm.EF[tasks[0]]
		positive := false
		for _, v := range tasks {
			lo, hi = min(lo, cpm.ES[v]), max(hi, cpm.EF[v])
			positive = positive || d.Tasks[v].Duration > 0
		}
		if !positive || lo == hi {
			levels = append(levels, tasks)
			return
		}
		// The midpoint is (lo+hi)/2; compare doubled times to stay exact.
		mid2 := lo + hi
		var left, middle, right []int
		for _, v := range tasks {
			switch {
			case 2*cpm.EF[v] <= mid2: // includes zero-duration tasks at the midpoint
				left = append(left, v)
			case 2*cpm.ES[v] <= mid2:
				middle = append(middle, v)
			default:
				right = append(right, v)
			}
		}
		split(left)
		if len(middle) > 0 {
			levels = append(levels, middle)
		}
		split(right)
	}
	split(d.Topo())
	s := NewSchedule(d.N())
	sp := NewSpace(machines)
	var t0 int64
	for _, lv := range levels {
		lv = slices.Clone(lv)
		slices.SortStableFunc(lv, func(a, b int) int { return cmp.Compare(d.Tasks[b].Duration, d.Tasks[a].Duration) })
		end := t0
		for _, v := range lv {
			t := &d.Tasks[v]
			m, st := sp.Forward(t.Demand, t.Duration, t0)
			s.Start[v], s.End[v], s.Machine[v] = st, st+t.Duration, m
			end = max(end, st+t.Duration)
		}
		t0 = end
	}
	return s, nil
}
