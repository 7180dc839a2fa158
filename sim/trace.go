package sim

// Trace is an Observer that records task runs: the harness tests use to
// state by hand what a policy must do, and the source of Gantt charts.
// Jobs, when non-nil, limits it to the jobs it reports true for.
type Trace struct {
	NopObserver
	Jobs func(name string) bool
	// Runs are in start order; End is −1 while a run is open, Kind how it
	// ended.
	Runs []TaskRun
	open map[TaskRef]int
}

// TaskRun is one run of a task on a machine.
type TaskRun struct {
	Job        string
	JobID      JobID
	Task       int32
	Stage      int32
	Machine    MachineID
	Start, End Tick
	Kind       EndKind
}

// TaskStarted implements Observer.
func (tr *Trace) TaskStarted(s *State, t TaskRef, m MachineID) {
	jv := s.Job(t.Job)
	if tr.Jobs != nil && !tr.Jobs(jv.Name()) {
		return
	}
	if tr.open == nil {
		tr.open = map[TaskRef]int{}
	}
	tr.open[t] = len(tr.Runs)
	tr.Runs = append(tr.Runs, TaskRun{Job: jv.Name(), JobID: t.Job, Task: t.Task, Stage: jv.StageOf(t.Task), Machine: m, Start: s.Now(), End: -1})
}

// TaskEnded implements Observer.
func (tr *Trace) TaskEnded(s *State, t TaskRef, _ MachineID, k EndKind) {
	i, ok := tr.open[t]
	if !ok {
		return
	}
	delete(tr.open, t)
	tr.Runs[i].End, tr.Runs[i].Kind = s.Now(), k
}
