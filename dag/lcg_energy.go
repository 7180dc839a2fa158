package dag

import (
	"cmp"
	"slices"
)

// lcgEnergy is the energy rule of one resource for the learning search
// (lcg): time-table edge finding (Vilím, CPAIOR 2011) with explanations
// in the manner of Schutt, Feydy & Stuckey ("Explaining time-table-edge-
// finding propagation for cumulative resource constraints", CPAIOR 2013).
// It sees what the time-table cannot: tasks without compulsory parts that
// must all run inside one window.
//
// The energy a window [a, b) surely holds, E(a, b), is the energy of the
// tasks that must run wholly inside it (a ≤ lb_j, ub_j + p_j ≤ b) plus the
// compulsory parts of the others inside it, computed for a among the
// earliest starts and b among the latest ends of the tasks not yet fixed
// (a fixed task is all compulsory part): O(n²) windows per run, plus O(n)
// for each window tight enough that a task might not fit, plus the sort
// of an explanation per push (O(n³) at worst, rarely near it). If E(a, b)
// > C(b − a), the window is overloaded. Otherwise, with room R_i = C(b − a)
// − E_i(a, b) (E without task i), task i runs at most q = ⌊R_i/c_i⌋ inside
// it; when q < min(p_i, b − a), S_i ≤ a + q − p_i or S_i ≥ b − q, and if
// i's earliest start rules out the first, S_i ≥ b − q (symmetrically,
// S_i ≤ a + q − p_i).
//
// Explanations count each other task j by its least run inside the
// window under its bounds (the energetic reasoning of Baptiste, Le Pape &
// Nuijten; never less than the energy above): m_j = min(p_j, b − a,
// lb_j + p_j − a, b − ub_j), which the two literals [S_j ≥ a + m_j − p_j]
// and [S_j ≤ b − m_j] guarantee, whatever S_j is between them. The tasks
// of largest energy come first and the last is cut to what is needed, so
// an explanation holds wherever those tasks are at least as confined.
type lcgEnergy struct {
	t     *lcgTimetable
	dirty bool
	// cum[k] is the compulsory energy before the time-table's segT[k]
	cum     []int64
	est     []int64 // distinct earliest starts, ascending
	byEnd   []int32 // tasks by latest end
	free    []int64 // energy outside the compulsory part, by task
	lb, end []int64 // earliest start and latest end, by task
	endE    []int64 // compulsory energy before each byEnd's end
	// count and sorted are sortByEnd's scratch
	count   []int32
	sorted  []int32
	contrib []enContrib
}

// enContrib is task j's least run m inside a window, and its energy.
type enContrib struct {
	j    int32
	m, e int64
}

func newLCGEnergy(t *lcgTimetable) *lcgEnergy {
	n := t.s.p.n
	return &lcgEnergy{t: t, dirty: true, free: make([]int64, n), lb: make([]int64, n), end: make([]int64, n)}
}

// run checks and filters every window once; it returns false on a
// conflict. The windows and their energy are those of the bounds when it
// began: bounds only tighten while it filters, so the energy it counts
// stays surely there.
func (en *lcgEnergy) run() bool {
	t, s := en.t, en.t.s
	dur := s.p.dur
	if t.dirty {
		panic("dag: internal: energy rule on a stale time-table profile")
	}
	en.cumulate()
	en.est, en.byEnd = en.est[:0], en.byEnd[:0]
	var maxP int64
	for _, i := range t.tasks {
		en.lb[i], en.end[i] = s.lb[i], s.ub[i]+dur[i]
		cp := max(0, s.lb[i]+dur[i]-s.ub[i])
		if en.free[i] = t.c[i] * (dur[i] - cp); en.free[i] == 0 {
			continue // all in the profile, and fixed
		}
		en.est = append(en.est, s.lb[i])
		en.byEnd = append(en.byEnd, i)
		maxP = max(maxP, dur[i])
	}
	slices.Sort(en.est)
	en.est = slices.Compact(en.est)
	en.sortByEnd()
	n := len(en.byEnd)
	// the compulsory energy before each latest end (before each earliest
	// start: ea below)
	en.endE = en.endE[:0]
	for _, j := range en.byEnd {
		en.endE = append(en.endE, en.before(en.end[j]))
	}
	s.b.spend(int64(2 * (n + len(en.est))))
	// first is the first task by latest end that ends after a: the tasks
	// before it cannot be inside any window from a (they start before
	// they end), and the windows they end are empty.
	first := 0
	for _, a := range en.est {
		for first < n && en.end[en.byEnd[first]] <= a {
			first++
		}
		var in int64 // free energy of the tasks wholly inside [a, b)
		ea := en.before(a)
		for k := first; k < n; {
			b, eb := en.end[en.byEnd[k]], en.endE[k]
			for ; k < n && en.end[en.byEnd[k]] == b; k++ {
				if j := en.byEnd[k]; en.lb[j] >= a {
					in += en.free[j]
				}
			}
			if b <= a {
				continue
			}
			room := t.cap*(b-a) - in - (eb - ea)
			if room < 0 {
				s.confl = s.confl[:0]
				en.explain(a, b, -1, t.cap*(b-a)+1, func(l lit) { s.confl = append(s.confl, l) })
				return false
			}
			if room >= t.maxC*min(maxP, b-a) {
				continue // no task can be pushed out of this window
			}
			if !en.filter(a, b, room) {
				return false
			}
		}
		s.b.spend(int64(n - first))
	}
	return true
}

// filter pushes each task not wholly inside [a, b) out of the room its
// run there would need.
func (en *lcgEnergy) filter(a, b, room int64) bool {
	t, s := en.t, en.t.s
	dur := s.p.dur
	w := b - a
	for _, i := range t.tasks {
		p, c := dur[i], t.c[i]
		if en.lb[i] >= a && en.end[i] <= b {
			continue // counted inside
		}
		// room without i: its compulsory part inside [a, b) is counted in
		// the window's energy
		ri := room + c*max(0, min(en.lb[i]+p, b)-max(en.end[i]-p, a))
		lb, ub := s.lb[i], s.ub[i]
		q := ri / c
		if q >= min(p, w) {
			continue
		}
		if lb > a+q-p && b-q > lb {
			// i cannot end by a + q: S_i ≥ b − q
			v := b - q
			need := t.cap*w - c*(q+1) + 1 // energy of the others that leaves i at most q
			off := int32(len(s.expl))
			s.expl = append(s.expl, lit{})
			x := en.explain(a, b, i, need, func(l lit) { s.expl = append(s.expl, l) })
			s.expl[off] = lit{i, true, a + (t.cap*w-x)/c + 1 - p}
			if !s.set(lit{i, true, v}, byStored, off, int32(len(s.expl))-off, nil) {
				return false
			}
			lb = v
		}
		if ub < b-q && a+q-p < ub && lb <= ub {
			// i cannot start at b − q or later: S_i ≤ a + q − p_i
			v := a + q - p
			need := t.cap*w - c*(q+1) + 1
			off := int32(len(s.expl))
			s.expl = append(s.expl, lit{})
			x := en.explain(a, b, i, need, func(l lit) { s.expl = append(s.expl, l) })
			s.expl[off] = lit{i, false, b - (t.cap*w-x)/c - 1}
			if !s.set(lit{i, false, v}, byStored, off, int32(len(s.expl))-off, nil) {
				return false
			}
		}
		s.b.spend(1)
	}
	return true
}

// explain adds the literals that guarantee other tasks than skip at least
// need energy inside [a, b), and returns the energy they guarantee.
func (en *lcgEnergy) explain(a, b int64, skip int32, need int64, add func(lit)) int64 {
	t, s := en.t, en.t.s
	dur := s.p.dur
	en.contrib = en.contrib[:0]
	for _, j := range t.tasks {
		if j == skip {
			continue
		}
		p := dur[j]
		m := min(p, b-a, s.lb[j]+p-a, b-s.ub[j])
		if m > 0 {
			en.contrib = append(en.contrib, enContrib{j, m, t.c[j] * m})
		}
	}
	s.b.spend(int64(len(t.tasks)))
	slices.SortFunc(en.contrib, func(x, y enContrib) int { return cmp.Or(cmp.Compare(y.e, x.e), cmp.Compare(x.j, y.j)) })
	var sum int64
	for _, k := range en.contrib {
		if sum >= need {
			break
		}
		m := k.m
		if over := sum + k.e - need; over > 0 {
			m -= over / t.c[k.j] // the least run that still reaches need
		}
		sum += t.c[k.j] * m
		add(lit{k.j, true, a + m - dur[k.j]})
		add(lit{k.j, false, b - m})
	}
	if sum < need {
		panic("dag: energy explanation short of the energy it found")
	}
	return sum
}

// cumulate sums the energy of the time-table's profile of compulsory
// parts. The rule runs only when its time-table is clean, so that profile
// is of the current bounds.
func (en *lcgEnergy) cumulate() {
	t := en.t
	en.cum = en.cum[:0]
	var e int64
	for k, at := range t.segT {
		if k > 0 {
			e += t.segH[k-1] * (at - t.segT[k-1])
		}
		en.cum = append(en.cum, e)
	}
	t.s.b.spend(int64(len(t.segT)))
}

// before returns the compulsory energy before time x.
func (en *lcgEnergy) before(x int64) int64 {
	t := en.t
	k := t.search(x)
	if k < len(t.segT) && t.segT[k] == x {
		return en.cum[k]
	}
	if k == 0 {
		return 0
	}
	return en.cum[k-1] + t.segH[k-1]*(x-t.segT[k-1])
}

// sortByEnd orders byEnd, which holds tasks in increasing index, by
// latest end, then index. When the ends span at most denseTicks ticks per
// task it counts them into buckets, a stable sort that keeps the index
// order within an end; otherwise it compares.
func (en *lcgEnergy) sortByEnd() {
	if len(en.byEnd) == 0 {
		return
	}
	lo, hi := en.end[en.byEnd[0]], en.end[en.byEnd[0]]
	for _, j := range en.byEnd {
		lo, hi = min(lo, en.end[j]), max(hi, en.end[j])
	}
	if hi-lo > denseTicks*int64(len(en.byEnd)) {
		slices.SortFunc(en.byEnd, func(x, y int32) int { return cmp.Or(cmp.Compare(en.end[x], en.end[y]), cmp.Compare(x, y)) })
		return
	}
	span := int(hi-lo) + 2
	if cap(en.count) < span {
		en.count = make([]int32, span)
	}
	count := en.count[:span]
	clear(count)
	for _, j := range en.byEnd {
		count[en.end[j]-lo+1]++
	}
	for x := 1; x < span; x++ {
		count[x] += count[x-1]
	}
	en.sorted = slices.Grow(en.sorted[:0], len(en.byEnd))[:len(en.byEnd)]
	for _, j := range en.byEnd {
		en.sorted[count[en.end[j]-lo]] = j
		count[en.end[j]-lo]++
	}
	copy(en.byEnd, en.sorted)
}
