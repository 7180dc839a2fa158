package sim

// JobView is a read-only view of an active job.
type JobView struct {
	s *engine
	j *jobRT
}

func (v JobView) ID() JobID             { return v.j.id }
func (v JobView) Name() string          { return v.j.spec.Name }
func (v JobView) User() UserID          { return v.j.spec.User }
func (v JobView) Weight() int64         { return v.s.users[v.j.spec.User].weight }
func (v JobView) Arrival() Tick         { return v.j.spec.Arrival }
func (v JobView) NumTasks() int         { return len(v.j.tasks) }
func (v JobView) NumStages() int        { return len(v.j.st) }
func (v JobView) Running() int          { return int(v.j.running) }
func (v JobView) Runnable() int         { return int(v.j.pending) }
func (v JobView) Unfinished() int       { return int(v.j.left) }
func (v JobView) Eligible() *ClassSet   { return v.j.elig }
func (v JobView) Links() []Link         { return v.j.spec.Links }
func (v JobView) Edges() []Edge         { return v.j.spec.Edges }
func (v JobView) Task(i int32) TaskView { return TaskView{v.s, v.j, i} }

// Start returns the time the job's first task started, or −1.
func (v JobView) Start() Tick { return v.j.start }

// Groups returns the stages with runnable tasks in intra order: by their
// head's key, then stage. Do not modify.
func (v JobView) Groups() []int32 { return v.j.groups }

// Stage returns a view of stage s.
func (v JobView) Stage(s int32) StageView { return StageView{v.s, v.j, s} }

// StageOf returns the stage of task i.
func (v JobView) StageOf(i int32) int32 { return v.j.g.stageOf[i] }

// Usage returns what the job's running tasks are charged. Do not modify.
func (v JobView) Usage() Vec { return v.j.usage }

// CPL returns cpl(j): the critical path of the estimates at arrival.
func (v JobView) CPL() Tick { return v.j.cpl }

// SRPT returns Graphene's srpt(j): Σ over unstarted tasks of d̂·NormSum(r̂)
// (SIMULATE.md §3.0; suspended tasks count their estimated remainder).
func (v JobView) SRPT() float64 { return v.j.pendingWork }

// Work returns work(j) = Σ_pending d̂·NormSum(r̂) + Σ_running
// rem̂·NormSum(r̂), with rem̂ = max(1, d̂ − done): Carbyne's SRTF key
// (SIMULATE.md §3.0). Units: NormSum·ticks.
func (v JobView) Work() float64 {
	j := v.j
	return j.pendingWork + j.runEnd - float64(v.s.now-j.base)*j.runNS + j.overdueNS
}

// Rank returns task i's preferred-order rank (Job.Rank), or i without one.
func (v JobView) Rank(i int32) int32 {
	if v.j.spec.Rank == nil {
		return i
	}
	return v.j.spec.Rank[i]
}

// Spec returns the job as submitted: its stages, links, edges, estimated
// durations and demands (never actual durations, which the core draws
// itself). Do not modify.
func (v JobView) Spec() *Job { return &v.j.spec }

// Version changes whenever one of the job's tasks becomes runnable,
// starts, ends or is requeued: a key for memoising per-job work.
func (v JobView) Version() uint64 { return v.j.version }

// Kills returns how many of the job's runs were killed.
func (v JobView) Kills() int { return int(v.j.kills) }

// TaskView is a read-only view of one task of an active job.
type TaskView struct {
	s *engine
	j *jobRT
	v int32
}

func (t TaskView) Ref() TaskRef     { return TaskRef{t.j.id, t.v} }
func (t TaskView) Stage() int32     { return t.j.tasks[t.v].stage }
func (t TaskView) State() TaskState { return t.s.stateOf(t.j, t.v) }
func (t TaskView) Machine() MachineID {
	if !t.s.running(t.j, t.v) {
		return NoMachine
	}
	return t.j.tasks[t.v].machine
}
func (t TaskView) Key() int64          { return t.j.tasks[t.v].key }
func (t TaskView) Eligible() *ClassSet { return t.j.st[t.j.tasks[t.v].stage].elig }

// Est returns the estimated duration d̂.
func (t TaskView) Est() Tick { return t.j.tasks[t.v].est }

// Demand returns the estimated demand r̂. Do not modify.
func (t TaskView) Demand() Vec { return t.j.demand(t.v) }

// NormSum returns NormSum(r̂) = Σ_d r̂_d/C_d.
func (t TaskView) NormSum() float64 { return t.s.taskNS(t.j, t.v) }

// Start returns the start of the current or last run (meaningless before
// the first).
func (t TaskView) Start() Tick { return t.j.tasks[t.v].start }

// Ran returns the time run in earlier runs whose progress was kept
// (suspensions).
func (t TaskView) Ran() Tick { return t.j.tasks[t.v].ran }

// EstRemaining returns rem̂ = max(1, d̂ − done) (SIMULATE.md §2.1).
func (t TaskView) EstRemaining() Tick {
	return t.j.tasks[t.v].estRemaining(t.s.now, t.s.running(t.j, t.v))
}

// StageView is a read-only view of one stage of an active job.
type StageView struct {
	s  *engine
	j  *jobRT
	si int32
}

func (v StageView) Name() string              { return v.j.spec.Stages[v.si].Name }
func (v StageView) Tasks() int32              { return v.j.spec.Stages[v.si].Tasks }
func (v StageView) Unfinished() int32         { return v.j.st[v.si].left }
func (v StageView) Running() int32            { return v.j.st[v.si].running }
func (v StageView) Runnable() int             { return len(v.j.runnable(v.si)) }
func (v StageView) Eligible() *ClassSet       { return v.j.st[v.si].elig }
func (v StageView) BarrierParents() []int32   { return v.j.g.bPar[v.si] }
func (v StageView) BarrierChildren() []int32  { return v.j.g.bChild[v.si] }
func (v StageView) OneToOneParents() []int32  { return v.j.g.oPar[v.si] }
func (v StageView) OneToOneChildren() []int32 { return v.j.g.oChild[v.si] }

// FirstTask returns the index of the stage's first task; its tasks are
// FirstTask() … FirstTask()+Tasks()−1.
func (v StageView) FirstTask() int32 { return v.j.g.first[v.si] }

// GroupView is a read-only view of a runnable group: the runnable tasks
// of one stage, a FIFO in intra order.
type GroupView struct {
	s  *engine
	j  *jobRT
	si int32
}

func (g GroupView) Ref() GroupRef       { return GroupRef{g.j.id, g.si} }
func (g GroupView) Len() int            { return len(g.j.runnable(g.si)) }
func (g GroupView) Eligible() *ClassSet { return g.j.st[g.si].elig }

// Head returns the group's representative: its first task in intra order.
// The group must not be empty.
func (g GroupView) Head() TaskRef { return TaskRef{g.j.id, g.j.head(g.si)} }

// HeadDemand returns the head's demand. Do not modify.
func (g GroupView) HeadDemand() Vec { return g.j.demand(g.j.head(g.si)) }

// Tasks returns the runnable tasks of the group in intra order (the first
// is the head). Do not modify.
func (g GroupView) Tasks() []int32 { return g.j.runnable(g.si) }
