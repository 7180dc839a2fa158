package dag

import (
	"fmt"
	"math"
	"slices"
)

// Never is the start an impossible fit reports.
const Never = math.MinInt64

// Space is Graphene's resource-time space (ALGORITHMS §3.3): one
// piecewise-constant usage timeline per machine. A task must fit on a
// single machine for its whole duration. Times may be negative (backward
// placement); usage is zero before the first and after the last
// breakpoint of a timeline. NewSpace(Pool(machines)) is the pooled mode.
type Space struct {
	k    int
	caps [][]float64 // per machine, with CapTol slack added
	same []bool      // same[m]: machine m has the capacities of machine m−1
	zero []float64   // k zeros, the usage before the first breakpoint
	tl   []timeline
	// work counts the machines tried and segments walked by fits, in the
	// package's work units (see DefaultMaxWork).
	work int64
	// walkSeg is walk's second result, the segment holding the start it
	// found, read by its callers at once (a field rather than a result:
	// a second result costs walk's loop a register, 6% more
	// instructions).
	walkSeg int
}

// timeline holds breakpoints t (ascending) and the usage on [t[i], t[i+1])
// in u[i·k:(i+1)·k]; the usage of the last segment is always zero.
type timeline struct {
	t []int64
	u []float64
}

// NewSpace returns an empty space over the given machines (capacity
// vectors of equal length). It panics on ragged or empty input.
func NewSpace(machines [][]float64) *Space {
	if len(machines) == 0 {
		panic("dag: no machines")
	}
	s := &Space{k: len(machines[0]), caps: make([][]float64, len(machines)), same: make([]bool, len(machines)),
		zero: make([]float64, len(machines[0])), tl: make([]timeline, len(machines))}
	for m, c := range machines {
		if len(c) != s.k {
			panic(fmt.Sprintf("dag: machine %d has %d capacities, machine 0 has %d", m, len(c), s.k))
		}
		s.caps[m] = make([]float64, s.k)
		for r, x := range c {
			s.caps[m][r] = x + CapTol*math.Max(1, x)
		}
		s.same[m] = m > 0 && slices.Equal(s.caps[m], s.caps[m-1])
	}
	return s
}

// Pool returns the single machine holding the summed capacity of machines:
// the pooled mode of the space, optimistic because it ignores
// fragmentation across machines.
func Pool(machines [][]float64) [][]float64 {
	sum := make([]float64, len(machines[0]))
	for _, c := range machines {
		for r, x := range c {
			sum[r] += x
		}
	}
	return [][]float64{sum}
}

// Machines returns the number of machines.
func (s *Space) Machines() int { return len(s.tl) }

// Clone returns a deep copy in O(total breakpoints · K).
func (s *Space) Clone() *Space {
	c := &Space{k: s.k, caps: s.caps, same: s.same, zero: s.zero, tl: make([]timeline, len(s.tl))}
	for m, tl := range s.tl {
		c.tl[m] = timeline{t: slices.Clone(tl.t), u: slices.Clone(tl.u)}
	}
	return c
}

// reset empties the space and its work count, keeping its memory: a
// worker that builds many schedules reuses one space.
func (s *Space) reset() {
	for m := range s.tl {
		s.tl[m].t, s.tl[m].u = s.tl[m].t[:0], s.tl[m].u[:0]
	}
	s.work = 0
}

// Fits reports whether demand r fits machine m when it is empty.
func (s *Space) Fits(m int, r []float64) bool {
	for k, x := range r {
		if x > s.caps[m][k] {
			return false
		}
	}
	return true
}

// seg returns the index of the segment of tl containing time x, or −1
// before the first breakpoint.
func (tl *timeline) seg(x int64) int {
	lo, hi := 0, len(tl.t) // the first breakpoint above x is in [lo, hi]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if tl.t[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}

// holds reports whether segment i (−1: before the first breakpoint)
// contains time x.
func (tl *timeline) holds(i int, x int64) bool {
	switch {
	case i < -1 || i >= len(tl.t):
		return false
	case i >= 0 && tl.t[i] > x:
		return false
	}
	return i+1 == len(tl.t) || tl.t[i+1] > x
}

// EarliestFit returns the earliest start ≥ tmin at which demand r fits
// machine m for dur ticks, scanning breakpoints from tmin; it returns
// Never when r does not fit the empty machine, or when no start below
// limit exists. O(B·K) for B breakpoints after tmin.
func (s *Space) EarliestFit(m int, r []float64, dur, tmin, limit int64) int64 {
	st, _ := s.fit(m, r, dur, tmin, limit, forward)
	return st
}

// LatestFit returns the latest start at which demand r fits machine m for
// dur ticks and ends by tmax; Never when r does not fit the empty machine
// or no start above limit exists. EarliestFit in mirrored time.
func (s *Space) LatestFit(m int, r []float64, dur, tmax, limit int64) int64 {
	st, _ := s.fit(m, r, dur, tmax, limit, backward)
	return st
}

// fit returns the start of the first placement of demand r on machine m
// for dur ticks whose edge (see direction) is at or beyond edge, or Never
// when r does not fit the empty machine or no start before limit (in the
// direction of travel) exists. A machine idle from edge on is answered at
// once; walk does the rest. It also returns a hint for placeAt: the
// segment holding the start when a walk found it, noSeg otherwise.
func (s *Space) fit(m int, r []float64, dur, edge, limit int64, dir direction) (int64, int) {
	switch {
	case !s.Fits(m, r):
		return Never, noSeg
	case s.busyAhead(m, dur, edge, dir):
		st := s.walk(m, r, dur, edge, limit, dir)
		return st, s.walkSeg
	}
	return dir.start(edge, dur), noSeg
}

// busyAhead reports whether a task of positive length dur placed at edge
// may meet usage on machine m: some breakpoint lies beyond edge.
func (s *Space) busyAhead(m int, dur, edge int64, dir direction) bool {
	t := s.tl[m].t
	if dur == 0 || len(t) == 0 {
		return false
	}
	if dir == forward {
		return edge < t[len(t)-1]
	}
	return edge > t[0]
}

// walk is fit when breakpoints lie ahead of edge. It works in mirrored
// time e = sg·t, sg = ±1, in which backward placement is forward
// placement of [e, e+dur), and keeps hi = e + dur, the task's far end.
// Walking the segments from the edge: when one cannot hold r, the edge
// jumps to that segment's far breakpoint; when the segments under the
// whole task hold r, the placement is found. It leaves the segment
// holding the start found in walkSeg.
func (s *Space) walk(m int, r []float64, dur, edge, limit int64, dir direction) int64 {
	tl := &s.tl[m]
	sg, step := int64(dir), int(dir)
	// far[j] is the breakpoint where segment j ends in the direction of
	// travel: t[j+1] forward, t[j] backward.
	far := tl.t
	limHi := int64(math.MaxInt64) // walk while hi < limHi, i.e. start before limit
	if dir == forward {
		far = tl.t[1:]
		if limit <= math.MaxInt64-dur {
			limHi = limit + dur
		}
	} else if limit != math.MinInt64 {
		limHi = -limit // start = −hi > limit
	}
	hi := sg*edge + dur
	if hi >= limHi {
		return Never
	}
	j := tl.seg(dir.start(edge, 1)) // the segment of the first tick covered
	j0 := j
	js := j // forward: the segment of the start found
	if j < 0 && dir == forward {
		// Segment −1, before the first breakpoint, is empty.
		if tl.t[0] >= hi {
			s.walkSeg = -1
			return edge
		}
		j = 0
	}
	k, caps, use := s.k, s.caps[m][:len(r)], tl.u
walk:
	for ; j >= 0; j += step { // backward, segment −1 is empty: found
		u := use[j*k:][:len(r)]
		for x, v := range r {
			if u[x]+v > caps[x] {
				// Segment j cannot hold r: jump past it (its far
				// breakpoint exists, as the last segment is empty).
				if hi = sg*far[j] + dur; hi >= limHi {
					s.work += int64(max(j-j0, j0-j)) + 1
					return Never
				}
				js = j + 1
				continue walk
			}
		}
		if j >= len(far) || sg*far[j] >= hi {
			break // the segments from the edge to j reach the far end
		}
	}
	s.work += int64(max(j-j0, j0-j)) + 1
	if dir == forward {
		s.walkSeg = js
		return hi - dur
	}
	s.walkSeg = max(j, -1) // backward, the walk ends in the start's segment
	return -hi
}

// splitAfter is splitAt for x at or after breakpoint a: the segment of x
// is found by scanning from a, as a task spans few segments.
func (s *Space) splitAfter(tl *timeline, x int64, a int) int {
	i := a
	for i+1 < len(tl.t) && tl.t[i+1] <= x {
		i++
	}
	return s.splitAt(tl, x, i)
}

// splitAt makes x a breakpoint of tl, given i, the segment of x, and
// returns its index.
func (s *Space) splitAt(tl *timeline, x int64, i int) int {
	if i >= 0 && tl.t[i] == x {
		return i
	}
	tl.t = slices.Insert(tl.t, i+1, x)
	if i < 0 {
		tl.u = slices.Insert(tl.u, 0, s.zero...)
	} else {
		tl.u = slices.Insert(tl.u, (i+1)*s.k, tl.u[i*s.k:(i+1)*s.k]...)
	}
	return i + 1
}

// Place adds demand r on machine m over [start, start+dur). It does not
// check capacity: callers place at a fit.
func (s *Space) Place(m int, r []float64, start, dur int64) {
	s.placeAt(m, r, start, dur, noSeg)
}

// noSeg is placeAt's hint when the segment of the start is not known.
const noSeg = -2

// placeAt is Place given seg, the segment of start on machine m as a walk
// found it (noSeg when not known; checked here all the same).
func (s *Space) placeAt(m int, r []float64, start, dur int64, seg int) {
	if dur == 0 || !slices.ContainsFunc(r, func(x float64) bool { return x != 0 }) {
		return
	}
	tl := &s.tl[m]
	if !tl.holds(seg, start) {
		seg = tl.seg(start)
	}
	a := s.splitAt(tl, start, seg)
	b := s.splitAfter(tl, start+dur, a)
	for i := a; i < b; i++ {
		u := tl.u[i*s.k:][:len(r)]
		for k, x := range r {
			u[k] += x
		}
	}
}

// Forward places a task at its earliest fit ≥ tmin over all machines and
// returns the machine and start (−1, Never if it fits none). Ties go to
// the lowest machine index (first fit), so the scan stops at the first
// machine free at tmin; this departs from §3.3's alignment tie-break to
// keep placement O(M) in the worst case and O(1) machines when one is
// free.
func (s *Space) Forward(r []float64, dur, tmin int64) (int, int64) {
	return s.place(r, dur, tmin, forward)
}

// Backward places a task at its latest fit ending by tmax over all
// machines (ties: lowest index) and returns the machine and start.
func (s *Space) Backward(r []float64, dur, tmax int64) (int, int64) {
	return s.place(r, dur, tmax, backward)
}

// place puts a task at its first fit from edge in direction dir over all
// machines (ties: lowest index) and returns the machine and start.
func (s *Space) place(r []float64, dur, edge int64, dir direction) (int, int64) {
	best, bm, seg := dir.beyond(), -1, noSeg
	at := dir.start(edge, dur) // a placement right at edge cannot be bettered
	fits, m := false, 0
	for ; m < len(s.tl); m++ {
		// fit, with its usual case inline: this loop is the hot spot of
		// every placer. Identical machines in a row share the Fits test.
		if !s.same[m] {
			fits = s.Fits(m, r)
		}
		if !fits {
			continue
		}
		st, sm := at, noSeg
		if s.busyAhead(m, dur, edge, dir) {
			st, sm = s.walk(m, r, dur, edge, best, dir), s.walkSeg
		}
		if st != Never && dir.before(st, best) {
			best, bm, seg = st, m, sm
			if st == at {
				break
			}
		}
	}
	s.work += int64(m) + 1 // machines tried
	if bm < 0 {
		return -1, Never
	}
	s.placeAt(bm, r, best, dur, seg)
	return bm, best
}
