package dag

import (
	"fmt"
	"math"
	"slices"
	"sort"
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
	tl   []timeline
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
	s := &Space{k: len(machines[0]), caps: make([][]float64, len(machines)), tl: make([]timeline, len(machines))}
	for m, c := range machines {
		if len(c) != s.k {
			panic(fmt.Sprintf("dag: machine %d has %d capacities, machine 0 has %d", m, len(c), s.k))
		}
		s.caps[m] = make([]float64, s.k)
		for r, x := range c {
			s.caps[m][r] = x + CapTol*math.Max(1, x)
		}
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
	c := &Space{k: s.k, caps: s.caps, tl: make([]timeline, len(s.tl))}
	for m, tl := range s.tl {
		c.tl[m] = timeline{t: slices.Clone(tl.t), u: slices.Clone(tl.u)}
	}
	return c
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
	return sort.Search(len(tl.t), func(i int) bool { return tl.t[i] > x }) - 1
}

// ok reports whether r fits on top of segment i (−1 is empty).
func (s *Space) ok(m int, tl *timeline, i int, r []float64) bool {
	if i < 0 {
		return true
	}
	u, c := tl.u[i*s.k:(i+1)*s.k], s.caps[m]
	for k, x := range r {
		if u[k]+x > c[k] {
			return false
		}
	}
	return true
}

// EarliestFit returns the earliest start ≥ tmin at which demand r fits
// machine m for dur ticks, scanning breakpoints from tmin; it returns
// Never when r does not fit the empty machine, or when no start below
// limit exists. O(B·K) for B breakpoints after tmin.
func (s *Space) EarliestFit(m int, r []float64, dur, tmin, limit int64) int64 {
	if !s.Fits(m, r) {
		return Never
	}
	if dur == 0 {
		return tmin
	}
	tl := &s.tl[m]
	if n := len(tl.t); n == 0 || tmin >= tl.t[n-1] {
		return tmin
	}
	cand := tmin
	i := tl.seg(cand)
	for cand < limit {
		j, fit := i, true
		for {
			if !s.ok(m, tl, j, r) {
				cand, i, fit = tl.t[j+1], j+1, false // the last segment is empty, so j+1 exists
				break
			}
			if j+1 >= len(tl.t) || tl.t[j+1] >= cand+dur {
				break
			}
			j++
		}
		if fit {
			return cand
		}
	}
	return Never
}

// LatestFit returns the latest start at which demand r fits machine m for
// dur ticks and ends by tmax; Never when r does not fit the empty machine
// or no start above limit exists. Mirror image of EarliestFit.
func (s *Space) LatestFit(m int, r []float64, dur, tmax, limit int64) int64 {
	if !s.Fits(m, r) {
		return Never
	}
	if dur == 0 {
		return tmax
	}
	tl := &s.tl[m]
	if len(tl.t) == 0 || tmax <= tl.t[0] {
		return tmax - dur
	}
	end := tmax
	i := tl.seg(end - 1)
	for end-dur > limit {
		j, fit := i, true
		for {
			if !s.ok(m, tl, j, r) {
				end, i, fit = tl.t[j], j-1, false
				break
			}
			if j < 0 || tl.t[j] <= end-dur {
				break
			}
			j--
		}
		if fit {
			return end - dur
		}
	}
	return Never
}

// split makes x a breakpoint of tl and returns its index.
func (s *Space) split(tl *timeline, x int64) int {
	i := tl.seg(x)
	if i >= 0 && tl.t[i] == x {
		return i
	}
	tl.t = slices.Insert(tl.t, i+1, x)
	if i < 0 {
		tl.u = slices.Insert(tl.u, 0, make([]float64, s.k)...)
	} else {
		tl.u = slices.Insert(tl.u, (i+1)*s.k, tl.u[i*s.k:(i+1)*s.k]...)
	}
	return i + 1
}

// Place adds demand r on machine m over [start, start+dur). It does not
// check capacity: callers place at a fit.
func (s *Space) Place(m int, r []float64, start, dur int64) {
	if dur == 0 || !slices.ContainsFunc(r, func(x float64) bool { return x != 0 }) {
		return
	}
	tl := &s.tl[m]
	a := s.split(tl, start)
	b := s.split(tl, start+dur)
	for i := a; i < b; i++ {
		u := tl.u[i*s.k : (i+1)*s.k]
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
	best, bm := int64(math.MaxInt64), -1
	for m := range s.tl {
		st := s.EarliestFit(m, r, dur, tmin, best)
		if st != Never && st < best {
			best, bm = st, m
			if st == tmin {
				break
			}
		}
	}
	if bm < 0 {
		return -1, Never
	}
	s.Place(bm, r, best, dur)
	return bm, best
}

// Backward places a task at its latest fit ending by tmax over all
// machines (ties: lowest index) and returns the machine and start.
func (s *Space) Backward(r []float64, dur, tmax int64) (int, int64) {
	best, bm := int64(math.MinInt64), -1
	for m := range s.tl {
		st := s.LatestFit(m, r, dur, tmax, best)
		if st != Never && st > best {
			best, bm = st, m
			if st == tmax-dur {
				break
			}
		}
	}
	if bm < 0 {
		return -1, Never
	}
	s.Place(bm, r, best, dur)
	return bm, best
}
