package policies

import (
	"fmt"
	"slices"

	"github.com/capplan/capplan/sim"
)

// cmmfMode is what a CMMF comparator may do to running tasks.
type cmmfMode uint8

const (
	// cmmfRestricted neither moves nor stops running tasks.
	cmmfRestricted cmmfMode = iota
	// cmmfMigrate moves running tasks between machine types, for free.
	cmmfMigrate
	// cmmfPreempt pauses running tasks, which resume where they left off.
	cmmfPreempt
)

var cmmfNames = []string{"cmmf-restricted", "cmmf-migrate", "cmmf-preempt"}

// CMMFParams are the parameters of the CMMF comparators.
type CMMFParams struct {
	Intra sim.Intra
}

func (p *CMMFParams) bind(b *binder) { b.intra(&p.Intra) }

// cmmf is one of Choosy's offline comparators [SEED choosy §7.1;
// SIMULATE.md §3.5]: at every Round it computes the exact integral weighted
// constrained max-min fair allocation of the cluster's slots with the flow
// solver (flow.Integral, ALGORITHMS.md §5.5) and moves the cluster to it.
// Machine types are the simulator's classes; a user may use the classes
// that admit one of its active jobs, and wants as many slots as it runs
// plus as many as it has runnable tasks.
//
//   - cmmf-restricted ("Restricted Offline": no migration, no preemption):
//     the network holds the types' free slots; the slots a user runs count
//     towards its level and stay where they are (each user gets a private
//     type of that many slots, which the leximin optimum always fills, so
//     x_u ≥ held_u). The new tasks go to the free slots of the types the
//     solution names.
//   - cmmf-migrate: all slots, floor x_u ≥ running_u (flow.Problem.Floors);
//     tasks stay where the target allows, the surplus migrates (for free,
//     keeping its end time) to types in deficit, then new tasks fill the
//     rest.
//   - cmmf-preempt: all slots, no floor; the latest-started tasks over a
//     user's target on a type are suspended, then suspended tasks resume
//     and new tasks start where the user is under target.
//
// The per-type targets of -migrate and -preempt come from a second max
// flow that first routes every user's current tasks where they run and only
// then augments to the CMMF totals, so tasks move only where the totals
// need it [DERIVED]. Slot mode only: one resource, every task demands one
// unit of it (CheckCluster). A Round with no runnable task changes
// nothing: the CMMF totals are then the running counts.
type cmmf struct {
	mode  cmmfMode
	intra sim.Intra
	v     cmmfView
	stats cmmfStats
}

// cmmfStats counts the solver's work (reported as policy statistics).
type cmmfStats struct {
	solves, maxFlows int64
}

func init() {
	for m, name := range cmmfNames {
		mode := cmmfMode(m)
		doc := [...]string{
			"Choosy's restricted offline comparator: exact integral CMMF of the free slots at every event, no migration or preemption",
			"Choosy's comparator with free migration: exact integral CMMF of all slots at every event, running tasks kept (migrated)",
			"Choosy's comparator with free preemption: exact integral CMMF of all slots at every event, tasks paused and resumed",
		}[m]
		register(typed(name, doc, CMMFParams{}, (*CMMFParams).bind, func(p CMMFParams) sim.Policy {
			return &cmmf{mode: mode, intra: p.Intra}
		}))
	}
}

func (c *cmmf) Name() string { return cmmfNames[c.mode] }

func (c *cmmf) Traits() sim.Traits { return sim.Traits{Intra: c.intra, WorkConserving: true} }

// PolicyStats implements sim.StatsPolicy.
func (c *cmmf) PolicyStats() map[string]int64 {
	return map[string]int64{"cmmfSolves": c.stats.solves, "maxFlows": c.stats.maxFlows}
}

// CheckCluster reports whether the comparators can run on c: slot mode,
// one resource whose every unit is a slot.
func (c *cmmf) CheckCluster(cl *sim.Cluster, _ []sim.User) error {
	if len(cl.Resources) != 1 {
		return fmt.Errorf("%s needs slot mode: one resource, each task one unit of it (the cluster has %d resources: %v)",
			c.Name(), len(cl.Resources), cl.Resources)
	}
	return nil
}

func (c *cmmf) Round(s *sim.State, p *sim.Planner) {
	if len(s.RunnableJobs()) == 0 {
		return
	}
	v := &c.v
	v.gather(s, c.mode != cmmfRestricted)
	if len(v.users) == 0 {
		return
	}
	switch c.mode {
	case cmmfRestricted:
		c.restricted(s, p)
	case cmmfMigrate:
		c.reshuffle(s, p, true)
	case cmmfPreempt:
		c.reshuffle(s, p, false)
	}
}

// cmmfView is one Round's slot accounting, by user and machine class.
type cmmfView struct {
	users    []sim.UserID // users with runnable tasks (and, when all, running ones)
	index    []int32      // user → position in users, −1
	runnable []int64      // per problem user
	running  []int64      // per problem user
	elig     [][]int      // per problem user: eligible classes, increasing
	on       [][]int64    // per problem user and class: running tasks
	free     []int64      // per class: free slots
	total    []int64      // per class: all slots
}

// slots returns the task slots of machine m: its capacity in the single
// resource, bounded by its slot limit.
func slots(s *sim.State, m sim.MachineID) (total, free int64) {
	mv := s.Machine(m)
	total, free = mv.Cap()[0], mv.Free()[0]
	if mv.ReservedFor() != sim.NoUser {
		free = 0
	}
	return total, min(free, mv.FreeSlots())
}

// gather counts slots per class and tasks per user; with all, users that
// only run tasks are included and their tasks counted per class.
func (v *cmmfView) gather(s *sim.State, all bool) {
	K := len(s.Classes())
	v.free, v.total = resize(v.free, K), resize(v.total, K)
	for ci, cl := range s.Classes() {
		for _, m := range cl.Machines {
			t, f := slots(s, m)
			v.total[ci] += t
			v.free[ci] += f
		}
	}
	U := s.NumUsers()
	if len(v.index) < U {
		v.index = make([]int32, U)
	}
	for i := range v.index {
		v.index[i] = -1
	}
	v.users = v.users[:0]
	add := func(u sim.UserID) int32 {
		if v.index[u] < 0 {
			v.index[u] = int32(len(v.users))
			v.users = append(v.users, u)
		}
		return v.index[u]
	}
	for _, j := range s.RunnableJobs() {
		add(s.Job(j).User())
	}
	if all {
		for _, j := range s.ActiveJobs() {
			if s.Job(j).Running() > 0 {
				add(s.Job(j).User())
			}
		}
	}
	slices.Sort(v.users)
	for i, u := range v.users {
		v.index[u] = int32(i)
	}
	n := len(v.users)
	v.runnable, v.running = resize(v.runnable, n), resize(v.running, n)
	if len(v.elig) < n {
		v.elig = append(v.elig, make([][]int, n-len(v.elig))...)
		v.on = append(v.on, make([][]int64, n-len(v.on))...)
	}
	for i := 0; i < n; i++ {
		v.elig[i] = v.elig[i][:0]
		v.on[i] = resize(v.on[i], K)
	}
	for _, j := range s.ActiveJobs() {
		jv := s.Job(j)
		i := v.index[jv.User()]
		if i < 0 || jv.Runnable() == 0 && jv.Running() == 0 {
			continue
		}
		v.runnable[i] += int64(jv.Runnable())
		v.running[i] += int64(jv.Running())
		for _, cl := range jv.Eligible().List() {
			v.elig[i] = append(v.elig[i], int(cl))
		}
	}
	for i := 0; i < n; i++ {
		slices.Sort(v.elig[i])
		v.elig[i] = slices.Compact(v.elig[i])
	}
	if all {
		for mi := 0; mi < s.NumMachines(); mi++ {
			m := sim.MachineID(mi)
			for _, t := range s.RunningOn(m) {
				if i := v.index[s.Job(t.Job).User()]; i >= 0 {
					v.on[i][s.ClassOf(m)]++
				}
			}
		}
	}
}

// resize returns xs with length n, zeroed, reusing its array.
func resize(xs []int64, n int) []int64 {
	if cap(xs) < n {
		return make([]int64, n)
	}
	xs = xs[:n]
	clear(xs)
	return xs
}
