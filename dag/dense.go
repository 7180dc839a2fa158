package dag

import "slices"

// denseTicks is the span, in ticks per event, up to which the sweeps of
// the bounds and the searches add their events into arrays indexed by
// tick instead of sorting them (energy's sweepDense, the time-table
// profiles' profileDense, the energy rule's sortByEnd; the genetic
// algorithm's peak profile counts it per task): on a PSPLIB-sized project
// the events fall within a few ticks each.
const denseTicks = 4

// tickIndex finds the segments of a profile, given by their ascending
// start times segT, by tick. When a profile was built in an array indexed
// by tick (dense), before[x] holds the number of segments starting before
// lo + x, for x in [0, span]; otherwise a binary search answers.
type tickIndex struct {
	before []int32
	lo     int64
	dense  bool
}

// reset prepares before for a dense profile of span ticks from lo and
// returns it; the caller fills it while it walks the ticks.
func (ti *tickIndex) reset(lo int64, span int) []int32 {
	if cap(ti.before) < span+1 {
		ti.before = make([]int32, span+1)
	}
	ti.lo, ti.before, ti.dense = lo, ti.before[:span+1], true
	return ti.before
}

// segsBefore returns the number of segments of segT starting before x:
// slices.BinarySearch(segT, x).
func (ti *tickIndex) segsBefore(segT []int64, x int64) int {
	if !ti.dense {
		k, _ := slices.BinarySearch(segT, x)
		return k
	}
	switch y := x - ti.lo; {
	case y <= 0:
		return 0
	case y >= int64(len(ti.before)):
		return len(segT)
	default:
		return int(ti.before[y])
	}
}
