package dag

import "math"

// direction is the way a placement travels in time. Forward puts a task at
// its earliest fit after its predecessors; backward puts it at its latest
// fit before its successors, which is forward placement in mirrored time
// (t ↦ −t) on the reversed DAG. Every placer in the package (Space's fits,
// Graphene's subset placer, the serial list scheduler) is written once for
// both directions in these terms:
//
//   - the edge of a task is the time it is placed against: its start
//     going forward, its end going backward;
//   - its neighbours behind are the tasks that must be placed before it
//     (predecessors forward, successors backward), its neighbours ahead
//     the others;
//   - a neighbour's near side is the time the task must keep clear of:
//     a predecessor's end forward, a successor's start backward.
type direction int8

const (
	forward  direction = 1
	backward direction = -1
)

// index is 0 forward and 1 backward, for arrays kept per direction.
func (dir direction) index() int {
	if dir == forward {
		return 0
	}
	return 1
}

// before reports whether time a comes strictly before b in the direction
// of travel.
func (dir direction) before(a, b int64) bool {
	if dir == forward {
		return a < b
	}
	return a > b
}

// further returns whichever of a and b lies further along the direction:
// the later forward, the earlier backward.
func (dir direction) further(a, b int64) int64 {
	if dir.before(a, b) {
		return b
	}
	return a
}

// origin is the time behind every other: math.MinInt64 forward,
// math.MaxInt64 backward.
func (dir direction) origin() int64 {
	if dir == forward {
		return math.MinInt64
	}
	return math.MaxInt64
}

// beyond is the time past every other: math.MaxInt64 forward,
// math.MinInt64 backward.
func (dir direction) beyond() int64 {
	if dir == forward {
		return math.MaxInt64
	}
	return math.MinInt64
}

// start returns the start of a task of length dur placed at edge.
func (dir direction) start(edge, dur int64) int64 {
	if dir == forward {
		return edge
	}
	return edge - dur
}

// edges returns the DAG's compact edges oriented so that xPreds and bPar
// are the neighbours behind.
func (dir direction) edges(d *DAG) *compact {
	if dir == forward {
		return d.cv
	}
	return d.rcv
}

// near returns the near sides of placed tasks: End forward, Start
// backward.
func (dir direction) near(s *Schedule) []int64 {
	if dir == forward {
		return s.End
	}
	return s.Start
}

// stageNear returns the near sides of the placed part of each stage: the
// latest end forward, the earliest start backward.
func (dir direction) stageNear(st *stageTimes) []int64 {
	if dir == forward {
		return st.end
	}
	return st.start
}
