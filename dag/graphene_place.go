package dag

import "math"

// placer is one partial placement of a DAG in a space (Graphene §4.2):
// the space, the times so far, and the extent [lo, hi) of what is placed.
type placer struct {
	d      *DAG
	sp     *Space
	s      *Schedule
	placed []bool
	st     *stageTimes // extremes of the placed tasks of each stage
	lo, hi int64
	any    bool
	sc     *scratch // shared by the clones of one worker
}

// scratch is per-worker working memory for placements: set membership by
// stamp, and counts of unplaced neighbours in the set.
type scratch struct {
	mark     []int32
	need     []int32
	stamp    int32
	rem      []int32 // per stage: tasks in the current set not yet placed
	remStamp []int32
	// fwd and bwd are the heap keys of forward and backward placement,
	// one pair per placement order (see placeOrders); order selects one.
	fwd, bwd [2][]float64
	order    int
}

func newPlacer(d *DAG, machines [][]float64, sc *scratch) *placer {
	return &placer{d: d, sp: NewSpace(machines), s: NewSchedule(d.N()), placed: make([]bool, d.N()),
		st: newStageTimes(len(d.Stages)), sc: sc}
}

func newScratch(d *DAG) *scratch {
	sc := &scratch{mark: make([]int32, d.N()), need: make([]int32, d.N()),
		rem: make([]int32, len(d.Stages)), remStamp: make([]int32, len(d.Stages))}
	long := durPrio(d)
	sc.fwd[0], sc.bwd[0] = long, long
	sc.fwd[1], sc.bwd[1] = make([]float64, d.N()), make([]float64, d.N())
	for v, bl := range BottomLevels(d) {
		sc.fwd[1][v] = -float64(bl)
	}
	for v, tl := range BottomLevels(d.Reverse()) {
		sc.bwd[1][v] = -float64(tl)
	}
	return sc
}

// placeOrders is the number of task orders within a subset: 0 is the
// paper's longest-first (Fig. 10 line 11); 1 is critical-path-first, the
// largest bottom level forwards and the largest top level backwards (our
// addition; the more compact placement wins).
const placeOrders = 2

func (p *placer) clone() *placer {
	c := *p
	c.sp = p.sp.Clone()
	c.s = p.s.Clone()
	c.placed = append([]bool(nil), p.placed...)
	c.st = &stageTimes{end: append([]int64(nil), p.st.end...), start: append([]int64(nil), p.st.start...),
		any: append([]bool(nil), p.st.any...)}
	return &c
}

// span is the extent of the placement, hi − lo.
func (p *placer) span() int64 {
	if !p.any {
		return 0
	}
	return p.hi - p.lo
}

func (p *placer) record(v, m int, st int64) {
	dur := p.d.Tasks[v].Duration
	p.s.Start[v], p.s.End[v], p.s.Machine[v] = st, st+dur, m
	p.placed[v] = true
	p.st.add(p.d.Tasks[v].Stage, st, st+dur)
	if !p.any {
		p.lo, p.hi, p.any = st, st+dur, true
	} else {
		p.lo, p.hi = min(p.lo, st), max(p.hi, st+dur)
	}
}

// durPrio returns −duration per task, the heap key of longestFirst.
func durPrio(d *DAG) []float64 {
	p := make([]float64, d.N())
	for i := range p {
		p[i] = -float64(d.Tasks[i].Duration)
	}
	return p
}

// begin marks the set V for one pass and counts, per stage, its tasks in
// V (all unplaced: a set is placed once).
func (p *placer) begin(V []int) {
	sc := p.sc
	sc.stamp++
	for _, v := range V {
		sc.mark[v] = sc.stamp
		s := p.d.Tasks[v].Stage
		if sc.remStamp[s] != sc.stamp {
			sc.remStamp[s], sc.rem[s] = sc.stamp, 0
		}
		sc.rem[s]++
	}
}

// inV reports whether v is in the set of the current pass.
func (p *placer) inV(v int) bool { return p.sc.mark[v] == p.sc.stamp }

// pending reports whether stage s has tasks of the current set unplaced.
func (p *placer) pending(s int) bool { return p.sc.remStamp[s] == p.sc.stamp && p.sc.rem[s] > 0 }

// forward is PlaceTasksF (Graphene Fig. 10): repeatedly take the ready
// task of V of highest priority (longest first in the paper), ready
// meaning its predecessors in V are all placed, and put it at its earliest
// fit ≥ the latest end of its placed predecessors (≥ lo when it has none,
// so the placement stays compact). Predecessors outside V that are not yet
// placed must be placed backward later; the subset orders guarantee it,
// and that no successor is placed yet. Barrier parents count once each.
func (p *placer) forward(V []int) {
	d, cv, sc := p.d, p.d.cv, p.sc
	p.begin(V)
	h := prioHeap{prio: sc.fwd[sc.order]}
	for _, v := range V {
		var n int32
		for _, q := range cv.xPreds(v) {
			if p.inV(q) && !p.placed[q] {
				n++
			}
		}
		for _, ps := range cv.bPar[d.Tasks[v].Stage] {
			if p.pending(ps) {
				n++
			}
		}
		if sc.need[v] = n; n == 0 {
			h.push(v)
		}
	}
	for h.len() > 0 {
		v := h.pop()
		t := &d.Tasks[v]
		est := int64(math.MinInt64)
		for _, q := range cv.xPreds(v) {
			if p.placed[q] {
				est = max(est, p.s.End[q])
			}
		}
		for _, ps := range cv.bPar[t.Stage] {
			if p.st.any[ps] {
				est = max(est, p.st.end[ps])
			}
		}
		if est == math.MinInt64 {
			est = 0
			if p.any {
				est = p.lo
			}
		}
		m, st := p.sp.Forward(t.Demand, t.Duration, est)
		p.record(v, m, st)
		release := func(c int) {
			if p.inV(c) {
				if sc.need[c]--; sc.need[c] == 0 {
					h.push(c)
				}
			}
		}
		for _, c := range cv.xSuccs(v) {
			release(c)
		}
		if sc.rem[t.Stage]--; sc.rem[t.Stage] == 0 {
			for _, cs := range cv.bChild[t.Stage] {
				for _, c := range d.Stages[cs].Tasks {
					release(c)
				}
			}
		}
	}
}

// backward is PlaceTasksB, the mirror image: a task is ready when its
// successors in V are placed, and goes at its latest fit ending ≤ the
// earliest start of its placed successors (≤ hi when it has none).
func (p *placer) backward(V []int) {
	d, cv, sc := p.d, p.d.cv, p.sc
	p.begin(V)
	h := prioHeap{prio: sc.bwd[sc.order]}
	for _, v := range V {
		var n int32
		for _, c := range cv.xSuccs(v) {
			if p.inV(c) && !p.placed[c] {
				n++
			}
		}
		for _, cs := range cv.bChild[d.Tasks[v].Stage] {
			if p.pending(cs) {
				n++
			}
		}
		if sc.need[v] = n; n == 0 {
			h.push(v)
		}
	}
	for h.len() > 0 {
		v := h.pop()
		t := &d.Tasks[v]
		lft := int64(math.MaxInt64)
		for _, c := range cv.xSuccs(v) {
			if p.placed[c] {
				lft = min(lft, p.s.Start[c])
			}
		}
		for _, cs := range cv.bChild[t.Stage] {
			if p.st.any[cs] {
				lft = min(lft, p.st.start[cs])
			}
		}
		if lft == math.MaxInt64 {
			lft = 0
			if p.any {
				lft = p.hi
			}
		}
		m, st := p.sp.Backward(t.Demand, t.Duration, lft)
		p.record(v, m, st)
		release := func(q int) {
			if p.inV(q) {
				if sc.need[q]--; sc.need[q] == 0 {
					h.push(q)
				}
			}
		}
		for _, q := range cv.xPreds(v) {
			release(q)
		}
		if sc.rem[t.Stage]--; sc.rem[t.Stage] == 0 {
			for _, ps := range cv.bPar[t.Stage] {
				for _, q := range d.Stages[ps].Tasks {
					release(q)
				}
			}
		}
	}
}
