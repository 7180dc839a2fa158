package dag

import "math"

// lcg is the package's search with nogood learning: lazy clause generation
// (Ohrimenko, Stuckey & Codish, Constraints 14(3), 2009) for the pooled
// relaxation, as Schutt, Feydy, Stuckey & Wallace apply it to the RCPSP
// ("Explaining the cumulative propagator", Constraints 16(3), 2011;
// "Solving RCPSP/max by lazy clause generation", J. Sched. 16, 2013).
//
// Its variables are the start times S_0 … S_{n−1} and the makespan M
// (variable n), each an integer interval. Its literals are bounds, [x ≥ v]
// or [x ≤ v] (lit). Four rules tighten the intervals, and each change
// is put on a trail with its reason:
//
//   - precedence (S_j ≥ S_i + p_i for every edge i → j, and M ≥ S_i + p_i
//     for every sink), whose reason is the one bound it came from;
//   - disjunction (disjoin: of two tasks that cannot overlap, the one that
//     cannot come first comes second), whose reason is three bounds;
//   - time-table (lcgTimetable, one per resource), whose reason is a
//     pointwise explanation: the tasks whose compulsory parts fill the
//     resource at one time point.
//   - energy (lcgEnergy, one per resource, run when the others are
//     quiet): time-table edge finding, whose reason bounds the tasks that
//     fill a time window; the climb runs it at every level, the descent
//     on the tested makespan's root until lcgEnergyAfter conflicts.
//
// When the intervals of a variable cross, conflict analysis walks the
// trail back to the first unique implication point and learns a clause
// over bound literals that forbids this conflict and every other with the
// same cause (minimised: a literal implied by earlier ones of the clause
// is dropped); the search then jumps back to the level where the clause
// asserts a new bound, and the clause keeps propagating for the rest of
// the run. Clauses are consequences of the constraints and of M's root
// interval only, so they stay valid from one tested makespan T to the
// next: T is not a root bound but an assumption ([M ≤ T], level 1), and
// a refutation of T is the learned unit [M ≥ T + 1].
//
// Branching sets the task of highest activity (VSIDS: bumped for every
// variable in a conflict's analysis, decayed per conflict; ties: least
// earliest start, then index) to its earliest start (or, building
// backward, its latest), or with split to the quarter of its domain at
// that end; the learned clause of a failure is the other branch.
// Restarts follow the Luby sequence.
// Every step is counted in budget work. Learned clauses beyond a limit
// are halved at restarts, the least active first.
//
// Against the exact search (searcher), which has stronger rules at every
// node (energetic reasoning, shaving) but forgets each failure, learning
// proves more: Best with two learning searches in place of two exact ones
// proves 389 of PSPLIB's 480 J60 instances optimal instead of 370, and
// 465 of the J30 instead of 460, in less time.
type lcg struct {
	p      *problem
	n      int // tasks; variable n is the makespan
	lb, ub []int64
	// partners lists, per task, the tasks it cannot overlap (disjoin)
	partners [][]int32
	// succ and pred list, per variable, the variables it precedes or
	// follows by an edge; the lag of an edge i → j is p_i (M has none).
	succ, pred [][]int32

	trail []lcgEntry
	// lim[l] is the trail length when decision level l+1 began, and
	// explLim[l] the explanation arena's.
	lim, explLim []int
	// lbHist and ubHist hold, per variable, the trail indices of its
	// bound changes in order (so the value rises along lbHist).
	lbHist, ubHist [][]int32
	qhead          int

	expl []lit        // stored explanations (time-table, disjunction), by offset
	cls  []*lcgClause // the learned clauses of two literals or more
	// watchLo[x] holds the clauses watching a literal [x ≤ v] (false once
	// lb(x) > v), watchHi[x] those watching [x ≥ v], each with its v, so
	// that wake passes over a clause whose literal is not false without
	// reading it. Reduction drops deleted clauses from the lists.
	watchLo, watchHi [][]lcgWatch

	tt []*lcgTimetable
	// ttOf lists, per task, the time-table rules it takes part in
	ttOf [][]*lcgTimetable

	act    []float64
	actInc float64

	// conflict analysis scratch: pending literals per variable
	pendLo, pendHi []int64
	touched        []int32
	isTouched      []bool
	confl          []lit
	out, keep      []lit

	conflicts int64
	// energyAfter is the number of conflicts after which the energy rule
	// runs at every level, not only on the tested makespan's root (see
	// lcgEnergyAfter)
	energyAfter int64
	b           *budget
	// learned, when set, sees every clause learned (tests check them
	// against every feasible schedule).
	learned func([]lit)
	// res, when set, is the result the search works for (see stop).
	res     *searchResult
	slack   int64
	aborted bool
	// dir is the way decisions build schedules: forward fixes a task at
	// its earliest start, backward at its latest, building the schedule
	// from its end (see pick). newLCG sets forward (direction's zero
	// value is neither way).
	dir direction
	// split makes a decision confine the task to the quarter of its
	// start domain at dir's end ([S ≥ ub − (ub − lb)/4] backward) instead
	// of fixing it there (the quarter rounds down: a task whose ub − lb is
	// under 4 is fixed as before).
	split bool
}

// lit is a bound literal: [x ≥ v] when ge, else [x ≤ v].
type lit struct {
	x  int32
	ge bool
	v  int64
}

// neg returns the literal's negation.
func (l lit) neg() lit {
	if l.ge {
		return lit{l.x, false, l.v - 1}
	}
	return lit{l.x, true, l.v + 1}
}

// Reasons of a trail entry.
const (
	byDecision = iota
	byClause
	byPrec
	byStored
)

// lcgEntry is one bound change: variable x's lower bound (ge) or upper
// bound went from old to val at decision level level, for a reason: a
// clause (cl), an edge (ref: the variable at the edge's other end) or a
// stored explanation (expl[ref : ref+cnt]).
type lcgEntry struct {
	x        int32
	ge       bool
	kind     uint8
	level    int32
	old, val int64
	ref, cnt int32
	cl       *lcgClause
}

// lcgWatch is an entry of a watch list: clause c watches its literal on
// the list's variable and direction, of bound v.
type lcgWatch struct {
	c *lcgClause
	v int64
}

// lcgClause is a disjunction of bound literals; lits[0] and lits[1] are
// watched, and lits[0] is the literal a clause asserts when it is a
// reason.
type lcgClause struct {
	lits    []lit
	deleted bool
	act     float64
}

const (
	lcgNone = math.MinInt64
	lcgNoUB = math.MaxInt64
	// lcgRestart is the unit of the Luby restart sequence, in conflicts.
	lcgRestart = 64
	// lcgDecay divides the activity increment per conflict.
	lcgDecay = 0.95
	// lcgFirstReduce is the number of learned clauses kept before the
	// first reduction; each reduction keeps the more active half (a
	// clause's activity: its birth, raised each time it takes part in an
	// analysis), and the limit grows by as much every ten times as many
	// conflicts.
	lcgFirstReduce = 4000
	// lcgEnergyAfter is when a solver whose energyAfter is left at it
	// (the descent, lcgDown) turns to the energy rule at every level;
	// before, the rule runs only on the tested makespan's root. The rule
	// costs O(n²) or more per run and a single test of one makespan gains less
	// from it than a climb through many. On PSPLIB J60 (the 410 with a
	// published lower bound), testing best known − 1 alone at 10M work
	// units reaches it on 364 with the rule at every level against 368
	// with the rule on the root, while the climb alone reaches it on 340
	// against 335 without the rule (10M) and 352 against 345 (100M). Best
	// reaches it on 342 with the rule at every level in both searches,
	// 345 with this split, 345 without the rule.
	lcgEnergyAfter = 5000
)

// newLCG prepares the solver on p with M in [lo, hi] (hi a makespan known
// to be feasible, or any upper limit).
func newLCG(p *problem, lo, hi int64, b *budget) *lcg {
	n := p.n
	s := &lcg{p: p, n: n, lb: make([]int64, n+1), ub: make([]int64, n+1),
		succ: make([][]int32, n+1), pred: make([][]int32, n+1),
		lbHist: make([][]int32, n+1), ubHist: make([][]int32, n+1),
		watchLo: make([][]lcgWatch, n+1), watchHi: make([][]lcgWatch, n+1),
		act: make([]float64, n+1), actInc: 1, pendLo: make([]int64, n+1), pendHi: make([]int64, n+1),
		isTouched: make([]bool, n+1), energyAfter: lcgEnergyAfter, b: b, dir: forward}
	for i := 0; i < n; i++ {
		s.ub[i] = hi - p.dur[i]
		for _, j := range p.succ[i] {
			s.succ[i] = append(s.succ[i], int32(j))
			s.pred[j] = append(s.pred[j], int32(i))
		}
		if len(p.succ[i]) == 0 {
			s.succ[i] = append(s.succ[i], int32(n))
			s.pred[n] = append(s.pred[n], int32(i))
		}
	}
	s.lb[n], s.ub[n] = lo, hi
	// Root heads and tails: precedence fires from trail entries only, and
	// the root interval has none.
	for _, v := range p.topo {
		for _, j := range s.succ[v] {
			s.lb[j] = max(s.lb[j], s.lb[v]+p.dur[v])
		}
	}
	for k := len(p.topo) - 1; k >= 0; k-- {
		v := p.topo[k]
		for _, j := range s.succ[v] {
			s.ub[v] = min(s.ub[v], s.ub[j]-p.dur[v])
		}
	}
	s.partners = append(p.partners(), nil)
	for x := range s.pendLo {
		s.pendLo[x], s.pendHi[x] = lcgNone, lcgNoUB
	}
	s.ttOf = make([][]*lcgTimetable, n+1)
	for r := 0; r < p.k; r++ {
		if t := newLCGTimetable(s, r); t != nil {
			s.tt = append(s.tt, t)
			t.en = newLCGEnergy(t)
			for _, i := range t.tasks {
				s.ttOf[i] = append(s.ttOf[i], t)
			}
		}
	}
	return s
}

func (s *lcg) level() int { return len(s.lim) }

// truth of a literal under the current bounds.
func (s *lcg) isTrue(l lit) bool {
	if l.ge {
		return s.lb[l.x] >= l.v
	}
	return s.ub[l.x] <= l.v
}

func (s *lcg) isFalse(l lit) bool {
	if l.ge {
		return s.ub[l.x] < l.v
	}
	return s.lb[l.x] > l.v
}

// set makes l true for a reason (kind, ref, cnt, cl); it returns false on
// a conflict, whose explanation is then in s.confl.
func (s *lcg) set(l lit, kind uint8, ref, cnt int32, cl *lcgClause) bool {
	x := l.x
	if s.isTrue(l) {
		return true
	}
	e := lcgEntry{x: x, ge: l.ge, kind: kind, level: int32(s.level()), val: l.v, ref: ref, cnt: cnt, cl: cl}
	if s.isFalse(l) {
		// The reason implies l, and the other bound refutes it.
		s.confl = s.confl[:0]
		s.explain(&e, l.v, func(a lit) { s.confl = append(s.confl, a) })
		if l.ge {
			s.confl = append(s.confl, lit{x, false, s.ub[x]})
		} else {
			s.confl = append(s.confl, lit{x, true, s.lb[x]})
		}
		return false
	}
	idx := int32(len(s.trail))
	if l.ge {
		e.old, s.lb[x] = s.lb[x], l.v
		s.lbHist[x] = append(s.lbHist[x], idx)
	} else {
		e.old, s.ub[x] = s.ub[x], l.v
		s.ubHist[x] = append(s.ubHist[x], idx)
	}
	s.trail = append(s.trail, e)
	s.b.spend(1)
	return true
}

// explain calls add with the literals that imply the entry's literal
// weakened to v (for a lower bound, [x ≥ v] with v ≤ e.val): they are all
// true at an earlier place on the trail.
func (s *lcg) explain(e *lcgEntry, v int64, add func(lit)) {
	switch e.kind {
	case byClause:
		for _, l := range e.cl.lits[1:] {
			add(l.neg())
		}
	case byPrec:
		if e.ge { // from a predecessor i: [S_i ≥ v − p_i]
			i := e.ref
			add(lit{i, true, v - s.p.dur[i]})
		} else { // from a successor j: [S_j ≤ v + p_x]
			add(lit{e.ref, false, v + s.p.dur[e.x]})
		}
	case byStored:
		for _, l := range s.expl[e.ref : e.ref+e.cnt] {
			add(l)
		}
	}
}

// entryOf returns the trail index of the change that made the true
// literal l true, or −1 when it holds at the root interval.
func (s *lcg) entryOf(l lit) int32 {
	h := s.ubHist[l.x]
	if l.ge {
		h = s.lbHist[l.x]
	}
	lo, hi := 0, len(h)
	for lo < hi { // first entry whose value implies l
		m := (lo + hi) / 2
		if implies(l.ge, s.trail[h[m]].val, l.v) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo == len(h) {
		return -1
	}
	if lo == 0 && implies(l.ge, s.trail[h[0]].old, l.v) { // l held at the root
		return -1
	}
	return h[lo]
}

// levelOf returns the decision level at which the true literal l became
// true (0 at the root).
func (s *lcg) levelOf(l lit) int {
	if i := s.entryOf(l); i >= 0 {
		return int(s.trail[i].level)
	}
	return 0
}

// decide opens a decision level with l.
func (s *lcg) decide(l lit) {
	s.lim = append(s.lim, len(s.trail))
	s.explLim = append(s.explLim, len(s.expl))
	s.set(l, byDecision, 0, 0, nil)
}

// backtrack undoes every level above level.
func (s *lcg) backtrack(level int) {
	if s.level() <= level {
		return
	}
	end := s.lim[level]
	for i := len(s.trail) - 1; i >= end; i-- {
		e := &s.trail[i]
		if e.ge {
			s.lb[e.x] = e.old
			s.lbHist[e.x] = s.lbHist[e.x][:len(s.lbHist[e.x])-1]
		} else {
			s.ub[e.x] = e.old
			s.ubHist[e.x] = s.ubHist[e.x][:len(s.ubHist[e.x])-1]
		}
	}
	s.b.spend(int64(len(s.trail) - end))
	s.trail = s.trail[:end]
	s.expl = s.expl[:s.explLim[level]]
	s.lim, s.explLim = s.lim[:level], s.explLim[:level]
	s.qhead = min(s.qhead, end)
	for _, t := range s.tt {
		t.dirty, t.en.dirty = true, true
	}
}

// propagate runs the propagators to a fixpoint; it returns false on a
// conflict (explained in s.confl).
func (s *lcg) propagate() bool {
	for {
		for s.qhead < len(s.trail) {
			e := s.trail[s.qhead]
			s.qhead++
			if !s.propagateEntry(&e) {
				return false
			}
		}
		for _, t := range s.tt {
			if !t.dirty {
				continue
			}
			t.dirty = false
			if !t.run() {
				return false
			}
			if s.qhead < len(s.trail) {
				break // cheaper rules first
			}
		}
		if s.qhead < len(s.trail) {
			continue
		}
		for _, t := range s.tt {
			if en := t.en; en.dirty && (s.level() <= 1 || s.conflicts >= s.energyAfter) {
				en.dirty = false
				if !en.run() {
					return false
				}
				if s.qhead < len(s.trail) {
					break
				}
			}
		}
		if s.qhead == len(s.trail) { // no rule changed a bound
			return true
		}
	}
}

// propagateEntry applies the precedences and clauses woken by one change.
func (s *lcg) propagateEntry(e *lcgEntry) bool {
	x := e.x
	for _, t := range s.ttOf[x] {
		t.dirty = true
		t.en.dirty = true
	}
	if !s.disjoin(x) {
		return false
	}
	if e.ge {
		for _, j := range s.succ[x] {
			if !s.set(lit{j, true, s.lb[x] + s.p.dur[x]}, byPrec, x, 0, nil) {
				return false
			}
		}
		s.b.spend(int64(len(s.succ[x])))
		return s.wake(x, false)
	}
	for _, i := range s.pred[x] {
		if !s.set(lit{i, false, s.ub[x] - s.p.dur[i]}, byPrec, x, 0, nil) {
			return false
		}
	}
	s.b.spend(int64(len(s.pred[x])))
	return s.wake(x, true)
}

// wake visits the clauses watching a literal of variable x in direction
// ge ([x ≥ v] when ge) that may have become false, MiniSat style: each
// finds another literal to watch, or asserts its other watched literal,
// or fails.
func (s *lcg) wake(x int32, ge bool) bool {
	list := &s.watchLo[x]
	if ge {
		list = &s.watchHi[x]
	}
	ws := *list
	k := 0
	ok := true
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		s.b.spend(1)
		// The watched literal holds or is open: nothing to do (read off
		// the watch, without the clause).
		if !ok || ge && s.ub[x] >= w.v || !ge && s.lb[x] <= w.v {
			ws[k] = w
			k++
			continue
		}
		c := w.c
		// lits[1] is to be this list's watched literal. If it is lits[0]
		// and still holds, there is nothing to do (lits[1], of another
		// list, may be false already: a backjump undid lits[0] and kept
		// it); if it is false, it is not the true lits[0] of a reason
		// (explain reads lits[1:]), so it may move.
		if c.lits[0].x == x && c.lits[0].ge == ge {
			if !s.isFalse(c.lits[0]) {
				ws[k] = w
				k++
				continue
			}
			c.lits[0], c.lits[1] = c.lits[1], c.lits[0]
		}
		if !s.isFalse(c.lits[1]) || s.isTrue(c.lits[0]) {
			ws[k] = w
			k++
			continue
		}
		moved := false
		for j := 2; j < len(c.lits); j++ {
			if !s.isFalse(c.lits[j]) {
				c.lits[1], c.lits[j] = c.lits[j], c.lits[1]
				s.watch(c, c.lits[1])
				moved = true
				break
			}
		}
		s.b.spend(int64(len(c.lits)))
		if moved {
			continue
		}
		ws[k] = w
		k++
		if !s.set(c.lits[0], byClause, 0, 0, c) {
			ok = false
		}
	}
	*list = ws[:k]
	return ok
}

// watch adds c to the watch list of its literal l.
func (s *lcg) watch(c *lcgClause, l lit) {
	if l.ge {
		s.watchHi[l.x] = append(s.watchHi[l.x], lcgWatch{c, l.v})
	} else {
		s.watchLo[l.x] = append(s.watchLo[l.x], lcgWatch{c, l.v})
	}
}
