package dag

import "time"

// allBoundsShare is the share of AllBounds' budget for the stage and
// energetic bounds; the exact search gets a quarter of the rest, the
// learning search two thirds of what remains, the LP test the rest.
const allBoundsShare = 0.3

// AllBounds computes every bound of Bounds on d and machines: the cheap
// ones (LowerBounds), then, within the work budget o.MaxWork (default
// DefaultMaxWork, or SearchWork on DAGs up to searchLimit tasks;
// o.TimeLimit opt-in as in Best), the destructive ones:
// stage level (StageLB) on DAGs in stages, energetic reasoning with
// shaving (EnergeticLB) on DAGs up to taskBoundLimit tasks, the exact
// search and then the search with nogood learning bottom up (destructive
// improvement by search: every makespan T refuted makes T + 1 a bound) on
// DAGs up to searchLimit tasks, then the LP test (LPLB) on DAGs up to
// lpLimit tasks.
//
// ub, when positive, is the makespan of a known schedule: the destructive
// bounds stop when they reach it (the schedule is then proved optimal). When
// ub ≤ 0, the makespan of a quick schedule (serial SGS by latest finish
// time, justified; outside the budget) takes its place. d.TotalDuration()
// is always a valid ub and caps nothing that a sound bound could reach. Bounds.Work holds the
// work of each destructive bound and Bounds.Elapsed the wall-clock time
// of every bound; apart from Elapsed the result is deterministic (unless
// TimeLimit binds). It returns a *NoFitError when some task fits no
// machine.
func AllBounds(d *DAG, machines [][]float64, ub int64, o Options) (Bounds, error) {
	if err := CheckFit(d, machines); err != nil {
		return Bounds{}, err
	}
	el := map[string]time.Duration{}
	timed := func(name string, f func() int64) int64 {
		t0 := time.Now()
		v := f()
		el[name] = time.Since(t0)
		return v
	}
	b := Bounds{
		CP:     timed("cpLength", func() int64 { return CPLength(d) }),
		Energy: timed("energy", func() int64 { return EnergyLB(d, machines) }),
		NewLB:  timed("newLB", func() int64 { return NewLB(d, machines) }),
		NodePacking: timed("nodePacking", func() int64 {
			return NodePackingLB(d, machines)
		}),
		Bin:   timed("bin", func() int64 { return BinLB(d, machines) }),
		TWork: TWork(d, machines),
	}
	b.settle()
	if ub <= 0 && d.N() > 0 {
		// A quick schedule: the serial SGS by latest finish, justified.
		s, _ := justify(d, machines, methods["ssgs-lft"].run(d, machines, o), true)
		ub = s.Makespan()
	}
	bud := newBudget(o, d.N(), d.passWork())
	var p *problem
	if d.N() > 0 && d.N() <= taskBoundLimit {
		p = newProblem(d, machines)
	}
	// Stage and energetic bounds, then the search (stronger than the LP
	// test on small DAGs, and it may prove ub optimal at once), then the
	// LP test with what is left.
	sb := bud.child(int64(allBoundsShare * float64(bud.max)))
	strengthen(d, machines, &b, p, ub, sb, 10, false, el)
	bud.merge(sb)
	// A schedule of the pooled relaxation found by a search caps every
	// bound computed on it after (the LP test's too).
	if p != nil && p.n <= searchLimit && b.Best < ub && !bud.done() {
		b.run("search", bud, bud.left()/4, el, func(cb *budget) int64 {
			res := &searchResult{lb: b.Best, ub: ub}
			searchUp(p, res, ub, cb)
			ub = min(ub, res.ub)
			return res.lb
		})
	}
	if p != nil && p.n <= searchLimit && b.Best < ub && !bud.done() {
		b.run("lcg", bud, bud.left()*2/3, el, func(cb *budget) int64 {
			lb, start := lcgClimb(p, b.Best, ub, cb)
			if start != nil {
				ub = min(ub, lb)
			}
			return lb
		})
	}
	if p != nil && p.n <= lpLimit && b.Best < ub && !bud.done() {
		b.run("lp", bud, bud.left(), el, func(cb *budget) int64 { return lpClimb(p, b.Best, ub, cb) })
	}
	b.Elapsed = el
	return b, nil
}
