package dag

// CPM holds the critical-path-method quantities of a DAG with unlimited
// resources (Kelley & Walker 1959): ES/EF from a forward pass over a
// topological order, LS/LF from a backward pass from a horizon T̄.
//
//	ES_j = max_{i ∈ pred(j)} EF_i (0 for sources),  EF_j = ES_j + dur_j
//	LF_j = min_{k ∈ succ(j)} LS_k (T̄ for sinks),   LS_j = LF_j − dur_j
type CPM struct {
	ES, EF, LS, LF []int64
	// Length is the critical-path length max_j EF_j.
	Length int64
	// Horizon is the T̄ used for LS and LF (at least Length).
	Horizon int64
}

// Critical computes the CPM quantities in O(N+E). A horizon below the
// critical-path length is raised to it.
func Critical(d *DAG, horizon int64) *CPM {
	n := d.N()
	c := &CPM{ES: make([]int64, n), EF: make([]int64, n), LS: make([]int64, n), LF: make([]int64, n)}
	cv := d.cv
	st := newStageTimes(len(d.Stages)) // per stage: max EF, then min LS
	for _, v := range d.Topo() {
		var es int64
		for _, p := range cv.xPreds(v) {
			es = max(es, c.EF[p])
		}
		for _, p := range cv.bPar[d.Tasks[v].Stage] {
			es = max(es, st.end[p]) // every task of p precedes v, so p is complete
		}
		c.ES[v], c.EF[v] = es, es+d.Tasks[v].Duration
		st.add(d.Tasks[v].Stage, c.ES[v], c.EF[v])
		c.Length = max(c.Length, c.EF[v])
	}
	c.Horizon = max(horizon, c.Length)
	topo := d.Topo()
	st = newStageTimes(len(d.Stages))
	for k := n - 1; k >= 0; k-- {
		v := topo[k]
		lf := c.Horizon
		for _, s := range cv.xSuccs(v) {
			lf = min(lf, c.LS[s])
		}
		for _, s := range cv.bChild[d.Tasks[v].Stage] {
			lf = min(lf, st.start[s])
		}
		c.LF[v], c.LS[v] = lf, lf-d.Tasks[v].Duration
		st.add(d.Tasks[v].Stage, c.LS[v], c.LF[v])
	}
	return c
}

// CPLength returns the critical-path length: the longest path with node
// weights dur_t, the makespan with unlimited resources (LB0 of PSPLIB, the
// ES of the dummy sink). O(N+E).
func CPLength(d *DAG) int64 { return Critical(d, 0).Length }

// BottomLevels returns bl(t) = dur_t + max_{c ∈ succ(t)} bl(c): the length
// of the longest path from t to a sink, including t. O(N+E).
func BottomLevels(d *DAG) []int64 {
	bl := make([]int64, d.N())
	stageBL := make([]int64, len(d.Stages)) // max bl over the stage's tasks seen so far
	topo := d.Topo()
	for k := len(topo) - 1; k >= 0; k-- {
		v := topo[k]
		var m int64
		for _, s := range d.cv.xSuccs(v) {
			m = max(m, bl[s])
		}
		for _, s := range d.cv.bChild[d.Tasks[v].Stage] {
			m = max(m, stageBL[s]) // every task of s follows v, so s is complete
		}
		bl[v] = d.Tasks[v].Duration + m
		stageBL[d.Tasks[v].Stage] = max(stageBL[d.Tasks[v].Stage], bl[v])
	}
	return bl
}
