package dag

import (
	"cmp"
	"math"
	"slices"
)

// lcgTimetable is the time-table rule of one resource for the learning
// search (lcg), with pointwise explanations (Schutt et al., Constraints
// 16(3), 2011, §4): task j surely runs at time t when S_j ≥ t − p_j + 1
// and S_j ≤ t (its compulsory part [ub_j, lb_j + p_j) covers t). If the
// tasks Ω surely running at t leave task i less than c_i of the resource,
//
//	[S_i ≥ t − p_i + 1] ∧ ⋀_{j∈Ω} ([S_j ≥ t − p_j + 1] ∧ [S_j ≤ t]) → [S_i ≥ t + 1]
//
// (i cannot run at t, and starting at t − p_i + 1 or later it would), and
// symmetrically [S_i ≤ t] ∧ Ω → [S_i ≤ t − p_i]. Each is the weakest
// explanation of its time point: it holds in every part of the search
// where the same tasks cover t, which is what makes the learned clauses
// general. Ω is taken largest demand first, so it is short.
type lcgTimetable struct {
	s     *lcg
	dirty bool       // a task's bound changed since the last run
	en    *lcgEnergy // the energy rule of the same resource
	cap   int64
	tasks []int32 // tasks with positive demand and duration
	c     []int64 // demand, by task index
	maxC  int64
	// the profile of compulsory parts when run began: segment k is
	// [segT[k], segT[k+1]) at height segH[k]
	segT, segH []int64
	events     []ttEvent
	// dh and at are profile's time-indexed scratch: the height change
	// and whether an event falls at each tick.
	dh  []int64
	at  []bool
	idx tickIndex // the segments by tick, when profileDense built them
	// high lists the segments tall enough to stop some task (height >
	// cap − maxC), the only ones the pushes look at, and highBefore[k]
	// the number of them before segment k.
	high, highBefore []int32
	// each task's compulsory part at the profile's build ([0,0) if none)
	from, to []int64
	// comp lists the tasks with a compulsory part at the profile's build
	comp  []int32
	cover []int32
}

type ttEvent struct {
	t int64
	d int64
}

// newLCGTimetable returns the rule of resource r, or nil when no two
// tasks can ever exceed its capacity together.
func newLCGTimetable(s *lcg, r int) *lcgTimetable {
	p := s.p
	t := &lcgTimetable{s: s, cap: p.cap[r], c: make([]int64, p.n), from: make([]int64, p.n), to: make([]int64, p.n)}
	var sum int64
	for i := 0; i < p.n; i++ {
		if c := p.demand(i)[r]; c > 0 && p.dur[i] > 0 {
			t.tasks = append(t.tasks, int32(i))
			t.c[i] = c
			t.maxC = max(t.maxC, c)
			sum += c
		}
	}
	if sum <= t.cap {
		return nil
	}
	t.dirty = true
	return t
}

// run builds the profile and filters every task against it once; it
// returns false on a conflict.
func (t *lcgTimetable) run() bool {
	s := t.s
	dur := s.p.dur
	t.events, t.comp = t.events[:0], t.comp[:0]
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64) // the events' span
	for _, i := range t.tasks {
		a, b := s.ub[i], s.lb[i]+dur[i]
		if a < b {
			t.comp = append(t.comp, i)
			t.events = append(t.events, ttEvent{a, t.c[i]}, ttEvent{b, -t.c[i]})
			t.from[i], t.to[i] = a, b
			lo, hi = min(lo, a), max(hi, b)
		} else {
			t.from[i], t.to[i] = 0, 0
		}
	}
	s.b.spend(int64(len(t.tasks)))
	t.segT, t.segH, t.idx.dense = t.segT[:0], t.segH[:0], false
	if len(t.events) == 0 {
		return true
	}
	s.b.spend(int64(len(t.events)))
	t.profile(lo, hi)
	var top int64
	for k, h := range t.segH {
		if h > t.cap {
			t.segT, t.segH, t.idx.dense = t.segT[:k+1], t.segH[:k+1], false
			s.confl = s.confl[:0]
			t.explainAt(-1, t.segT[k], t.cap, func(l lit) { s.confl = append(s.confl, l) })
			return false
		}
		top = max(top, h)
	}
	if top+t.maxC <= t.cap {
		return true
	}
	t.indexHigh()
	for _, i := range t.tasks {
		// A fixed task's compulsory part is its whole run, which the
		// profile holds without overload: it cannot be pushed.
		if top+t.c[i] <= t.cap || s.lb[i] == s.ub[i] {
			continue
		}
		if !t.pushLB(i) || !t.pushUB(i) {
			return false
		}
	}
	return true
}

// profile turns the events, all within [lo, hi], into the segments of
// the compulsory-part profile, one per distinct event time: profileDense
// when the events span at most denseTicks ticks each, profileSorted
// otherwise. Both give the same segments.
func (t *lcgTimetable) profile(lo, hi int64) {
	if hi-lo > denseTicks*int64(len(t.events)) {
		t.profileSorted()
		return
	}
	t.profileDense(lo, hi)
}

// profileSorted sorts the events by time and sums them.
func (t *lcgTimetable) profileSorted() {
	t.idx.dense = false
	slices.SortFunc(t.events, func(x, y ttEvent) int { return cmp.Compare(x.t, y.t) })
	var h int64
	for k := 0; k < len(t.events); {
		at := t.events[k].t
		for k < len(t.events) && t.events[k].t == at {
			h += t.events[k].d
			k++
		}
		t.segT = append(t.segT, at)
		t.segH = append(t.segH, h)
	}
}

// profileDense adds the events, all within [lo, hi], into a time-indexed
// array and walks it; it also fills idx, which makes search O(1).
func (t *lcgTimetable) profileDense(lo, hi int64) {
	span := int(hi-lo) + 1
	if cap(t.dh) < span {
		t.dh, t.at = make([]int64, span), make([]bool, span)
	}
	dh, at := t.dh[:span], t.at[:span]
	for _, e := range t.events {
		dh[e.t-lo] += e.d
		at[e.t-lo] = true
	}
	before := t.idx.reset(lo, span)
	var h int64
	for x := range span {
		before[x] = int32(len(t.segT))
		if at[x] {
			h += dh[x]
			t.segT = append(t.segT, lo+int64(x))
			t.segH = append(t.segH, h)
			dh[x], at[x] = 0, false
		}
	}
	before[span] = int32(len(t.segT))
}

// indexHigh fills high and highBefore from the profile.
func (t *lcgTimetable) indexHigh() {
	t.high = t.high[:0]
	t.highBefore = slices.Grow(t.highBefore[:0], len(t.segH)+1)
	for k, h := range t.segH {
		t.highBefore = append(t.highBefore, int32(len(t.high)))
		if h+t.maxC > t.cap {
			t.high = append(t.high, int32(k))
		}
	}
	t.highBefore = append(t.highBefore, int32(len(t.high)))
	t.s.b.spend(int64(len(t.segH)))
}

// search returns the number of segments starting before x.
func (t *lcgTimetable) search(x int64) int { return t.idx.segsBefore(t.segT, x) }

// height returns the profile height over segment k without task i's own
// compulsory part.
func (t *lcgTimetable) height(k int, i int32) int64 {
	h := t.segH[k]
	if t.segT[k] >= t.from[i] && t.segT[k] < t.to[i] {
		h -= t.c[i]
	}
	return h
}

// segEnd returns the end of segment k (the last one never ends).
func (t *lcgTimetable) segEnd(k int) int64 {
	if k+1 < len(t.segT) {
		return t.segT[k+1]
	}
	return lcgNoUB
}

// pushLB moves S_i past every time point of its earliest run where the
// others leave it too little.
func (t *lcgTimetable) pushLB(i int32) bool {
	s := t.s
	d := s.p.dur[i]
	// first segment ending after lb
	k := max(t.search(s.lb[i]+1)-1, 0)
	for {
		a, b := s.lb[i], s.lb[i]+d
		last := int64(-1)
		for h := t.highBefore[k]; int(h) < len(t.high) && t.segT[t.high[h]] < b; h++ {
			j := int(t.high[h])
			s.b.spend(1)
			if t.segEnd(j) <= a || t.height(j, i)+t.c[i] <= t.cap {
				continue
			}
			last = min(t.segEnd(j), b) - 1
		}
		if last < 0 {
			return true
		}
		off := int32(len(s.expl))
		s.expl = append(s.expl, lit{i, true, last - d + 1})
		t.explainAt(i, last, t.cap-t.c[i], func(l lit) { s.expl = append(s.expl, l) })
		if !s.set(lit{i, true, last + 1}, byStored, off, int32(len(s.expl))-off, nil) {
			return false
		}
		for k < len(t.segT) && t.segEnd(k) <= last+1 {
			k++
		}
	}
}

// pushUB moves the end of S_i's latest run before every time point where
// the others leave it too little.
func (t *lcgTimetable) pushUB(i int32) bool {
	s := t.s
	d := s.p.dur[i]
	for {
		a, b := s.ub[i], s.ub[i]+d
		k := max(t.search(a+1)-1, 0)
		first := int64(-1)
		for h := t.highBefore[k]; int(h) < len(t.high) && t.segT[t.high[h]] < b; h++ {
			j := int(t.high[h])
			s.b.spend(1)
			if t.segEnd(j) <= a || t.height(j, i)+t.c[i] <= t.cap {
				continue
			}
			first = max(t.segT[j], a)
			break
		}
		if first < 0 {
			return true
		}
		off := int32(len(s.expl))
		s.expl = append(s.expl, lit{i, false, first})
		t.explainAt(i, first, t.cap-t.c[i], func(l lit) { s.expl = append(s.expl, l) })
		if !s.set(lit{i, false, first - d}, byStored, off, int32(len(s.expl))-off, nil) {
			return false
		}
	}
}

// explainAt adds the literals of a set of tasks other than skip whose
// compulsory parts cover time point at and whose demands sum to more than
// room, largest demand first.
func (t *lcgTimetable) explainAt(skip int32, at, room int64, add func(lit)) {
	s := t.s
	t.cover = t.cover[:0]
	for _, j := range t.comp {
		if j != skip && t.from[j] <= at && at < t.to[j] {
			t.cover = append(t.cover, j)
		}
	}
	s.b.spend(int64(len(t.comp)))
	slices.SortFunc(t.cover, func(x, y int32) int {
		if c := cmp.Compare(t.c[y], t.c[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	var sum int64
	for _, j := range t.cover {
		add(lit{j, true, at - s.p.dur[j] + 1})
		add(lit{j, false, at})
		sum += t.c[j]
		if sum > room {
			return
		}
	}
	panic("dag: time-table explanation without an overload")
}
