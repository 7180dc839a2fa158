package dag

// compact is the DAG's edge set with barrier stage edges kept whole: a
// barrier p → s stands for |p|·|s| task edges, so walking it as one stage
// edge makes a scheduling pass O(N + E') instead of O(N + E), E' being the
// explicit edges plus Σ over barriers of |s|. Built with the DAG.
type compact struct {
	// bPar and bChild list, per stage, the stages joined to it by barrier
	// edges.
	bPar, bChild [][]int
	// xPred and xSucc are the remaining (non-barrier) task edges, in CSR
	// form like DAG.Preds.
	xPredOff, xPredIdx []int
	xSuccOff, xSuccIdx []int
}

// buildCompact derives the compact edge set; StageEdges must be known.
func (d *DAG) buildCompact() {
	ns := len(d.Stages)
	c := &compact{bPar: make([][]int, ns), bChild: make([][]int, ns)}
	barrier := map[[2]int]bool{}
	for _, e := range d.StageEdges {
		if e.Kind == Barrier {
			c.bPar[e.To] = append(c.bPar[e.To], e.From)
			c.bChild[e.From] = append(c.bChild[e.From], e.To)
			barrier[[2]int{e.From, e.To}] = true
		}
	}
	n := d.N()
	c.xSuccOff = make([]int, n+1)
	for u := 0; u < n; u++ {
		su, last, isB := d.Tasks[u].Stage, -1, false
		for _, v := range d.Succs(u) {
			if sv := d.Tasks[v].Stage; sv != last {
				last, isB = sv, barrier[[2]int{su, sv}]
			}
			if !isB {
				c.xSuccIdx = append(c.xSuccIdx, v)
			}
		}
		c.xSuccOff[u+1] = len(c.xSuccIdx)
	}
	c.xPredOff, c.xPredIdx = transpose(c.xSuccOff, c.xSuccIdx)
	d.cv, d.rcv = c, c.reversed()
}

// xPreds returns the predecessors of v not covered by a barrier.
func (c *compact) xPreds(v int) []int { return c.xPredIdx[c.xPredOff[v]:c.xPredOff[v+1]] }

// xSuccs returns the successors of v not covered by a barrier.
func (c *compact) xSuccs(v int) []int { return c.xSuccIdx[c.xSuccOff[v]:c.xSuccOff[v+1]] }

// reversed returns the compact edges of the reverse DAG.
func (c *compact) reversed() *compact {
	return &compact{bPar: c.bChild, bChild: c.bPar,
		xPredOff: c.xSuccOff, xPredIdx: c.xSuccIdx, xSuccOff: c.xPredOff, xSuccIdx: c.xPredIdx}
}

// readiness counts, per task, the predecessors still to finish, with each
// barrier parent stage counted once and released when its last task
// finishes.
type readiness struct {
	d         *DAG
	left      []int // unfinished explicit preds + unfinished barrier parent stages
	stageLeft []int // unfinished tasks per stage
}

func newReadiness(d *DAG) *readiness {
	r := &readiness{d: d, left: make([]int, d.N()), stageLeft: make([]int, len(d.Stages))}
	for s, st := range d.Stages {
		r.stageLeft[s] = len(st.Tasks)
	}
	for v := range r.left {
		r.left[v] = len(d.cv.xPreds(v)) + len(d.cv.bPar[d.Tasks[v].Stage])
	}
	return r
}

// finish records that u finished and calls ready for every task whose
// last predecessor that was.
func (r *readiness) finish(u int, ready func(v int)) {
	c := r.d.cv
	for _, v := range c.xSuccs(u) {
		if r.left[v]--; r.left[v] == 0 {
			ready(v)
		}
	}
	s := r.d.Tasks[u].Stage
	if r.stageLeft[s]--; r.stageLeft[s] == 0 {
		for _, cs := range c.bChild[s] {
			for _, v := range r.d.Stages[cs].Tasks {
				if r.left[v]--; r.left[v] == 0 {
					ready(v)
				}
			}
		}
	}
}

// stageTimes tracks, per stage, the latest end and earliest start of its
// placed tasks, for the barrier terms of earliest starts and latest ends.
type stageTimes struct {
	end, start []int64
	any        []bool
}

func newStageTimes(ns int) *stageTimes {
	return &stageTimes{end: make([]int64, ns), start: make([]int64, ns), any: make([]bool, ns)}
}

// reset forgets every stage's times, as newStageTimes leaves them.
func (st *stageTimes) reset() {
	clear(st.end)
	clear(st.start)
	clear(st.any)
}

func (st *stageTimes) add(s int, start, end int64) {
	if !st.any[s] {
		st.start[s], st.end[s], st.any[s] = start, end, true
		return
	}
	st.start[s], st.end[s] = min(st.start[s], start), max(st.end[s], end)
}
