package dag

import (
	"cmp"
	"math"
	"slices"
)

// Schedule places every task of a DAG: task i runs on Machine[i] over the
// half-open interval [Start[i], End[i]) ticks. A zero-duration task may
// have Machine −1.
type Schedule struct {
	Start, End []int64
	Machine    []int
}

// NewSchedule returns an empty schedule for n tasks, every machine −1.
func NewSchedule(n int) *Schedule {
	s := &Schedule{Start: make([]int64, n), End: make([]int64, n), Machine: make([]int, n)}
	for i := range s.Machine {
		s.Machine[i] = -1
	}
	return s
}

// Clone returns a deep copy.
func (s *Schedule) Clone() *Schedule {
	return &Schedule{Start: slices.Clone(s.Start), End: slices.Clone(s.End), Machine: slices.Clone(s.Machine)}
}

// Makespan returns max End − min Start (0 for no tasks): the span of the
// schedule, which is its makespan once normalised to start at 0.
func (s *Schedule) Makespan() int64 {
	if len(s.Start) == 0 {
		return 0
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range s.Start {
		lo, hi = min(lo, s.Start[i]), max(hi, s.End[i])
	}
	return hi - lo
}

// Shift moves every task by dt ticks.
func (s *Schedule) Shift(dt int64) {
	for i := range s.Start {
		s.Start[i] += dt
		s.End[i] += dt
	}
}

// Normalize shifts the schedule so that its earliest start is 0.
func (s *Schedule) Normalize() {
	if len(s.Start) == 0 {
		return
	}
	s.Shift(-slices.Min(s.Start))
}

// Order returns the tasks sorted by start, then end, then index: the
// precedence order (Graphene's OrderTasks) a runtime enforces.
func (s *Schedule) Order() []int {
	o := make([]int, len(s.Start))
	for i := range o {
		o[i] = i
	}
	slices.SortFunc(o, func(a, b int) int {
		switch {
		case s.Start[a] != s.Start[b]:
			return cmp.Compare(s.Start[a], s.Start[b])
		case s.End[a] != s.End[b]:
			return cmp.Compare(s.End[a], s.End[b])
		}
		return a - b
	})
	return o
}
