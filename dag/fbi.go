package dag

import (
	"cmp"
	"slices"
)

// Justify applies forward–backward improvement, also called double
// justification (Valls, Ballestín & Quintanilla, EJOR 2005; Tormos & Lova
// 2001; ALGORITHMS §6.4), to a feasible schedule s and returns the
// improved, normalised schedule (s is not modified):
//
//  1. Right justification: take tasks by decreasing end (ties: decreasing
//     start, then reverse topological order) and place each as late as
//     possible, ending by the earliest start of its (already moved)
//     successors and by the makespan T: a backward serial SGS.
//  2. Left justification: take tasks by increasing start in that schedule
//     and place each as early as possible after its predecessors: a
//     forward serial SGS.
//  3. Repeat while the makespan strictly decreases.
//
// Every task keeps its machine, which makes each pass monotone: a task
// always fits where it was, since the tasks placed before it on its
// machine only moved away from it in time. So the makespan never
// increases. A final pass letting tasks change machine is kept only if
// it shortens the schedule. Each round costs two serial SGS passes.
func Justify(d *DAG, machines [][]float64, s *Schedule) *Schedule {
	j, _ := justify(d, machines, s, true)
	return j
}

// justify runs the fixed-machine rounds, then optionally one free round;
// it returns the schedule and the work spent (see DefaultMaxWork).
func justify(d *DAG, machines [][]float64, s *Schedule, free bool) (*Schedule, int64) {
	cur := s.Clone()
	cur.Normalize()
	var work int64
	for {
		next, w := justifyRound(d, machines, cur, cur.Machine)
		work += w
		if next.Makespan() >= cur.Makespan() {
			cur = next
			break
		}
		cur = next
	}
	if free && len(machines) > 1 {
		alt, w := justifyRound(d, machines, cur, nil)
		work += w
		if alt.Makespan() < cur.Makespan() {
			j, w := justify(d, machines, alt, false)
			return j, work + w
		}
	}
	return cur, work
}

// justifyRound is one right-then-left pass; fixed (or nil) pins machines.
// It returns the schedule and the work of its two passes.
func justifyRound(d *DAG, machines [][]float64, s *Schedule, fixed []int) (*Schedule, int64) {
	horizon := s.Makespan()
	list := d.allTasks()
	slices.SortFunc(list, func(a, b int) int {
		if c := cmp.Compare(s.End[b], s.End[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(s.Start[b], s.Start[a]); c != 0 {
			return c
		}
		return d.rank[b] - d.rank[a]
	})
	r := NewSchedule(d.N())
	back := NewSpace(machines)
	serialList(d, back, list, fixed, backward, horizon, r)
	sortByStart(d, list, r)
	l := NewSchedule(d.N())
	if fixed != nil {
		fixed = r.Machine
	}
	fwd := NewSpace(machines)
	serialList(d, fwd, list, fixed, forward, 0, l)
	l.Normalize()
	return l, back.work + fwd.work + 2*d.passWork()
}

// sortByStart sorts list by start, end, then topological order in s.
func sortByStart(d *DAG, list []int, s *Schedule) {
	slices.SortFunc(list, func(a, b int) int {
		if c := cmp.Compare(s.Start[a], s.Start[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(s.End[a], s.End[b]); c != 0 {
			return c
		}
		return d.rank[a] - d.rank[b]
	})
}
