package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// State is the read-only view a policy gets (SIMULATE.md §1.6). It shows
// estimates only: estimated durations and remaining times, never actual
// durations. Slices it returns are views of the live state: do not modify
// them, and copy them before calling the Planner when iterating (a Place
// changes RunnableJobs, a group's tasks, a machine's free vector).
type State struct{ s *engine }

// Now returns the current time.
func (st *State) Now() Tick { return st.s.now }

// TickSeconds returns the length of a tick in seconds.
func (st *State) TickSeconds() float64 {
	if st.s.cfg.TickSeconds > 0 {
		return st.s.cfg.TickSeconds
	}
	return 1
}

// Ticks converts seconds to ticks, rounding up (at least 0).
func (st *State) Ticks(seconds float64) Tick {
	return Tick(math.Ceil(max(0, seconds)/st.TickSeconds() - tickTol))
}

// tickTol absorbs float rounding when seconds convert to whole ticks.
const tickTol = 1e-9

// DAGConversion returns the conversion between the dag model and this
// run's jobs (resources, quanta, tick), for policies that run offline
// builders on a job's estimates (DAGConversion.DAG of JobView.Spec).
func (st *State) DAGConversion() *DAGConversion {
	cl := st.s.cl
	q := make(Quanta, len(cl.Resources))
	for d := range q {
		q[d] = 1000 // one base unit when the cluster records no quanta
		if cl.Quanta != nil {
			q[d] = int64(math.Round(cl.Quanta[d] * 1000))
		}
	}
	return &DAGConversion{Resources: cl.Resources, Quanta: q, TickSeconds: st.TickSeconds()}
}

// C returns the cluster's total capacity (in container mode, of its
// nodes).
func (st *State) C() Vec { return st.s.total }

// Resources names the dimensions.
func (st *State) Resources() []string { return st.s.cl.Resources }

// NumMachines returns the number of machines (containers in container
// mode).
func (st *State) NumMachines() int { return len(st.s.cl.Machines) }

// Machine returns a view of machine m.
func (st *State) Machine(m MachineID) MachineView { return MachineView{st.s, m} }

// Classes returns the machine classes. Do not modify.
func (st *State) Classes() []Class { return st.s.classes }

// ClassOf returns machine m's class.
func (st *State) ClassOf(m MachineID) ClassID { return st.s.classOf[m] }

// Index returns the free-capacity index.
func (st *State) Index() *FreeIndex { return st.s.index }

// Dirty returns, in id order, the machines whose free capacity grew since
// the last Round (and, appended, those freed during this one).
func (st *State) Dirty() []MachineID { return st.s.dirty }

// NewRunnable returns the groups that gained runnable tasks since the last
// Round (arrivals, releases, kills, suspensions), in event order.
func (st *State) NewRunnable() []GroupRef { return st.s.newGroups }

// ActiveJobs returns the arrived, unfinished jobs in ordinal order.
func (st *State) ActiveJobs() []JobID { return st.s.active }

// RunnableJobs returns the jobs with runnable tasks in ordinal order.
func (st *State) RunnableJobs() []JobID { return st.s.runnable }

// Job returns a view of active job j. It panics if j is not active.
func (st *State) Job(j JobID) JobView {
	if j < 0 || int(j) >= len(st.s.jobs) || st.s.jobs[j] == nil {
		panic(fmt.Sprintf("sim: job %d is not active", j))
	}
	return JobView{st.s, st.s.jobs[j]}
}

// IsActive reports whether job j has arrived and not finished.
func (st *State) IsActive(j JobID) bool {
	return j >= 0 && int(j) < len(st.s.jobs) && st.s.jobs[j] != nil
}

// Task returns a view of task t of an active job.
func (st *State) Task(t TaskRef) TaskView { return st.Job(t.Job).Task(t.Task) }

// Group returns a view of the runnable group g of an active job.
func (st *State) Group(g GroupRef) GroupView { return GroupView{st.s, st.Job(g.Job).j, g.Stage} }

// Eligible returns the classes task t may run on.
func (st *State) Eligible(t TaskRef) *ClassSet {
	j := st.Job(t.Job).j
	return j.st[j.tasks[t.Task].stage].elig
}

// Fits reports whether task t may run on machine m now: m is eligible,
// not reserved for another user, and has room and a slot for t.
func (st *State) Fits(t TaskRef, m MachineID) bool {
	j := st.Job(t.Job).j
	s := st.s
	if !j.st[j.tasks[t.Task].stage].elig.Has(s.classOf[m]) || s.mach[m].slots < 1 {
		return false
	}
	if r := s.mach[m].reserved; r != NoUser && r != j.user {
		return false
	}
	dem := j.demand(t.Task)
	return s.machineFree(m).Dominates(dem) && (s.dev == nil || s.dev.fits(m, dem))
}

// FirstFit returns the first machine, in (class, id) order over t's
// eligible classes, with room for t now; NoMachine when none. Reserved
// machines are not considered.
func (st *State) FirstFit(t TaskRef) MachineID {
	j := st.Job(t.Job).j
	dem := j.demand(t.Task)
	x := st.s.index
	if dev := st.s.dev; dev != nil { // the first whose devices hold it
		found := NoMachine
		st.ForEachFit(t, func(m MachineID) bool {
			found = m
			return false
		})
		return found
	}
	for _, c := range j.st[j.tasks[t.Task].stage].elig.List() {
		if m := x.FirstFit(c, dem); m != NoMachine {
			return m
		}
	}
	return NoMachine
}

// ForEachFit calls fn for every visible machine with room for t now, in
// (class, id) order, until fn returns false.
func (st *State) ForEachFit(t TaskRef, fn func(MachineID) bool) {
	j := st.Job(t.Job).j
	dem := j.demand(t.Task)
	if dev := st.s.dev; dev != nil {
		inner := fn
		fn = func(m MachineID) bool { return !dev.fits(m, dem) || inner(m) }
	}
	for _, c := range j.st[j.tasks[t.Task].stage].elig.List() {
		if !st.s.index.ForEachFit(c, dem, fn) {
			return
		}
	}
}

// NumUsers returns the number of users.
func (st *State) NumUsers() int { return len(st.s.users) }

// User returns a view of user u.
func (st *State) User(u UserID) UserView { return UserView{st.s, u} }

// Rand returns the run's policy random stream (seeded from Config.Seed).
func (st *State) Rand() *rand.Rand { return st.s.rng }

// Blocked reports whether the policy blocked group g in this Round.
func (st *State) Blocked(g GroupRef) bool {
	return st.s.jobs[g.Job].st[g.Stage].blockStamp == st.s.round
}

// ContainerMode reports whether machines are containers of Nodes.
func (st *State) ContainerMode() bool { return st.s.cl.Nodes != nil }

// Nodes returns the physical nodes in container mode (nil otherwise).
func (st *State) Nodes() []Node { return st.s.cl.Nodes }

// NormSum returns Σ_d r_d/C_d, summed in dimension order.
func (st *State) NormSum(r Vec) float64 { return st.s.normSum(r) }

// Dom returns the dominant share max_d r_d/C_d (as a float, for scores;
// compare shares exactly with CompareShares).
func (st *State) Dom(r Vec) float64 {
	var x float64
	for d, v := range r {
		x = max(x, float64(v)*st.s.invC[d])
	}
	return x
}

// RunningOn returns the tasks running on machine m, in no particular
// order. Do not modify.
func (st *State) RunningOn(m MachineID) []TaskRef { return st.s.mach[m].on }

// MachineView is a read-only view of one machine.
type MachineView struct {
	s  *engine
	id MachineID
}

func (m MachineView) ID() MachineID             { return m.id }
func (m MachineView) Name() string              { return m.s.cl.Machines[m.id].Name }
func (m MachineView) Class() ClassID            { return m.s.classOf[m.id] }
func (m MachineView) Cap() Vec                  { return m.s.cl.Machines[m.id].Cap }
func (m MachineView) Labels() map[string]string { return m.s.cl.Machines[m.id].Labels }
func (m MachineView) Running() int              { return int(len(m.s.mach[m.id].on)) }
func (m MachineView) Node() int32               { return m.s.cl.Machines[m.id].Node }
func (m MachineView) Owner() UserID             { return m.s.cl.Machines[m.id].Owner }
func (m MachineView) ReservedFor() UserID       { return m.s.mach[m.id].reserved }
func (m MachineView) FreeSlots() int64          { return m.s.mach[m.id].slots }

// Free returns the free capacity: the fit limit (capacity × overbook)
// minus the demand of the running tasks. Do not modify.
func (m MachineView) Free() Vec { return m.s.machineFree(m.id) }

// UserView is a read-only view of one user.
type UserView struct {
	s  *engine
	id UserID
}

func (u UserView) ID() UserID          { return u.id }
func (u UserView) Name() string        { return u.s.cfg.Users[u.id].Name }
func (u UserView) Weight() int64       { return u.s.users[u.id].weight }
func (u UserView) Eligible() *ClassSet { return u.s.users[u.id].elig }
func (u UserView) ActiveJobs() int     { return int(u.s.users[u.id].activeJobs) }
func (u UserView) Running() int        { return int(u.s.users[u.id].running) }
func (u UserView) Sharing() Sharing    { return u.s.cfg.Users[u.id].Sharing }

// Usage returns what the user's running tasks are charged. Do not modify.
func (u UserView) Usage() Vec { return u.s.users[u.id].usage }
