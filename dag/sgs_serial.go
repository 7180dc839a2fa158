package dag

// SerialSGS is the serial schedule generation scheme (Kelley 1963;
// Kolisch & Hartmann 1999; ALGORITHMS §6.2) on machines: n steps, each
// taking the eligible task (all predecessors scheduled) of smallest
// priority value (ties: lower index) and placing it at its earliest fit
// ≥ max predecessor end over all machines (ties: lowest machine). A task
// may go before tasks already placed, so schedules are active. It returns
// a *NoFitError when some task fits no machine. O(N·(log N + M·B·K)) for
// B breakpoints per machine.
func SerialSGS(d *DAG, machines [][]float64, prio []float64) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	return serialSGS(d, NewSpace(machines), prio), nil
}

// serialSGS runs the priority-driven SSGS on sp (assumed to fit).
func serialSGS(d *DAG, sp *Space, prio []float64) *Schedule {
	list := make([]int, 0, d.N())
	h := prioHeap{prio: prio}
	r := newReadiness(d)
	for v := 0; v < d.N(); v++ {
		if r.left[v] == 0 {
			h.push(v)
		}
	}
	for h.len() > 0 {
		v := h.pop()
		list = append(list, v)
		r.finish(v, h.push)
	}
	s := NewSchedule(d.N())
	serialList(d, sp, list, nil, forward, 0, s)
	return s
}

// serialList places the tasks of list in order on sp, in direction dir
// (see direction). Forward, each task goes at its earliest fit ≥ the
// latest end of its predecessors (which the list must place first; sources
// from 0); backward, at its latest fit ending ≤ the earliest start of its
// successors, or ≤ horizon for sinks. With fixed non-nil, task v stays on
// machine fixed[v]; otherwise every machine is tried. Results go to s.
// Barrier stages are read from the stage extremes, so a pass costs
// O(N + E') placements and edge visits.
func serialList(d *DAG, sp *Space, list []int, fixed []int, dir direction, horizon int64, s *Schedule) {
	serialListWith(d, sp, list, fixed, dir, horizon, s, newStageTimes(len(d.Stages)))
}

// serialListWith is serialList with the stage times st as scratch (reset
// here), for callers that run many passes.
func serialListWith(d *DAG, sp *Space, list []int, fixed []int, dir direction, horizon int64, s *Schedule,
	st *stageTimes) {
	st.reset()
	cv := dir.edges(d)
	near, stageNear := dir.near(s), dir.stageNear(st)
	home := int64(0) // the edge of a task with no neighbour behind
	if dir == backward {
		home = horizon
	}
	for _, v := range list {
		t := &d.Tasks[v]
		edge := home
		for _, p := range cv.xPreds(v) {
			edge = dir.further(edge, near[p])
		}
		for _, p := range cv.bPar[t.Stage] {
			edge = dir.further(edge, stageNear[p])
		}
		m, start := -1, int64(Never)
		switch {
		case fixed != nil && t.Duration == 0:
			// Zero-duration tasks occupy nothing: only precedence binds.
			m, start = fixed[v], edge
		case fixed != nil:
			m = fixed[v]
			var seg int
			start, seg = sp.fit(m, t.Demand, t.Duration, edge, dir.beyond(), dir)
			sp.placeAt(m, t.Demand, start, t.Duration, seg)
		default:
			m, start = sp.place(t.Demand, t.Duration, edge, dir)
		}
		if start == Never {
			panic("dag: internal: a task that fits a machine found no start")
		}
		s.Start[v], s.End[v], s.Machine[v] = start, start+t.Duration, m
		st.add(t.Stage, start, start+t.Duration)
	}
}
