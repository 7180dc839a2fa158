package sim

import (
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
)

// InvariantError is a violated invariant of SIMULATE.md §7.1: a bug in the
// core or in a policy.
type InvariantError struct {
	Invariant string // "capacity", "precedence", "exactly-once", ...
	Tick      Tick
	Detail    string
}

func (e *InvariantError) Error() string {
	return fmt.Sprintf("sim: invariant %s violated at tick %d: %s", e.Invariant, e.Tick, e.Detail)
}

// checker asserts the invariants independently of the core's fast paths:
// capacity is recomputed from the running tasks, eligibility from the
// selectors, precedence from the predecessors' states, work conservation
// by brute force over machines.
type checker struct {
	s        *engine
	lastNow  Tick
	runStart map[TaskRef]Tick // start of the current run segment
	progress map[TaskRef]Tick // actual work done by the current attempt
	starts   map[TaskRef]int32
	charged  []u128 // Σ charge × run length
	err      error
}

func newChecker(s *engine) *checker {
	c := &checker{s: s, runStart: map[TaskRef]Tick{}, progress: map[TaskRef]Tick{}, starts: map[TaskRef]int32{},
		charged: make([]u128, s.D)}
	if s.cl.Nodes != nil {
		used := make([]Vec, len(s.cl.Nodes))
		for i := range s.cl.Machines {
			m := &s.cl.Machines[i]
			if m.Slots != 1 {
				c.fail("containers", fmt.Sprintf("container %s holds %d tasks at a time, want 1", m.Name, m.Slots))
			}
			if used[m.Node] == nil {
				used[m.Node] = make(Vec, s.D)
			}
			for d, v := range m.Cap {
				used[m.Node][d] += v
			}
		}
		for n, u := range used {
			if u != nil && !s.cl.Nodes[n].Cap.Dominates(u) {
				c.fail("containers", fmt.Sprintf("containers of node %s exceed its capacity", s.cl.Nodes[n].Name))
			}
		}
	}
	return c
}

func (c *checker) fail(inv, detail string) {
	if c.err == nil {
		c.err = &InvariantError{Invariant: inv, Tick: c.s.now, Detail: detail}
	}
}

// admits checks a constraint against a machine directly; nodes are the
// cluster's in container mode (MinCapacity is checked against the node,
// see Class.NodeCap).
func admits(k Constraint, m *Machine, nodes []Node) bool {
	capv := eligibilityCap(m, nodes)
	for d, v := range k.MinCapacity {
		if capv[d] < v {
			return false
		}
	}
	return k.Selector == nil || k.Selector.Matches(labels.Set(m.Labels))
}

// started checks a run's start: precedence, arrival, eligibility.
func (c *checker) started(j *jobRT, v int32, m MachineID) {
	s := c.s
	ref := TaskRef{j.id, v}
	g := j.g
	si := j.tasks[v].stage
	if s.now < j.spec.Arrival {
		c.fail("precedence", fmt.Sprintf("%s starts before its job arrives", ref))
	}
	done := func(w int32) bool { return s.stateOf(j, w) == TaskFinished }
	for _, p := range g.preds(v) {
		if !done(p) {
			c.fail("precedence", fmt.Sprintf("%s starts before its predecessor task %d finished", ref, p))
		}
	}
	for _, p := range g.oPar[si] {
		if w := g.first[p] + v - g.first[si]; !done(w) {
			c.fail("precedence", fmt.Sprintf("%s starts before its one-to-one parent task %d finished", ref, w))
		}
	}
	for _, p := range g.bPar[si] {
		for w := g.first[p]; w < g.first[p+1]; w++ {
			if !done(w) {
				c.fail("precedence", fmt.Sprintf("%s starts before barrier parent task %d finished", ref, w))
				break
			}
		}
	}
	mach := &s.cl.Machines[m]
	user := &s.cfg.Users[j.spec.User]
	nodes := s.cl.Nodes
	if !admits(user.Constraint, mach, nodes) || !admits(j.spec.Constraint, mach, nodes) || !admits(j.spec.Stages[si].Constraint, mach, nodes) {
		c.fail("eligibility", fmt.Sprintf("%s placed on machine %s, which its constraints do not admit", ref, mach.Name))
	}
	if _, running := c.runStart[ref]; running {
		c.fail("exactly-once", fmt.Sprintf("%s starts while running", ref))
	}
	c.runStart[ref] = s.now
	c.starts[ref]++
}

// ended accounts a run segment and checks completions.
func (c *checker) ended(j *jobRT, v int32, m MachineID, k EndKind) {
	s := c.s
	ref := TaskRef{j.id, v}
	st, ok := c.runStart[ref]
	if !ok {
		c.fail("exactly-once", fmt.Sprintf("%s ends without running", ref))
		return
	}
	delete(c.runStart, ref)
	dt := s.now - st
	ch := s.charge(j.demand(v), m)
	for d, x := range ch {
		c.charged[d] = c.charged[d].add(mul64(uint64(x), uint64(dt)))
	}
	switch k {
	case EndKilled:
		delete(c.progress, ref)
	case EndFinished:
		if p := c.progress[ref] + dt; p != j.tasks[v].act {
			c.fail("exactly-once", fmt.Sprintf("%s finished after %d ticks of work, its actual duration is %d", ref, p, j.tasks[v].act))
		}
		delete(c.progress, ref)
	default:
		c.progress[ref] += dt
	}
}

// jobFinished checks that every task ran to completion exactly once:
// placements = 1 + kills + suspensions per task, and dummies never ran.
func (c *checker) jobFinished(j *jobRT) {
	var kills, suspends, starts int32
	for v := range j.tasks {
		ref := TaskRef{j.id, int32(v)}
		if st := c.s.stateOf(j, int32(v)); st != TaskFinished {
			c.fail("exactly-once", fmt.Sprintf("job %s finished with %s %s", j.spec.Name, ref, st))
		}
		n := c.starts[ref]
		if j.tasks[v].est == 0 && n != 0 {
			c.fail("exactly-once", fmt.Sprintf("dummy %s ran", ref))
		}
		starts += n
		delete(c.starts, ref)
	}
	kills, suspends = j.kills, j.suspends
	var real int32
	for v := range j.tasks {
		if j.tasks[v].est > 0 {
			real++
		}
	}
	if starts != real+kills+suspends+j.migrations {
		c.fail("exactly-once", fmt.Sprintf("job %s: %d run starts for %d tasks, %d kills, %d suspensions and %d migrations",
			j.spec.Name, starts, real, kills, suspends, j.migrations))
	}
}

// afterRound checks the clock, capacity, the fit index and, for
// work-conserving policies, that nothing runnable fits anywhere.
func (c *checker) afterRound() error {
	s := c.s
	if s.now < c.lastNow {
		c.fail("clock", fmt.Sprintf("time went back from %d", c.lastNow))
	}
	c.lastNow = s.now
	D := s.D
	used := make(Vec, D)
	for mi := range s.cl.Machines {
		m := MachineID(mi)
		clear(used)
		for _, r := range s.mach[m].on {
			j := s.jobs[r.Job]
			if j == nil || !s.running(j, r.Task) || j.tasks[r.Task].machine != m {
				c.fail("capacity", fmt.Sprintf("machine %d lists %s, which does not run there", m, r))
				continue
			}
			for d, x := range j.demand(r.Task) {
				used[d] += x
			}
		}
		mach := &s.cl.Machines[mi]
		for d := 0; d < D; d++ {
			lim := s.limit(mach.Cap[d], d)
			if used[d] > lim {
				c.fail("capacity", fmt.Sprintf("machine %s uses %d of %s, limit %d", mach.Name, used[d], s.cl.Resources[d], lim))
			}
			if s.free[mi*D+d] != lim-used[d] {
				c.fail("capacity", fmt.Sprintf("machine %s free %s is %d, want %d", mach.Name, s.cl.Resources[d], s.free[mi*D+d], lim-used[d]))
			}
		}
		if mach.Slots > 0 && int32(len(s.mach[m].on)) > mach.Slots {
			c.fail("capacity", fmt.Sprintf("machine %s runs %d tasks, %d slots", mach.Name, len(s.mach[m].on), mach.Slots))
		}
	}
	c.checkIndex()
	if s.dev != nil {
		c.checkDevices()
	}
	if s.traits.WorkConserving {
		c.checkWorkConserving()
	}
	return c.err
}

// checkIndex compares each class's root maxima with a brute-force scan.
func (c *checker) checkIndex() {
	s := c.s
	for ci := range s.classes {
		want := make(Vec, s.D)
		for d := range want {
			want[d] = unfit
		}
		for _, m := range s.classes[ci].Machines {
			if s.mach[m].reserved != NoUser { // hidden from the index
				continue
			}
			for d, v := range s.machineFree(m) {
				want[d] = max(want[d], v)
			}
		}
		got := s.index.MaxFree(ClassID(ci))
		for d := range want {
			if want[d] != got[d] {
				c.fail("index", fmt.Sprintf("class %d max free %v, scan gives %v", ci, got, want))
				return
			}
		}
	}
}

// checkWorkConserving fails when a runnable group's head — the task the
// group FIFO allows next — fits some eligible machine after the Round
// (SIMULATE.md §3.0, §7.1.5). It scans machines, not the index.
func (c *checker) checkWorkConserving() {
	s := c.s
	for _, id := range s.runnable {
		j := s.jobs[id]
		for _, si := range j.groups {
			v := j.head(si)
			dem := j.demand(v)
			for mi := range s.cl.Machines {
				m := MachineID(mi)
				if !j.st[si].elig.Has(s.classOf[m]) || s.mach[m].slots < 1 {
					continue
				}
				if r := s.mach[m].reserved; r != NoUser && r != j.user {
					continue
				}
				if s.machineFree(m).Dominates(dem) && (s.dev == nil || s.dev.fits(m, dem)) {
					c.fail("work-conservation", fmt.Sprintf("%s policy left %s runnable while it fits machine %s",
						s.policy.Name(), TaskRef{id, v}, s.cl.Machines[m].Name))
					return
				}
			}
		}
	}
}

// atEnd checks accounting: ∫ allocated dt equals Σ charge × run length,
// counting the runs still open.
func (c *checker) atEnd() error {
	s := c.s
	for mi := range s.mach {
		for _, ref := range s.mach[mi].on {
			j := s.jobs[ref.Job]
			ch := s.charge(j.demand(ref.Task), MachineID(mi))
			for d, x := range ch {
				c.charged[d] = c.charged[d].add(mul64(uint64(x), uint64(s.now-c.runStart[ref])))
			}
		}
	}
	for d := range c.charged {
		if c.charged[d] != s.rec.allocI[d] {
			c.fail("accounting", fmt.Sprintf("∫ allocated %s = %v, Σ charge × run length = %v", s.cl.Resources[d],
				s.rec.allocI[d].float(), c.charged[d].float()))
		}
	}
	return c.err
}

// checkDevices recomputes every device's free room from the tasks holding
// it: each device between 0 and its capacity, every holder running on the
// machine, and a machine's devices holding exactly its running tasks'
// demand of the resource.
func (c *checker) checkDevices() {
	s, dv := c.s, c.s.dev
	for mi := range s.cl.Machines {
		used := make([]int64, len(dv.free[mi]))
		var held int64
		for _, d := range dv.takes[mi] {
			used[d.device] += d.amount
			held += d.amount
			if j := s.jobs[d.t.Job]; j == nil || !s.running(j, d.t.Task) || j.tasks[d.t.Task].machine != MachineID(mi) {
				c.fail("devices", fmt.Sprintf("machine %s: %s holds a device without running there", s.cl.Machines[mi].Name, d.t))
			}
		}
		for k, f := range dv.free[mi] {
			if f < 0 || f+used[k] != dv.per {
				c.fail("devices", fmt.Sprintf("machine %s device %d: %d free and %d held of %d", s.cl.Machines[mi].Name, k, f, used[k], dv.per))
			}
		}
		var want int64
		for _, r := range s.mach[mi].on {
			want += s.jobs[r.Job].demand(r.Task)[dv.dim]
		}
		if want != held {
			c.fail("devices", fmt.Sprintf("machine %s: devices hold %d, its tasks demand %d", s.cl.Machines[mi].Name, held, want))
		}
	}
}
