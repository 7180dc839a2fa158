package dag

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
	// keys are the heap keys of placement, per direction (see
	// direction.index) and placement order (see placeOrders); order
	// selects one.
	keys  [2][placeOrders][]float64
	order int
}

func newPlacer(d *DAG, machines [][]float64, sc *scratch) *placer {
	return &placer{d: d, sp: NewSpace(machines), s: NewSchedule(d.N()), placed: make([]bool, d.N()),
		st: newStageTimes(len(d.Stages)), sc: sc}
}

func newScratch(d *DAG) *scratch {
	sc := &scratch{mark: make([]int32, d.N()), need: make([]int32, d.N()),
		rem: make([]int32, len(d.Stages)), remStamp: make([]int32, len(d.Stages))}
	long := durPrio(d)
	for _, dir := range []direction{forward, backward} {
		// Order 1 goes critical path first: the largest bottom level
		// forwards, the largest top level (bottom level of the reversed
		// DAG) backwards.
		levels := BottomLevels(d)
		if dir == backward {
			levels = BottomLevels(d.Reverse())
		}
		cp := make([]float64, d.N())
		for v, l := range levels {
			cp[v] = -float64(l)
		}
		sc.keys[dir.index()] = [placeOrders][]float64{long, cp}
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

// place is PlaceTasksF of Graphene Fig. 10 going forward and PlaceTasksB
// going backward (see direction): repeatedly take the ready task of V of
// highest priority (longest first in the paper), ready meaning its
// neighbours behind in V are all placed, and put it at its first fit from
// the furthest near side of its placed neighbours behind: forward, its
// earliest fit ≥ the latest end of its placed predecessors (≥ lo when it
// has none, so the placement stays compact); backward, its latest fit
// ending ≤ the earliest start of its placed successors (≤ hi when it has
// none). Neighbours behind outside V that are not yet placed must be
// placed in the other direction later; the subset orders guarantee it,
// and that no neighbour ahead is placed yet. Barrier stages count once
// each.
func (p *placer) place(V []int, dir direction) {
	d, cv, sc := p.d, dir.edges(p.d), p.sc
	near, stageNear := dir.near(p.s), dir.stageNear(p.st)
	p.begin(V)
	h := prioHeap{prio: sc.keys[dir.index()][sc.order]}
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
		edge := dir.origin()
		for _, q := range cv.xPreds(v) {
			if p.placed[q] {
				edge = dir.further(edge, near[q])
			}
		}
		for _, ps := range cv.bPar[t.Stage] {
			if p.st.any[ps] {
				edge = dir.further(edge, stageNear[ps])
			}
		}
		if edge == dir.origin() {
			edge = 0
			if p.any {
				edge = p.lo
				if dir == backward {
					edge = p.hi
				}
			}
		}
		m, st := p.sp.place(t.Demand, t.Duration, edge, dir)
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
