package dag

import "time"

// DefaultMaxWork is Best's default budget, in work units. A work unit is
// one elementary step, the same for every phase: one task or edge visited
// by a schedule generation pass (a pass costs passWork = N + E', E' the
// edges walked with barrier stage edges counted once per child task), one
// task window updated or examined by a propagation, one node of a search.
// Budgets count work, never time, so a result depends only on the inputs
// and the seed. At least minPasses passes are always allowed, so very
// large DAGs still get a few schedules. DAGs small enough for the exact
// search (up to searchLimit tasks) get SearchWork instead, as the
// search can prove optimality there (on one core of the 2-core reference
// machine, about 0.04 s per PSPLIB J30 instance and 0.16 s per J60
// instance on average; docs/dag/measurements.md dates each measurement,
// as the shared machine's speed varies by a quarter).
const DefaultMaxWork = 3_000_000

// DefaultSearchWork is the default budget of DAGs up to searchScale tasks;
// larger ones, up to searchLimit tasks, get it in proportion to their size
// (SearchWork).
const DefaultSearchWork = 50_000_000

// searchScale is the largest DAG that gets DefaultSearchWork alone. Work
// per schedule pass, propagation and search node grows about linearly with
// the tasks, so a budget in proportion gives a larger project about as
// many schedules and search nodes as a project of searchScale tasks: PSPLIB
// J60's 60 (its dummy start and end are not tasks), whose figures
// calibrated the default. A ProGen J120 project gets twice the budget:
// schedules 0.34% shorter on average, in about 1 s per project on one
// core (make bench; dated figures in docs/dag/measurements.md).
const searchScale = 60

// SearchWork returns the default budget of a DAG of n tasks, n at most
// searchLimit: DefaultSearchWork·max(n, searchScale)/searchScale.
func SearchWork(n int) int64 {
	return DefaultSearchWork * int64(max(n, searchScale)) / searchScale
}

// minPasses is the least default budget, in schedule generation passes.
const minPasses = 16

// budget is the work budget of one Best run (or of one fixed share of it,
// see child): work spent and allowed, and the opt-in wall-clock deadline.
// The deadline is the only use of time in the package; when it ends a
// phase, timeHit records it.
type budget struct {
	used, max int64
	deadline  time.Time // zero: no time limit
	timeHit   bool
	// step, when set, pauses the owner at every pause units of work
	// (see lockstep); stopped records that it said to stop.
	step    *lockstep
	pause   int64
	every   int64 // the pause interval (0: the lockstep's epoch)
	stopped bool
	// parent, for a child of a lockstep worker's budget, is that budget:
	// the child pauses at the worker's barriers (step 2 of Best runs its
	// bounds in children of its worker's budget).
	parent *budget
}

// newBudget returns the budget of o for a DAG of n tasks whose pass costs
// passWork.
func newBudget(o Options, n int, passWork int64) *budget {
	b := &budget{max: o.MaxWork}
	switch {
	case b.max > 0:
	case n <= searchLimit:
		b.max = SearchWork(n)
	default:
		b.max = max(DefaultMaxWork, minPasses*passWork)
	}
	if o.TimeLimit > 0 {
		b.deadline = time.Now().Add(o.TimeLimit)
	}
	return b
}

// spend records w units of work.
func (b *budget) spend(w int64) { b.used += w }

// left returns the work still allowed (≥ 0).
func (b *budget) left() int64 { return max(0, b.max-b.used) }

// done reports whether the work is spent, the deadline has passed or a
// lockstep coordinator said to stop. Under a lockstep it blocks at every
// epoch boundary until the other workers get there.
func (b *budget) done() bool {
	if b.stopped || b.used >= b.max {
		return true
	}
	if b.step != nil && b.used >= b.pause {
		if b.step.barrier(b) {
			b.stopped = true
			return true
		}
	}
	if p := b.parent; p != nil && (p.stopped || p.used+b.used >= p.pause && p.step.barrier(p)) {
		p.stopped, b.stopped = true, true
		return true
	}
	if !b.deadline.IsZero() && time.Now().After(b.deadline) {
		b.timeHit = true
		return true
	}
	return false
}

// child returns a budget of w units (at most what is left) sharing the
// deadline; merge adds its spending back. A child of a lockstep worker's
// budget pauses at the worker's barriers. Parallel phases give each worker
// a child of a fixed share, so the work split does not depend on the
// number of cores.
func (b *budget) child(w int64) *budget {
	c := &budget{max: min(w, b.left()), deadline: b.deadline}
	if b.step != nil {
		c.parent = b
	}
	return c
}

// merge adds the work and the time-limit flag of a child.
func (b *budget) merge(c *budget) {
	b.used += c.used
	b.timeHit = b.timeHit || c.timeHit
}

// passWork returns the work of one schedule generation pass: N plus the
// edges a pass walks (explicit edges once, a barrier stage edge once per
// task of its child stage).
func (d *DAG) passWork() int64 {
	w := int64(d.N() + len(d.cv.xSuccIdx))
	for s := range d.Stages {
		for _, c := range d.cv.bChild[s] {
			w += int64(len(d.Stages[c].Tasks))
		}
	}
	return max(w, 1)
}
