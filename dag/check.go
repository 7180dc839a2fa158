package dag

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// CapTol is the relative tolerance of every capacity comparison: usage u
// fits capacity c when u ≤ c + CapTol·max(1, c). It absorbs float64
// rounding in sums of fractional demands; integer data never needs it.
const CapTol = 1e-9

// fitsCap reports whether usage u fits capacity c.
func fitsCap(u, c float64) bool { return u <= c+CapTol*math.Max(1, c) }

// ViolationKind classifies a Violation.
type ViolationKind int

const (
	// Precedence: a task starts before a predecessor ends.
	Precedence ViolationKind = iota
	// Capacity: the tasks running on a machine exceed its capacity.
	Capacity
	// Duration: End − Start differs from the task's duration.
	Duration
	// BadMachine: a task with positive duration has no valid machine.
	BadMachine
)

func (k ViolationKind) String() string {
	return [...]string{"precedence", "capacity", "duration", "machine"}[k]
}

// Violation is one broken constraint of a schedule.
type Violation struct {
	Kind ViolationKind
	// Task is the task that starts too early (Precedence), that starts the
	// overload (Capacity), or that is misplaced (Duration, BadMachine).
	Task string
	// Pred is the latest-ending predecessor that Task overlaps (Precedence).
	Pred string
	// Machine (Capacity, BadMachine).
	Machine int
	// Time is Task's start (Precedence) or the start of the overload
	// (Capacity); Until is the predecessor's end (Precedence) or the end
	// of the overload (Capacity).
	Time, Until int64
	// Resource, peak usage Used and Capacity (Capacity).
	Resource       string
	Used, Capacity float64
}

func (v Violation) String() string {
	switch v.Kind {
	case Precedence:
		return fmt.Sprintf("precedence: %s starts at %d before %s ends at %d", v.Task, v.Time, v.Pred, v.Until)
	case Capacity:
		return fmt.Sprintf("capacity: machine %d %s used %g > %g over [%d,%d) (from %s)", v.Machine, v.Resource, v.Used, v.Capacity, v.Time, v.Until, v.Task)
	case Duration:
		return fmt.Sprintf("duration: %s runs [%d,%d), not its duration", v.Task, v.Time, v.Until)
	}
	return fmt.Sprintf("machine: %s is on machine %d", v.Task, v.Machine)
}

// Check verifies a schedule against the DAG and the machines, independently
// of how the schedule was made, and returns every violation (nil when the
// schedule is feasible):
//
//   - Precedence: Start[v] ≥ End[p] for every edge p → v; one violation per
//     task, naming its latest-ending predecessor.
//   - Capacity: for every machine m, resource r and time t,
//     Σ_{i on m, Start[i] ≤ t < End[i]} demand[i][r] ≤ cap[m][r] (with
//     CapTol); one violation per maximal overloaded interval, with its peak.
//     Checked by a sweep over start and end events, ends first at equal
//     times, so it is exact in time.
//   - Duration: End[i] − Start[i] = Duration[i].
//   - BadMachine: tasks with positive duration need a machine in range.
//
// Cost O(E + N log N + N·K). It panics if the schedule's length differs
// from the DAG's or a capacity vector has the wrong length.
func Check(d *DAG, machines [][]float64, s *Schedule) []Violation {
	n := d.N()
	if len(s.Start) != n || len(s.End) != n || len(s.Machine) != n {
		panic(fmt.Sprintf("dag: schedule for %d tasks, DAG has %d", len(s.Start), n))
	}
	for _, m := range machines {
		if len(m) != d.K() {
			panic(fmt.Sprintf("dag: machine with %d capacities for %d resources", len(m), d.K()))
		}
	}
	var out []Violation
	byMachine := make([][]int, len(machines))
	for v := 0; v < n; v++ {
		t := &d.Tasks[v]
		if s.End[v]-s.Start[v] != t.Duration {
			out = append(out, Violation{Kind: Duration, Task: t.ID, Machine: s.Machine[v], Time: s.Start[v], Until: s.End[v]})
		}
		late := -1
		for _, p := range d.Preds(v) {
			if s.End[p] > s.Start[v] && (late < 0 || s.End[p] > s.End[late]) {
				late = p
			}
		}
		if late >= 0 {
			out = append(out, Violation{Kind: Precedence, Task: t.ID, Pred: d.Tasks[late].ID, Time: s.Start[v], Until: s.End[late]})
		}
		m := s.Machine[v]
		switch {
		case m >= 0 && m < len(machines):
			if s.End[v] > s.Start[v] {
				byMachine[m] = append(byMachine[m], v)
			}
		case t.Duration > 0 || m < -1 || m >= len(machines):
			out = append(out, Violation{Kind: BadMachine, Task: t.ID, Machine: m})
		}
	}
	for m, tasks := range byMachine {
		out = append(out, sweep(d, m, machines[m], tasks, s)...)
	}
	return out
}

// sweep checks the capacity of one machine.
func sweep(d *DAG, m int, capacity []float64, tasks []int, s *Schedule) []Violation {
	type event struct {
		t    int64
		task int
		end  bool
	}
	ev := make([]event, 0, 2*len(tasks))
	for _, v := range tasks {
		ev = append(ev, event{s.Start[v], v, false}, event{s.End[v], v, true})
	}
	slices.SortFunc(ev, func(a, b event) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		if a.end != b.end {
			if a.end {
				return -1
			}
			return 1
		}
		return a.task - b.task
	})
	k := len(capacity)
	used := make([]float64, k)
	open := make([]int, k) // index in out of the open overload of resource r, or −1
	for r := range open {
		open[r] = -1
	}
	var out []Violation
	for i := 0; i < len(ev); {
		t, starter := ev[i].t, ev[i].task
		for ; i < len(ev) && ev[i].t == t; i++ {
			sign := 1.0
			if ev[i].end {
				sign = -1
			} else {
				starter = ev[i].task // usage rises only at starts
			}
			for r, x := range d.Tasks[ev[i].task].Demand {
				used[r] += sign * x
			}
		}
		for r := 0; r < k; r++ {
			over := !fitsCap(used[r], capacity[r])
			switch {
			case over && open[r] < 0:
				open[r] = len(out)
				out = append(out, Violation{Kind: Capacity, Task: d.Tasks[starter].ID, Machine: m, Time: t,
					Resource: d.Resources[r], Used: used[r], Capacity: capacity[r]})
			case over:
				out[open[r]].Used = max(out[open[r]].Used, used[r])
			case open[r] >= 0:
				out[open[r]].Until = t
				open[r] = -1
			}
		}
	}
	return out
}
