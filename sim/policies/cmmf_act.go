package policies

import (
	"slices"

	"github.com/capplan/capplan/sim"
)

// runningTask is a running task of a comparator's user, where and since
// when it runs.
type runningTask struct {
	t     sim.TaskRef
	class sim.ClassID
	start sim.Tick
}

// runningByUser lists each problem user's running tasks, latest-started
// first (ties: higher job, then higher task).
func (v *cmmfView) runningByUser(s *sim.State) [][]runningTask {
	out := make([][]runningTask, len(v.users))
	for mi := 0; mi < s.NumMachines(); mi++ {
		m := sim.MachineID(mi)
		for _, t := range s.RunningOn(m) {
			if i := v.index[s.Job(t.Job).User()]; i >= 0 {
				out[i] = append(out[i], runningTask{t: t, class: s.ClassOf(m), start: s.Task(t).Start()})
			}
		}
	}
	for _, rs := range out {
		slices.SortFunc(rs, func(a, b runningTask) int {
			switch {
			case a.start != b.start:
				return int(b.start - a.start)
			case a.t.Job != b.t.Job:
				return int(b.t.Job - a.t.Job)
			}
			return int(b.t.Task - a.t.Task)
		})
	}
	return out
}

// migrateTo realises the targets by migration: each user's latest-started
// tasks on types above its target move to its types below target while a
// slot is free there (repeated until nothing moves: a move frees a slot
// another may need); then new tasks fill what is left of the targets, at
// most the user's total growth.
func (c *cmmf) migrateTo(s *sim.State, p *sim.Planner, target [][]int64) {
	v := &c.v
	tasks := v.runningByUser(s)
	for moved := true; moved; {
		moved = false
		for i := range v.users {
			for k := range tasks[i] {
				r := &tasks[i][k]
				if r.class < 0 || v.on[i][r.class] <= target[i][r.class] {
					continue
				}
				dem := s.Task(r.t).Demand()
				for _, cl := range v.elig[i] {
					if v.on[i][cl] >= target[i][cl] || !s.Eligible(r.t).Has(sim.ClassID(cl)) {
						continue
					}
					m := s.Index().FirstFit(sim.ClassID(cl), dem)
					if m == sim.NoMachine || p.Migrate(r.t, m) != nil {
						continue
					}
					v.on[i][r.class]--
					v.on[i][cl]++
					r.class = -1 // moved once this Round
					moved = true
					break
				}
			}
		}
	}
	c.fillTargets(s, p, target, false)
}

// preemptTo realises the targets by preemption: each user's latest-started
// tasks on types above its target are suspended, then suspended tasks
// resume, and new tasks start, where it is below target.
func (c *cmmf) preemptTo(s *sim.State, p *sim.Planner, target [][]int64) {
	v := &c.v
	tasks := v.runningByUser(s)
	for i := range v.users {
		for _, r := range tasks[i] {
			if v.on[i][r.class] > target[i][r.class] && p.Suspend(r.t) == nil {
				v.on[i][r.class]--
			}
		}
	}
	c.fillTargets(s, p, target, true)
}

// fillTargets places runnable tasks where users are below target, at most
// each user's CMMF total minus what it runs.
func (c *cmmf) fillTargets(s *sim.State, p *sim.Planner, target [][]int64, resumeFirst bool) {
	v := &c.v
	for i, u := range v.users {
		var running, want int64
		for _, cl := range v.elig[i] {
			running += v.on[i][cl]
			want += target[i][cl]
		}
		grow := want - running
		for _, cl := range v.elig[i] {
			if grow <= 0 {
				break
			}
			if d := min(target[i][cl]-v.on[i][cl], grow); d > 0 {
				grow -= placeOn(s, p, u, sim.ClassID(cl), d, resumeFirst)
			}
		}
	}
}

// placeOn places up to n runnable tasks of user u on machines of class cl
// (first fit), jobs in arrival order and groups in intra order, and
// returns how many it placed. With resumeFirst, tasks with kept progress
// (suspended) go before fresh ones of the same group.
func placeOn(s *sim.State, p *sim.Planner, u sim.UserID, cl sim.ClassID, n int64, resumeFirst bool) int64 {
	var placed int64
	for placed < n {
		t, ok := nextOn(s, u, cl, resumeFirst)
		if !ok {
			break
		}
		m := s.Index().FirstFit(cl, s.Task(t).Demand())
		if m == sim.NoMachine || p.Place(t, m) != nil {
			break
		}
		placed++
	}
	return placed
}

// nextOn returns user u's next runnable task that class cl admits.
func nextOn(s *sim.State, u sim.UserID, cl sim.ClassID, resumeFirst bool) (sim.TaskRef, bool) {
	for _, j := range s.RunnableJobs() {
		jv := s.Job(j)
		if jv.User() != u || !jv.Eligible().Has(cl) {
			continue
		}
		for _, si := range jv.Groups() {
			if !jv.Stage(si).Eligible().Has(cl) {
				continue
			}
			g := s.Group(sim.GroupRef{Job: j, Stage: si})
			if resumeFirst {
				for _, k := range g.Tasks() {
					if jv.Task(k).Ran() > 0 {
						return sim.TaskRef{Job: j, Task: k}, true
					}
				}
			}
			return g.Head(), true
		}
	}
	return sim.TaskRef{}, false
}

// fillLeftover places, by weighted progressive filling, any runnable task
// that still fits after the CMMF allocation was realised (a task the
// user-level eligibility admitted but its own stage does not, or a move
// left undone): the comparators stay work-conserving.
func fillLeftover(s *sim.State, p *sim.Planner) {
	f := fairFill{place: Placement{Rule: PlaceFirst, K: DefaultK}}
	f.round(s, p)
}
