package sim

import (
	"errors"
	"fmt"

	"github.com/capplan/capplan/binpack"
)

// Planner is how a policy acts (SIMULATE.md §1.6). Its calls take effect
// at once, so a Round sees its own decisions; only future effects become
// events. It refuses what is not allowed with a *PlanError; under
// Config.Check a refusal is a policy bug and panics.
type Planner struct{ s *engine }

// Reasons a Planner call is refused (wrapped by *PlanError).
var (
	ErrUnknown     = errors.New("sim: no such active job, task or machine")
	ErrNotRunnable = errors.New("sim: task is not runnable")
	ErrNotRunning  = errors.New("sim: task is not running")
	ErrIneligible  = errors.New("sim: the task's constraints do not admit the machine")
	ErrReserved    = errors.New("sim: the machine is reserved for another user")
	ErrNoFit       = errors.New("sim: the task does not fit the machine's free capacity")
)

// PlanError is a refused Planner call.
type PlanError struct {
	Op      string // "place", "preempt", "suspend", "migrate"
	Task    TaskRef
	Machine MachineID
	// Err is one of the Err… reasons above.
	Err error
	// Shortfalls, for ErrNoFit, lists each short dimension in base units
	// (Dim = the number of resources stands for the task slot).
	Shortfalls []binpack.Shortfall
}

func (e *PlanError) Error() string {
	msg := fmt.Sprintf("%s %s on machine %d: %v", e.Op, e.Task, e.Machine, e.Err)
	if len(e.Shortfalls) > 0 {
		msg += fmt.Sprintf(" (short: %v)", e.Shortfalls)
	}
	return msg
}

func (e *PlanError) Unwrap() error { return e.Err }

// PreemptMode says how Preempt stops a task.
type PreemptMode uint8

const (
	// Kill stops the task and requeues it; its progress is lost.
	Kill PreemptMode = iota
)

// refuse returns the error, or panics with it under Config.Check.
func (p *Planner) refuse(e *PlanError) error {
	if p.s.cfg.Check {
		panic(fmt.Sprintf("sim: policy %s at tick %d: %v", p.s.policy.Name(), p.s.now, e))
	}
	return e
}

func (p *Planner) inRound() {
	if !p.s.inRound {
		panic("sim: Planner used outside Policy.Round")
	}
}

// task returns the active job and task of t, or nil.
func (p *Planner) task(t TaskRef) (*jobRT, *taskRT) {
	s := p.s
	if t.Job < 0 || int(t.Job) >= len(s.jobs) || s.jobs[t.Job] == nil {
		return nil, nil
	}
	j := s.jobs[t.Job]
	if t.Task < 0 || int(t.Task) >= len(j.tasks) {
		return nil, nil
	}
	return j, &j.tasks[t.Task]
}

// check returns why runnable or running task v of j cannot run on m now,
// or nil.
func (p *Planner) check(op string, j *jobRT, v int32, m MachineID) *PlanError {
	s := p.s
	ref := TaskRef{j.id, v}
	if !j.st[j.tasks[v].stage].elig.Has(s.classOf[m]) {
		return &PlanError{Op: op, Task: ref, Machine: m, Err: ErrIneligible}
	}
	if r := s.mach[m].reserved; r != NoUser && r != j.user {
		return &PlanError{Op: op, Task: ref, Machine: m, Err: ErrReserved}
	}
	dem := j.demand(v)
	f := s.machineFree(m)
	if s.mach[m].slots >= 1 && f.Dominates(dem) {
		if s.dev == nil || s.dev.fits(m, dem) {
			return nil
		}
		return &PlanError{Op: op, Task: ref, Machine: m, Err: ErrNoFit} // the devices, not the totals
	}
	have, need := make([]float64, s.D+1), make([]float64, s.D+1)
	for d := range dem {
		q := 1.0
		if s.cl.Quanta != nil {
			q = s.cl.Quanta[d]
		}
		have[d], need[d] = float64(f[d])*q, float64(dem[d])*q
	}
	have[s.D], need[s.D] = float64(min(s.mach[m].slots, 1)), 1
	return &PlanError{Op: op, Task: ref, Machine: m, Err: ErrNoFit, Shortfalls: binpack.Shortfalls(have, need)}
}

// Place starts runnable task t on machine m now. It fails when t is not
// runnable, m is not eligible for t, m is reserved for another user, or
// t's demand exceeds m's free capacity (or m has no free slot).
func (p *Planner) Place(t TaskRef, m MachineID) error {
	p.inRound()
	s := p.s
	j, task := p.task(t)
	if j == nil || m < 0 || int(m) >= len(s.classOf) {
		return p.refuse(&PlanError{Op: "place", Task: t, Machine: m, Err: ErrUnknown})
	}
	if task.state != TaskRunnable {
		return p.refuse(&PlanError{Op: "place", Task: t, Machine: m, Err: ErrNotRunnable})
	}
	if e := p.check("place", j, t.Task, m); e != nil {
		return p.refuse(e)
	}
	s.place(j, t.Task, m)
	return nil
}

// Preempt kills running task t: at once when grace is 0, else at now+grace
// if it still runs then (SIMULATE.md §1.5). Its progress is lost and it is
// requeued; when claimant is not NoUser, its machine is then reserved for
// claimant (hidden from the fit index) until the claimant places a task
// there or the policy calls Unreserve.
func (p *Planner) Preempt(t TaskRef, mode PreemptMode, grace Tick, claimant UserID) error {
	p.inRound()
	s := p.s
	if mode != Kill {
		panic(fmt.Sprintf("sim: unknown preempt mode %d", mode))
	}
	if grace < 0 {
		panic(fmt.Sprintf("sim: negative grace period %d", grace))
	}
	j, task := p.task(t)
	if j == nil {
		return p.refuse(&PlanError{Op: "preempt", Task: t, Machine: NoMachine, Err: ErrUnknown})
	}
	if !s.running(j, t.Task) {
		return p.refuse(&PlanError{Op: "preempt", Task: t, Machine: NoMachine, Err: ErrNotRunning})
	}
	s.stats.Preemptions++
	if grace == 0 {
		s.kill(j, t.Task, claimant)
		return nil
	}
	if claimant != NoUser {
		if s.claims == nil {
			s.claims = map[TaskRef]UserID{}
		}
		s.claims[t] = claimant
	}
	ev := mkEvent(s.now+grace, evKill, int32(t.Job), t.Task, task.ver)
	ev.slot = uint32(task.run)
	s.push(ev)
	return nil
}

// Suspend stops running task t now, keeping its progress: it is runnable
// again and resumes where it left off when placed (Choosy §7.1).
func (p *Planner) Suspend(t TaskRef) error {
	p.inRound()
	j, _ := p.task(t)
	if j == nil {
		return p.refuse(&PlanError{Op: "suspend", Task: t, Machine: NoMachine, Err: ErrUnknown})
	}
	if !p.s.running(j, t.Task) {
		return p.refuse(&PlanError{Op: "suspend", Task: t, Machine: NoMachine, Err: ErrNotRunning})
	}
	p.s.suspend(j, t.Task)
	return nil
}

// Migrate moves running task t to machine m now; its end time stays the
// same. m must be another eligible machine with room for t.
func (p *Planner) Migrate(t TaskRef, m MachineID) error {
	p.inRound()
	s := p.s
	j, task := p.task(t)
	if j == nil || m < 0 || int(m) >= len(s.classOf) {
		return p.refuse(&PlanError{Op: "migrate", Task: t, Machine: m, Err: ErrUnknown})
	}
	if !s.running(j, t.Task) || task.machine == m {
		return p.refuse(&PlanError{Op: "migrate", Task: t, Machine: m, Err: ErrNotRunning})
	}
	if e := p.check("migrate", j, t.Task, m); e != nil {
		return p.refuse(e)
	}
	s.migrate(j, t.Task, m)
	return nil
}

// WakeAt asks for a Round at time at (> now) even if nothing happens then.
// Repeated requests for one time are merged.
func (p *Planner) WakeAt(at Tick) {
	s := p.s
	if at <= s.now {
		panic(fmt.Sprintf("sim: WakeAt(%d) is not after now (%d)", at, s.now))
	}
	if s.timers[at] {
		return
	}
	s.timers[at] = true
	s.push(mkEvent(at, evTimer, 0, 0, 0))
}

// Block marks group g blocked for the rest of this Round
// (SIMULATE.md §3.0); State.Blocked reports it.
func (p *Planner) Block(g GroupRef) {
	p.s.jobs[g.Job].st[g.Stage].blockStamp = p.s.round
}

// Unblock clears Block for group g (after the policy freed capacity it
// may use, for instance by preemption).
func (p *Planner) Unblock(g GroupRef) {
	p.s.jobs[g.Job].st[g.Stage].blockStamp = 0
}

// Unreserve releases machine m from the claimant a kill reserved it for.
func (p *Planner) Unreserve(m MachineID) {
	p.inRound()
	p.s.unreserve(m)
}
