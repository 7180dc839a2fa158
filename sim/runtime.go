package sim

import "slices"

// TaskState is where a task is in its life.
type TaskState uint8

const (
	// TaskWaiting: some predecessor has not finished.
	TaskWaiting TaskState = iota
	// TaskRunnable: every predecessor finished; the task waits in its
	// group (a killed or suspended task is runnable again).
	TaskRunnable
	// TaskRunning: the task holds its machine.
	TaskRunning
	// TaskFinished: the task completed.
	TaskFinished
)

var taskStateNames = []string{"waiting", "runnable", "running", "finished"}

func (s TaskState) String() string { return taskStateNames[s] }

// flagOverdue marks a running task past its estimated end: its estimated
// remaining time is clipped at 1 tick (SIMULATE.md §2.1).
const flagOverdue uint8 = 1

// taskRT is the run-time state of one task: 64 bytes, so that a task is
// one cache line (every Go size class of a multiple of 64 bytes is
// 64-aligned).
//
// A finish event neither reads nor writes it: the run's record (runRT)
// holds what ending the run needs, and a task whose state says running is
// running only while its record still holds its run (engine.running);
// otherwise it finished. A run that ends early (kill, suspension) writes
// the task as before.
type taskRT struct {
	est, act Tick // estimated and actual duration
	start    Tick // start of the current (or last) run
	ran      Tick // time run in earlier, suspended runs (progress kept)
	key      int64
	stage    int32
	machine  MachineID // while running
	ver      uint32    // bumped when a run ends early: stale events are dropped
	run      int32     // its record in engine.runs while running
	state    TaskState // TaskRunning also after its run finished: see engine.stateOf
	_        [7]byte   // to 64 bytes
}

// estRemaining returns the task's estimated remaining time
// max(1, d̂ − done) at now (SIMULATE.md §2.1), running telling whether its
// run is on.
func (t *taskRT) estRemaining(now Tick, running bool) Tick {
	done := t.ran
	if running {
		done += now - t.start
	}
	return max(1, t.est-done)
}

// estEnd returns the estimated end of a running task's current run.
func (t *taskRT) estEnd() Tick { return t.start + max(1, t.est-t.ran) }

// runRT is the record of one running task in a dense table (engine.runs)
// indexed by the slot its finish and kill events carry: what ending the
// run needs, in 32 bytes, so that a finish event reads this small table
// instead of the task's line among all live tasks' (a finish event then
// touches the task not at all). A free record has job −1.
type runRT struct {
	job     JobID
	task    int32
	machine MachineID
	ver     uint32
	stage   int32
	flags   uint8 // flagOverdue
	estEnd  Tick  // start + max(1, est − ran): fixed for the run
}

// stageRT is the run-time state of one stage: its runnable group, and
// what a task's start or end needs of the stage (demand, counters, the
// stage's links), in one place.
type stageRT struct {
	// q[qh:] are the runnable tasks sorted by (key, index): a FIFO in
	// intra order. Tasks usually become runnable in that order (a stage
	// released whole, in index order), so a push is an append and taking
	// the head moves qh; an out-of-order push inserts by binary search.
	q          []int32
	qh         int
	running    int32
	left       int32   // unfinished tasks
	first      int32   // the stage's first task
	newStamp   uint32  // round in which the group was listed as new
	blockStamp uint32  // round in which the policy blocked the group
	ns         float64 // NormSum of the shared demand (per-task demands: computed on use)
	dem        Vec     // the stage's shared demand (Stage.Demand), when dems is nil
	dems       []Vec   // per-task demands (Stage.Demands), or nil
	// oChild and bChild are the structure's one-to-one and barrier
	// children of the stage.
	oChild, bChild []int32
	elig           *ClassSet
}

// jobRT is the run-time state of one active job. It is dropped when the
// job finishes, so memory is O(live tasks). The fields a task's start or
// end reads come first, in a few cache lines; the job as submitted last.
type jobRT struct {
	id                                JobID
	user                              UserID // spec.User
	running, left, pending, unstarted int32
	edges                             bool // the job has explicit task edges
	tasks                             []taskRT
	st                                []stageRT
	g                                 *structure
	// taskLeft counts each task's unfinished predecessors the compact way
	// (structure.inDegree); stageRT.left each stage's unfinished tasks.
	taskLeft []int32
	usage    Vec
	// Estimated work (SIMULATE.md §3.0), in NormSum·ticks: of pending
	// tasks (srpt), and of running ones as Σ ns·(estEnd − base) and Σ ns,
	// so that Σ ns·(estEnd − now) = runEnd − (now − base)·runNS; overdue
	// running tasks count ns each.
	pendingWork, runEnd, runNS, overdueNS float64
	base                                  Tick
	// version counts the job's task state changes (runnable, started,
	// ended), for policies that memoise per-job computations.
	version uint64
	// groups are the stages with runnable tasks, by (head key, stage).
	groups []int32
	elig   *ClassSet

	cpl   Tick // critical path of the estimates
	lb    Tick // max(critical path, TWork) of the actual values
	start Tick // first task start, −1 before

	kills, suspends, migrations int32
	wasted                      Tick    // task-ticks lost to kills
	wastedWork                  float64 // Σ lost ticks · NormSum(demand)

	usageBuf [4]int64 // usage's storage when there are at most 4 resources
	spec     Job
}

// demand returns the demand of task v. Do not modify.
func (j *jobRT) demand(v int32) Vec {
	s := j.tasks[v].stage
	st := &j.st[s]
	if st.dems != nil {
		return st.dems[v-st.first]
	}
	return st.dem
}

// taskLess orders runnable tasks of a group by (key, index).
func (j *jobRT) taskLess(a, b int32) bool {
	ka, kb := j.tasks[a].key, j.tasks[b].key
	return ka < kb || ka == kb && a < b
}

// runnable returns stage s's runnable tasks in intra order.
func (j *jobRT) runnable(s int32) []int32 {
	st := &j.st[s]
	return st.q[st.qh:]
}

// head returns stage s's first runnable task; there must be one.
func (j *jobRT) head(s int32) int32 {
	st := &j.st[s]
	return st.q[st.qh]
}

// groupLess orders runnable groups of a job by (head key, stage).
func (j *jobRT) groupLess(s1, s2 int32) bool {
	k1, k2 := j.tasks[j.head(s1)].key, j.tasks[j.head(s2)].key
	return k1 < k2 || k1 == k2 && s1 < s2
}

// qPush adds runnable task v to its stage's queue.
func (j *jobRT) qPush(v int32) {
	si := j.tasks[v].stage
	st := &j.st[si]
	if st.q == nil { // room for the whole stage: no regrowth
		st.q = make([]int32, 0, j.g.first[si+1]-j.g.first[si])
	}
	if n := len(st.q); n == st.qh || !j.taskLess(v, st.q[n-1]) {
		st.q = append(st.q, v)
		return
	}
	i := st.qh + j.qSearch(st.q[st.qh:], v)
	st.q = append(st.q, 0)
	copy(st.q[i+1:], st.q[i:])
	st.q[i] = v
}

// qPushRun adds runnable tasks vs, all of stage si, to its queue: one
// sort for a stage released at once instead of an insertion per task
// (under IntraCP a released stage is in no particular key order).
func (j *jobRT) qPushRun(si int32, vs []TaskRef) {
	st := &j.st[si]
	if st.q == nil {
		st.q = make([]int32, 0, j.g.first[si+1]-j.g.first[si])
	}
	sorted := true
	for _, r := range vs {
		if n := len(st.q); n > st.qh && j.taskLess(r.Task, st.q[n-1]) {
			sorted = false
		}
		st.q = append(st.q, r.Task)
	}
	if !sorted {
		slices.SortFunc(st.q[st.qh:], func(a, b int32) int {
			if j.taskLess(a, b) {
				return -1
			}
			return 1 // tasks are distinct: never equal
		})
	}
}

// qSearch returns the position of the first task of q not before v.
func (j *jobRT) qSearch(q []int32, v int32) int {
	lo, hi := 0, len(q)
	for lo < hi {
		m := (lo + hi) / 2
		if j.taskLess(q[m], v) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// qRemove removes runnable task v from its stage's queue.
func (j *jobRT) qRemove(v int32) {
	st := &j.st[j.tasks[v].stage]
	if st.q[st.qh] == v {
		st.qh++
	} else {
		i := st.qh + j.qSearch(st.q[st.qh:], v)
		copy(st.q[i:], st.q[i+1:])
		st.q = st.q[:len(st.q)-1]
	}
	switch {
	case st.qh == len(st.q):
		st.q, st.qh = st.q[:0], 0
	case st.qh > 64 && st.qh > len(st.q)/2: // reclaim the consumed prefix
		n := copy(st.q, st.q[st.qh:])
		st.q, st.qh = st.q[:n], 0
	}
}

// groupInsert puts stage s into the job's group list at its place.
func (j *jobRT) groupInsert(s int32) {
	i := len(j.groups)
	j.groups = append(j.groups, s)
	for i > 0 && j.groupLess(s, j.groups[i-1]) {
		j.groups[i] = j.groups[i-1]
		i--
	}
	j.groups[i] = s
}

// groupRemove drops stage s from the job's group list.
func (j *jobRT) groupRemove(s int32) {
	for i, x := range j.groups {
		if x == s {
			copy(j.groups[i:], j.groups[i+1:])
			j.groups = j.groups[:len(j.groups)-1]
			return
		}
	}
}

// groupFix moves stage s to its place after its head changed.
func (j *jobRT) groupFix(s int32) {
	j.groupRemove(s)
	j.groupInsert(s)
}
