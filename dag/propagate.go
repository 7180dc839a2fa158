package dag

import (
	"math"
	"math/bits"
	"slices"
)

// windows is the state of constraint propagation on a problem under a
// horizon T: task i starts in [est_i, lct_i − p_i] and so runs within
// [est_i, lct_i); after/before hold the precedences derived by reasoning
// (i before j: bit j of after[i], bit i of before[j]), beyond the DAG's.
type windows struct {
	est, lct      []int64
	after, before []uint64 // n rows of w words
}

// newWindows returns the windows of horizon T: every task in [0, T).
func newWindows(n, w int, horizon int64) *windows {
	s := &windows{est: make([]int64, n), lct: make([]int64, n), after: make([]uint64, n*w), before: make([]uint64, n*w)}
	for i := range s.lct {
		s.lct[i] = horizon
	}
	return s
}

// copyFrom makes s a copy of o (same sizes).
func (s *windows) copyFrom(o *windows) {
	copy(s.est, o.est)
	copy(s.lct, o.lct)
	copy(s.after, o.after)
	copy(s.before, o.before)
}

func (s *windows) clone() *windows {
	c := &windows{est: slices.Clone(s.est), lct: slices.Clone(s.lct), after: slices.Clone(s.after), before: slices.Clone(s.before)}
	return c
}

// propagator tightens windows to a fixpoint of four rules, each sound
// (it removes only starts that no schedule of makespan ≤ T uses) and
// each from the constraint-based scheduling literature (Baptiste, Le Pape
// & Nuijten, "Constraint-Based Scheduling", Kluwer 2001, ch. 2–3):
//
//   - precedence: est_j ≥ est_i + p_i and lct_i ≤ lct_j − p_j for every
//     edge i → j of the DAG and every derived precedence;
//   - time-table: the compulsory part [lct_i − p_i, est_i + p_i) of every
//     task is certainly in use; no task may start where the others'
//     compulsory parts leave it too little capacity;
//   - disjunction: two tasks that cannot overlap (c_ir + c_jr > C_r for
//     some r) run one before the other; when only one order fits the
//     windows it becomes a precedence;
//   - energetic reasoning (Lopez & Esquirol; Baptiste et al. §3.3): over
//     an interval [t1, t2) every task needs at least its minimal
//     intersection W_i = c_i·min(t2−t1, p_i⁺(t1), p_i⁻(t2)); when
//     Σ W_i > C·(t2−t1) the windows are infeasible, and when task i's
//     left-shifted intersection LS_i would not fit beside the others,
//     c_i·LS_i > C·(t2−t1) − Σ_{j≠i} W_j, then i starts at or after
//     t2 − ⌊(C·(t2−t1) − Σ_{j≠i} W_j)/c_i⌋ (and symmetrically for its end).
//
// Every rule counts its steps in work, the package's deterministic budget
// unit.
type propagator struct {
	p         *problem
	w         int       // words per bitset row
	partners  [][]int32 // per task, the tasks it cannot overlap (both of positive duration)
	energetic bool      // run the energetic rule (the costliest)
	maxCP     []int64   // per resource, max_i c_ir·p_i: slack at or above it adjusts nothing
	users     [][]int32 // per resource, the tasks of positive demand and duration on it
	work      int64

	// Tasks changed since the last time-table and disjunction passes;
	// partChanged: a changed task has a compulsory part, so the profile
	// moved and every task must be checked again.
	ttSet, djSet changeSet
	partChanged  bool
	profileValid bool // segT/segU hold the profile of the current windows

	// dirty tasks: a ring of n slots, each task at most once
	queue       []int
	qhead, qlen int
	inQueue     []bool

	segT   []int64 // time-table profile breakpoints
	segU   []int64 // usage per segment and resource
	cur    []int64
	peak   []int64
	all    []int
	djList []int
	ttList []int
	events []int64
	t1s    []int64
	ramps  []int64
	// dslope and ends are energy's time-indexed scratch (sweepDense).
	dslope []int64
	ends   []bool
	// at and du are profileDense's: whether an event falls at a tick and
	// the usage change there; idx finds the profile's segments by tick.
	at  []bool
	du  []int64
	idx tickIndex
}

// newPropagator prepares the rules for p.
func newPropagator(p *problem, energetic bool) *propagator {
	pr := &propagator{p: p, w: (p.n + 63) / 64, energetic: energetic, maxCP: make([]int64, p.k),
		queue: make([]int, max(1, p.n)), inQueue: make([]bool, p.n), partners: p.partners(),
		ttSet: newChangeSet(p.n), djSet: newChangeSet(p.n)}
	pr.users = make([][]int32, p.k)
	for i := 0; i < p.n; i++ {
		for r, c := range p.demand(i) {
			pr.maxCP[r] = max(pr.maxCP[r], c*p.dur[i])
			if c > 0 && p.dur[i] > 0 {
				pr.users[r] = append(pr.users[r], int32(i))
			}
		}
	}
	return pr
}

// fixpointAll propagates fresh windows: every task is dirty.
func (pr *propagator) fixpointAll(s *windows) bool {
	for i := 0; i < pr.p.n; i++ {
		pr.touch(i)
	}
	pr.ttSet.setAll()
	pr.djSet.setAll()
	return pr.fixpoint(s)
}

// fixpoint applies the rules until none changes a window, starting from
// the dirty tasks (see touch); it returns false when the windows became
// empty (no schedule within the horizon).
func (pr *propagator) fixpoint(s *windows) bool {
	pr.profileValid = false // the profile scratch may hold another state's
	ok := pr.rules(s)
	if !ok {
		pr.drain()
	}
	pr.ttSet.reset()
	pr.djSet.reset()
	pr.partChanged = false
	return ok
}

// rules runs the rules to a fixpoint or a failure.
func (pr *propagator) rules(s *windows) bool {
	for {
		if !pr.precedence(s) {
			return false
		}
		changed, ok := pr.timetable(s)
		if !ok {
			return false
		}
		c2, ok := pr.disjunctive(s)
		if !ok {
			return false
		}
		if changed || c2 || pr.qlen > 0 {
			continue
		}
		if !pr.energetic {
			return true
		}
		pr.ttSet.setAll() // energy may move any task
		pr.djSet.setAll()
		changed, ok = pr.energy(s)
		if !ok {
			return false
		}
		if !changed {
			return true
		}
	}
}

// changeSet is a set of tasks (or all of them) changed since a rule's
// last pass.
type changeSet struct {
	mark []bool
	list []int
	all  bool
}

func newChangeSet(n int) changeSet { return changeSet{mark: make([]bool, n)} }

func (c *changeSet) add(i int) {
	if !c.all && !c.mark[i] {
		c.mark[i] = true
		c.list = append(c.list, i)
	}
}

func (c *changeSet) setAll() {
	c.reset()
	c.all = true
}

func (c *changeSet) reset() {
	for _, i := range c.list {
		c.mark[i] = false
	}
	c.list = c.list[:0]
	c.all = false
}

// setEst raises est_i to v (if higher) and marks i dirty.
func (pr *propagator) setEst(s *windows, i int, v int64) bool {
	if v > s.est[i] {
		s.est[i] = v
		pr.changed(s, i)
		return true
	}
	return false
}

// setLct lowers lct_i to v (if lower) and marks i dirty.
func (pr *propagator) setLct(s *windows, i int, v int64) bool {
	if v < s.lct[i] {
		s.lct[i] = v
		pr.changed(s, i)
		return true
	}
	return false
}

// changed records that task i's window shrank: it is dirty for every
// rule, and the time-table profile moved if i has a compulsory part
// (windows only shrink, so a part once there stays).
func (pr *propagator) changed(s *windows, i int) {
	pr.touch(i)
	pr.ttSet.add(i)
	pr.djSet.add(i)
	if s.lct[i]-pr.p.dur[i] < s.est[i]+pr.p.dur[i] && pr.p.dur[i] > 0 {
		pr.partChanged = true
	}
}

// addPrecedence records i before j and applies it to the windows' bounds
// (the next precedence pass carries it on).
func (pr *propagator) addPrecedence(s *windows, i, j int) {
	w := pr.w
	s.after[i*w+j/64] |= 1 << (j % 64)
	s.before[j*w+i/64] |= 1 << (i % 64)
	pr.setEst(s, j, s.est[i]+pr.p.dur[i])
	pr.setLct(s, i, s.lct[j]-pr.p.dur[j])
}

// precedes reports whether i before j was derived.
func (pr *propagator) precedes(s *windows, i, j int) bool {
	return s.after[i*pr.w+j/64]&(1<<(j%64)) != 0
}

// precedence propagates from the dirty tasks: a task whose head rose
// raises its successors' heads (est_j ≥ est_i + p_i), one whose tail
// fell lowers its predecessors' (lct_i ≤ lct_j − p_j), along the DAG's
// edges and the derived precedences, to a fixpoint.
func (pr *propagator) precedence(s *windows) bool {
	p, w := pr.p, pr.w
	for pr.qlen > 0 {
		i := pr.pop()
		if s.est[i]+p.dur[i] > s.lct[i] {
			pr.drain()
			return false
		}
		e, l := s.est[i]+p.dur[i], s.lct[i]-p.dur[i]
		for _, j := range p.succ[i] {
			pr.work++
			pr.setEst(s, j, e)
		}
		for x, word := range s.after[i*w : (i+1)*w] {
			for ; word != 0; word &= word - 1 {
				pr.work++
				pr.setEst(s, x*64+bits.TrailingZeros64(word), e)
			}
		}
		for _, h := range p.pred[i] {
			pr.work++
			pr.setLct(s, h, l)
		}
		for x, word := range s.before[i*w : (i+1)*w] {
			for ; word != 0; word &= word - 1 {
				pr.work++
				pr.setLct(s, x*64+bits.TrailingZeros64(word), l)
			}
		}
	}
	return true
}

// touch marks task i dirty: the precedence pass will carry its bounds on.
func (pr *propagator) touch(i int) {
	if !pr.inQueue[i] {
		pr.inQueue[i] = true
		pr.queue[(pr.qhead+pr.qlen)%len(pr.queue)] = i
		pr.qlen++
	}
}

// pop takes the oldest dirty task (FIFO keeps passes short on DAGs: a
// task is usually relaxed after its predecessors).
func (pr *propagator) pop() int {
	i := pr.queue[pr.qhead]
	pr.qhead = (pr.qhead + 1) % len(pr.queue)
	pr.qlen--
	pr.inQueue[i] = false
	return i
}

// drain empties the queue after a failure.
func (pr *propagator) drain() {
	for pr.qlen > 0 {
		pr.pop()
	}
}

// disjunctive turns the pairs of tasks that cannot overlap and whose
// windows allow only one order into precedences; it looks at the pairs
// with a task changed since its last pass (all of them after setAll).
func (pr *propagator) disjunctive(s *windows) (changed, ok bool) {
	p := pr.p
	set := &pr.djSet
	list := pr.allTasks()
	if !set.all {
		pr.djList = append(pr.djList[:0], set.list...)
		list = pr.djList
	}
	set.reset()
	for _, i := range list {
		for _, j32 := range pr.partners[i] {
			pr.work++
			j := int(j32)
			ij := s.est[i]+p.dur[i] <= s.lct[j]-p.dur[j] // i can end before j starts
			ji := s.est[j]+p.dur[j] <= s.lct[i]-p.dur[i]
			if ij && ji {
				continue
			}
			if pr.precedes(s, i, j) || pr.precedes(s, j, i) {
				continue // known; precedence propagation keeps it
			}
			switch {
			case !ij && !ji:
				return changed, false
			case !ij:
				pr.addPrecedence(s, j, i)
				changed = true
			default:
				pr.addPrecedence(s, i, j)
				changed = true
			}
		}
	}
	return changed, true
}

// allTasks returns 0 … n−1 (shared scratch, do not modify).
func (pr *propagator) allTasks() []int {
	if len(pr.all) != pr.p.n {
		pr.all = make([]int, pr.p.n)
		for i := range pr.all {
			pr.all[i] = i
		}
	}
	return pr.all
}

// timetable uses the profile of compulsory parts and pushes every
// task's start past the segments where it would not fit beside the others'
// compulsory parts (and its end before them, symmetrically). It fails
// when the compulsory parts alone overload a resource. O(n log n + n·S·K)
// for S profile segments.
func (pr *propagator) timetable(s *windows) (changed, ok bool) {
	p, k := pr.p, pr.p.k
	// The tasks to check: all when the profile moved, else those changed.
	set := &pr.ttSet
	check := pr.allTasks()
	rebuild := set.all || pr.partChanged || !pr.profileValid
	if !rebuild {
		pr.ttList = append(pr.ttList[:0], set.list...)
		check = pr.ttList
	}
	set.reset()
	pr.partChanged = false
	if len(check) == 0 {
		return false, true
	}
	if rebuild {
		if !pr.buildProfile(s) {
			return false, false
		}
		pr.profileValid = true
	}
	pr.work += int64(len(check))
	segT, segU, nseg, peak := pr.segT, pr.segU, len(pr.segT), pr.peak
	for _, i := range check {
		di := p.dur[i]
		if di == 0 || s.lct[i]-s.est[i] == di {
			// A task whose window is its run has its whole run in the
			// profile: it cannot move, and an overload under it already
			// failed buildProfile.
			continue
		}
		d := p.dem[i*k : (i+1)*k]
		light := true // i fits beside the profile's peak in every resource
		for r, c := range d {
			if c > 0 && peak[r]+c > p.cap[r] {
				light = false
				break
			}
		}
		if light {
			continue
		}
		lst0, ect0 := s.lct[i]-di, s.est[i]+di // i's own compulsory part, when lst0 < ect0
		// blocked reports whether segment x leaves i too little room.
		blocked := func(x int) bool {
			u := segU[x*k : (x+1)*k]
			own := lst0 < ect0 && segT[x] >= lst0 && segT[x] < ect0
			for r, c := range d {
				if c == 0 {
					continue
				}
				v := u[r] + c
				if own {
					v -= c
				}
				if v > p.cap[r] {
					return true
				}
			}
			return false
		}
		// Forward: the first start ≥ est_i whose run meets no blocked
		// segment.
		st := s.est[i]
		x := pr.idx.segsBefore(segT, st+1)
		for x = max(x-1, 0); x < nseg-1 && segT[x] < st+di; x++ {
			pr.work++
			if segT[x+1] > st && blocked(x) {
				st = segT[x+1]
			}
		}
		if st > s.est[i] {
			if st > s.lct[i]-di {
				return changed, false
			}
			changed = pr.setEst(s, i, st) || changed
		}
		// Backward: the last end ≤ lct_i whose run meets no blocked
		// segment. y is the last segment starting before end (the last
		// segment, after every compulsory part, is empty).
		end := s.lct[i]
		y := pr.idx.segsBefore(segT, end)
		for y = min(y-1, nseg-2); y >= 0 && segT[y+1] > end-di; y-- {
			pr.work++
			if segT[y] < end && blocked(y) {
				end = segT[y]
			}
		}
		if end < s.lct[i] {
			if end-di < s.est[i] {
				return changed, false
			}
			changed = pr.setLct(s, i, end) || changed
		}
	}
	return changed, true
}

// buildProfile builds the profile of compulsory parts in segT/segU and
// its peak per resource; it returns false when the parts alone overload a
// resource.
func (pr *propagator) buildProfile(s *windows) bool {
	p, k := pr.p, pr.p.k
	ev := pr.events[:0]
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 0; i < p.n; i++ {
		if lst, ect := s.lct[i]-p.dur[i], s.est[i]+p.dur[i]; p.dur[i] > 0 && lst < ect {
			// Packed (time, task, start flag), so that an integer sort
			// orders events by time.
			ev = append(ev, lst<<ttShift|int64(i)<<1|1, ect<<ttShift|int64(i)<<1)
			lo, hi = min(lo, lst), max(hi, ect)
		}
	}
	pr.events = ev
	// Segments [segT[x], segT[x+1]) with usage segU[x·k:(x+1)·k]; the
	// last one, after every part, is empty (there are none without parts).
	pr.segT, pr.segU = pr.segT[:0], pr.segU[:0]
	if cap(pr.cur) < k {
		pr.cur, pr.peak = make([]int64, k), make([]int64, k)
	}
	cur, peak := pr.cur[:k], pr.peak[:k]
	pr.peak = peak
	clear(cur)
	clear(peak)
	pr.idx.dense = false
	// segment closes the segment starting at t, whose usage is cur.
	segment := func(t int64) bool {
		pr.segT = append(pr.segT, t)
		pr.segU = append(pr.segU, cur...)
		for r, u := range cur {
			if u > p.cap[r] {
				return false
			}
			peak[r] = max(peak[r], u)
		}
		return true
	}
	if len(ev) > 0 && hi-lo <= denseTicks*int64(len(ev)) {
		if !pr.profileDense(lo, hi, segment) {
			return false
		}
		pr.work += int64(len(ev))
		return true
	}
	slices.Sort(ev)
	for e := 0; e < len(ev); {
		t := ev[e] >> ttShift
		for ; e < len(ev) && ev[e]>>ttShift == t; e++ {
			i, start := int(ev[e]>>1&(1<<(ttShift-1)-1)), ev[e]&1 == 1
			d := p.dem[i*k : (i+1)*k]
			if start {
				for r, c := range d {
					cur[r] += c
				}
			} else {
				for r, c := range d {
					cur[r] -= c
				}
			}
		}
		if !segment(t) {
			return false
		}
	}
	pr.work += int64(len(ev))
	return true
}

// profileDense is buildProfile's sweep for events within [lo, hi]: the
// usage changes go to a time-indexed array, walked tick by tick, which
// calls segment at every tick with an event, as the sorted sweep does,
// and fills idx.
func (pr *propagator) profileDense(lo, hi int64, segment func(t int64) bool) bool {
	p, k := pr.p, pr.p.k
	span := int(hi-lo) + 1
	if cap(pr.at) < span {
		pr.at, pr.du = make([]bool, span), make([]int64, span*k)
	}
	at, du, before := pr.at[:span], pr.du[:span*k], pr.idx.reset(lo, span)
	for _, e := range pr.events {
		t, i := int(e>>ttShift-lo), int(e>>1&(1<<(ttShift-1)-1))
		at[t] = true
		d, u := p.dem[i*k:(i+1)*k], du[t*k:(t+1)*k]
		if e&1 == 1 {
			for r, c := range d {
				u[r] += c
			}
		} else {
			for r, c := range d {
				u[r] -= c
			}
		}
	}
	defer func() { clear(at); clear(du) }()
	cur := pr.cur[:k]
	for x := range span {
		before[x] = int32(len(pr.segT))
		if !at[x] {
			continue
		}
		for r, c := range du[x*k : (x+1)*k] {
			cur[r] += c
		}
		if !segment(lo + int64(x)) {
			pr.idx.dense = false
			return false
		}
	}
	before[span] = int32(len(pr.segT))
	return true
}

// ttShift packs a task and a start flag below the time in timetable's
// events: tasks < 2¹⁶, times < 2⁴⁶.
const ttShift = 17
