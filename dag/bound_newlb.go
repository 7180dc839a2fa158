package dag

import "slices"

// NewLB is the stage-structure lower bound of ALGORITHMS §3.2 (Graphene
// §2.3 names it; the tech report's formula was not available, so this is
// the derived, sound variant). Over the stage graph in topological order:
//
//	LB(s) = max(⌈TWork(s)⌉, max_{t∈s} dur_t, slotLB(s)),  mindur(s) = min_{t∈s} dur_t
//	E(s)  = max( min_{t∈s} ES_t,
//	             F(p)              for barrier parents p,
//	             E(p) + mindur(p)  for other parents p that give every task of s a predecessor )
//	F(s)  = max( E(s) + LB(s),  max_{t∈s} EF_t,
//	             F(p) + mindur(s)  for parents p every task of which has a child in s )
//
// E(s) bounds the earliest start of any task of s and F(s) the finish of
// the whole stage; ES and EF are the task-level CPM times. The result is
//
//	NewLB = max( max_s F(s), CPLength, ⌈TWork(G)⌉, CutLB )
//	CutLB = Σ_parts max( CPLength(part), ⌈TWork(part)⌉, slotLB(part) )
//
// over the parts between cuts (see Cuts). Departures from §3.2: LB(s) and
// the parts also use slotLB, which sees that tasks come in whole numbers
// per machine (fragmentation the pooled TWork ignores); E and F also take
// the CPM times, and a non-barrier parent counts only when the
// coverage it relies on holds (StageEdge.CoversTo / CoversFrom), so the
// bound stays sound for any task-level edge pattern. When the stage graph
// is not a DAG the stage terms are skipped. O(N·K + M·K·S + E).
func NewLB(d *DAG, machines [][]float64) int64 {
	cpm := Critical(d, 0)
	lb := max(cpm.Length, energy(d, d.allTasks(), Pool(machines)[0]), cutLB(d, machines))
	if d.stageTopo == nil || len(d.Stages) == 0 {
		return lb
	}
	_, F, _ := stageRecursion(d, machines, cpm)
	return max(lb, slices.Max(F))
}

// stageRecursion computes NewLB's E(s) and F(s) for every stage, and the
// standalone bound LB(s); the stage graph must be a DAG (stageTopo).
func stageRecursion(d *DAG, machines [][]float64, cpm *CPM) (E, F, LB []int64) {
	pool := Pool(machines)[0]
	ns := len(d.Stages)
	E, F, LB = make([]int64, ns), make([]int64, ns), make([]int64, ns)
	mindur := make([]int64, ns)
	for _, s := range d.stageTopo {
		st := &d.Stages[s]
		var maxdur, maxEF int64
		minES, mind := cpm.ES[st.Tasks[0]], d.Tasks[st.Tasks[0]].Duration
		for _, t := range st.Tasks {
			maxdur = max(maxdur, d.Tasks[t].Duration)
			mind = min(mind, d.Tasks[t].Duration)
			minES = min(minES, cpm.ES[t])
			maxEF = max(maxEF, cpm.EF[t])
		}
		mindur[s] = mind
		e := minES
		f := maxEF
		for _, ei := range d.stageIn[s] {
			se := &d.StageEdges[ei]
			p := se.From
			switch {
			case se.Kind == Barrier:
				e = max(e, F[p])
			case se.CoversTo:
				e = max(e, E[p]+mindur[p])
			}
			if se.CoversFrom {
				f = max(f, F[p]+mind)
			}
		}
		E[s] = e
		LB[s] = max(energy(d, st.Tasks, pool), maxdur, slotLB(d, st.Tasks, machines))
		F[s] = max(f, e+LB[s])
	}
	return E, F, LB
}

// cutLB sums max(CPLength, ⌈TWork⌉, slotLB) over the parts between cuts.
func cutLB(d *DAG, machines [][]float64) int64 {
	pool := Pool(machines)[0]
	parts := Parts(d)
	if len(parts) < 2 {
		return 0
	}
	in := make([]int, d.N()) // part index + 1 of each task
	ef := make([]int64, d.N())
	var sum int64
	for pi, part := range parts {
		for _, v := range part {
			in[v] = pi + 1
		}
		var cp int64
		for _, v := range part { // part is a slice of the topological order
			var es int64
			for _, p := range d.Preds(v) {
				if in[p] == pi+1 {
					es = max(es, ef[p])
				}
			}
			ef[v] = es + d.Tasks[v].Duration
			cp = max(cp, ef[v])
		}
		sum += max(cp, energy(d, part, pool), slotLB(d, part, machines))
	}
	return sum
}
