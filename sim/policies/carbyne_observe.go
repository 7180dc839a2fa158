package policies

import "github.com/capplan/capplan/sim"

// Carbyne follows each job's tasks through the Observer calls, so that a
// pack reads its stages' pending and running counts and estimate sums in
// O(stages) instead of scanning the tasks.

var _ sim.Observer = (*carbyne)(nil)

// JobArrived sets up job j's stages: each task's demand (the stage's, or
// the mean of its tasks' rounded up) and the pending counts and sums.
func (c *carbyne) JobArrived(s *sim.State, j sim.JobID) {
	for int(j) >= len(c.jobs) {
		c.jobs = append(c.jobs, nil)
	}
	jv := s.Job(j)
	spec := jv.Spec()
	n := jv.NumTasks()
	cj := &cJob{st: make([]cStage, len(spec.Stages)), packable: len(spec.Edges) == 0, wf: -1,
		runEnd: make([]sim.Tick, n), pendVal: make([]sim.Tick, n),
		mustLeft: make([]int64, len(spec.Stages))}
	v := 0
	for si := range spec.Stages {
		st := &spec.Stages[si]
		cs := &cj.st[si]
		cs.r = st.Demand
		if st.Demands != nil {
			cs.r = make(sim.Vec, len(s.C()))
			for _, dem := range st.Demands {
				for d, x := range dem {
					cs.r[d] += x
				}
			}
			k := int64(st.Tasks)
			for d := range cs.r {
				cs.r[d] = (cs.r[d] + k - 1) / k
			}
		}
		for i := 0; i < int(st.Tasks); i++ {
			if e := st.TaskDuration(i); e > 0 {
				cs.pendN++
				cs.pendSum += int64(e)
				cj.pendVal[v] = e
			}
			v++
		}
	}
	c.jobs[j] = cj
}

// JobFinished drops job j's state.
func (c *carbyne) JobFinished(_ *sim.State, j sim.JobID) { c.jobs[j] = nil }

// TaskStarted moves task t from its stage's pending sums to its running
// ones, with its estimated end now + rem̂.
func (c *carbyne) TaskStarted(s *sim.State, t sim.TaskRef, _ sim.MachineID) {
	cj := c.jobs[t.Job]
	tv := s.Task(t)
	cs := &cj.st[tv.Stage()]
	cs.pendN--
	cs.pendSum -= int64(cj.pendVal[t.Task])
	if cj.plan.valid {
		cj.plan.started[tv.Stage()]++
	}
	end := s.Now() + tv.EstRemaining()
	cj.runEnd[t.Task] = end
	cs.runN++
	cs.runEndSum += int64(end)
}

// TaskEnded removes task t from its stage's running sums; a task that
// runs again (killed: from scratch; suspended or migrated: its remaining
// estimate) goes back to the pending ones.
func (c *carbyne) TaskEnded(s *sim.State, t sim.TaskRef, _ sim.MachineID, k sim.EndKind) {
	cj := c.jobs[t.Job]
	if cj == nil {
		return
	}
	tv := s.Task(t)
	cs := &cj.st[tv.Stage()]
	cs.runN--
	cs.runEndSum -= int64(cj.runEnd[t.Task])
	if k == sim.EndFinished {
		return
	}
	e := tv.Est()
	if k != sim.EndKilled {
		e = tv.EstRemaining()
	}
	cj.pendVal[t.Task] = e
	if cj.plan.valid {
		cj.plan.started[tv.Stage()]-- // pending again: due at once if its start had passed
	}
	cs.pendN++
	cs.pendSum += int64(e)
}
