package dag

import (
	"math"
	"slices"
)

// ParallelSGS is the parallel (time-incrementing) schedule generation
// scheme, the work-conserving list scheduler of ALGORITHMS §6.1–6.2: at
// each decision time (0, then every task end) it scans the eligible tasks
// (all predecessors finished) in priority order and starts each one that
// fits some machine now, on the machine with the best Tetris alignment
// Σ_r (d_r/cap_r)(free_r/cap_r) (ties: lowest index). It produces
// non-delay schedules. It returns a *NoFitError when some task fits no
// machine. O(N·(R + M·K) + N log N) for R eligible tasks per decision.
func ParallelSGS(d *DAG, machines [][]float64, prio []float64) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	e := newEngine(d, machines)
	return e.run(prio), nil
}

// engine is the event simulation shared by ParallelSGS and Tetris.
type engine struct {
	d       *DAG
	caps    [][]float64 // with CapTol slack
	free    [][]float64
	ready   *readiness
	s       *Schedule
	endPrio []float64 // end time of running tasks, as the heap key
	running prioHeap
	t       int64
}

func newEngine(d *DAG, machines [][]float64) *engine {
	e := &engine{d: d, ready: newReadiness(d), s: NewSchedule(d.N()), endPrio: make([]float64, d.N())}
	for _, c := range machines {
		cc := make([]float64, len(c))
		for r, x := range c {
			cc[r] = x + CapTol*math.Max(1, x)
		}
		e.caps = append(e.caps, cc)
		e.free = append(e.free, slices.Clone(cc))
	}
	e.running.prio = e.endPrio
	return e
}

// align returns the alignment of task v on machine m, or −1 if it does not
// fit the machine's free capacity now.
func (e *engine) align(v, m int) float64 {
	var a float64
	for r, x := range e.d.Tasks[v].Demand {
		f, c := e.free[m][r], e.caps[m][r]
		if x > f {
			return -1
		}
		if c > 0 {
			a += x / c * f / c
		}
	}
	return a
}

// bestMachine returns the fitting machine of best alignment, or −1.
func (e *engine) bestMachine(v int) int {
	best, bm := -1.0, -1
	for m := range e.free {
		if a := e.align(v, m); a > best {
			best, bm = a, m
		}
	}
	return bm
}

// start runs v on m from the current time.
func (e *engine) start(v, m int) {
	t := &e.d.Tasks[v]
	for r, x := range t.Demand {
		e.free[m][r] -= x
	}
	e.s.Start[v], e.s.End[v], e.s.Machine[v] = e.t, e.t+t.Duration, m
	e.endPrio[v] = float64(e.t + t.Duration)
	e.running.push(v)
}

// advance moves to the next end time, releases every task ending then and
// calls ready for each task whose last predecessor ended. It returns false
// when nothing runs.
func (e *engine) advance(ready func(v int)) bool {
	if e.running.len() == 0 {
		return false
	}
	e.t = e.s.End[e.running.a[0]]
	for e.running.len() > 0 && e.s.End[e.running.a[0]] == e.t {
		v := e.running.pop()
		m := e.s.Machine[v]
		for r, x := range e.d.Tasks[v].Demand {
			e.free[m][r] = min(e.free[m][r]+x, e.caps[m][r])
		}
		e.ready.finish(v, ready)
	}
	return true
}

// run is the static-priority parallel SGS.
func (e *engine) run(prio []float64) *Schedule {
	d := e.d
	less := func(a, b int) int {
		switch {
		case prio[a] < prio[b]:
			return -1
		case prio[a] > prio[b]:
			return 1
		}
		return a - b
	}
	var ready []int
	insert := func(v int) {
		i, _ := slices.BinarySearchFunc(ready, v, less)
		ready = slices.Insert(ready, i, v)
	}
	for v, n := range e.ready.left {
		if n == 0 {
			ready = append(ready, v)
		}
	}
	slices.SortFunc(ready, less)
	failed := make([]int, len(d.Stages)) // round+1 in which a task of the stage failed
	failedTask := make([]int, len(d.Stages))
	for round := 1; ; round++ {
		kept := ready[:0]
		for _, v := range ready {
			st := d.Tasks[v].Stage
			if failed[st] == round && slices.Equal(d.Tasks[failedTask[st]].Demand, d.Tasks[v].Demand) {
				kept = append(kept, v)
				continue
			}
			if m := e.bestMachine(v); m >= 0 {
				e.start(v, m)
				continue
			}
			failed[st], failedTask[st] = round, v
			kept = append(kept, v)
		}
		ready = kept
		if !e.advance(insert) {
			break
		}
	}
	if len(ready) > 0 {
		panic("dag: internal: eligible tasks left with nothing running")
	}
	return e.s
}
