package policies

import (
	"slices"

	"github.com/capplan/capplan/sim"
)

// preemption is the Capacity Scheduler's preemption [RECALLED: Hadoop
// Capacity Scheduler; SIMULATE.md §3.1]: a queue q with runnable work and
// a dominant share below its guarantee g_q = w_q/Σw (compared exactly)
// starts a clock; once it has waited `wait` seconds, the youngest running
// tasks (latest start; ties: higher job, then task) of queues above their
// guarantee are killed at once (grace 0), until q's next task fits some
// machine or no such task is left, and q's clock restarts. A timer wakes
// the policy when a clock expires.
type preemption struct {
	on      bool
	wait    float64 // seconds
	starved []sim.Tick
	victims []victim
}

type victim struct {
	t     sim.TaskRef
	user  sim.UserID
	start sim.Tick
}

// reclaim preempts for every starved queue and reports whether it killed.
func (pr *preemption) reclaim(s *sim.State, p *sim.Planner) bool {
	U := s.NumUsers()
	if len(pr.starved) < U {
		pr.starved = make([]sim.Tick, U)
		for i := range pr.starved {
			pr.starved[i] = -1
		}
	}
	var sumW int64
	for u := 0; u < U; u++ {
		sumW += s.User(sim.UserID(u)).Weight()
	}
	next := make([]sim.TaskRef, U) // each queue's next task, if any
	has := make([]bool, U)
	for _, j := range s.RunnableJobs() {
		u := s.Job(j).User()
		if has[u] {
			continue
		}
		for _, si := range s.Job(j).Groups() {
			next[u], has[u] = s.Group(sim.GroupRef{Job: j, Stage: si}).Head(), true
			break
		}
	}
	C := s.C()
	below := func(u sim.UserID) bool { return sim.ShareLess(s.User(u).Usage(), C, s.User(u).Weight(), sumW) }
	above := func(u sim.UserID) bool { return !sim.ShareAtMost(s.User(u).Usage(), C, s.User(u).Weight(), sumW) }
	wait := s.Ticks(pr.wait)
	killed := false
	for q := sim.UserID(0); int(q) < U; q++ {
		if !has[q] || !below(q) {
			pr.starved[q] = -1
			continue
		}
		if pr.starved[q] < 0 {
			pr.starved[q] = s.Now()
			if wait > 0 {
				p.WakeAt(s.Now() + wait)
				continue
			}
		}
		if s.Now()-pr.starved[q] < wait {
			continue
		}
		pr.starved[q] = s.Now()
		if wait > 0 {
			p.WakeAt(s.Now() + wait)
		}
		for _, v := range pr.youngest(s, above) {
			if s.FirstFit(next[q]) != sim.NoMachine {
				break
			}
			if !above(v.user) || s.Task(v.t).State() != sim.TaskRunning {
				continue
			}
			if p.Preempt(v.t, sim.Kill, 0, sim.NoUser) == nil {
				killed = true
			}
		}
	}
	if killed { // freed capacity may hold groups blocked earlier this Round
		for _, j := range s.RunnableJobs() {
			for _, si := range s.Job(j).Groups() {
				p.Unblock(sim.GroupRef{Job: j, Stage: si})
			}
		}
	}
	return killed
}

// youngest lists the running tasks of queues above their guarantee,
// youngest first.
func (pr *preemption) youngest(s *sim.State, above func(sim.UserID) bool) []victim {
	pr.victims = pr.victims[:0]
	for _, j := range s.ActiveJobs() {
		jv := s.Job(j)
		if jv.Running() == 0 || !above(jv.User()) {
			continue
		}
		for i := int32(0); i < int32(jv.NumTasks()); i++ {
			if tv := jv.Task(i); tv.State() == sim.TaskRunning {
				pr.victims = append(pr.victims, victim{t: tv.Ref(), user: jv.User(), start: tv.Start()})
			}
		}
	}
	slices.SortFunc(pr.victims, func(a, b victim) int {
		switch {
		case a.start != b.start:
			return int(b.start - a.start)
		case a.t.Job != b.t.Job:
			return int(b.t.Job - a.t.Job)
		}
		return int(b.t.Task - a.t.Task)
	})
	return pr.victims
}
