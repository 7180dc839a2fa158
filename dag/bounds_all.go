package dag

import "time"

// Shares of AllBounds' budget: the destructive bounds by propagation and
// LP (strengthen) first, then the exact search bottom up with the rest.
const allBoundsShare = 0.6

// AllBounds computes every bound of Bounds on d and machines: the cheap
// ones (LowerBounds), then, within the work budget o.MaxWork (default
// DefaultMaxWork, or DefaultSearchWork; o.TimeLimit opt-in as in Best), the destructive ones:
// stage level (StageLB) on DAGs in stages, energetic reasoning with
// shaving (EnergeticLB) and the LP test (LPLB) on DAGs up to
// taskBoundLimit and lpLimit tasks, then the exact search bottom up
// (destructive improvement by search: every makespan T it refutes makes
// T + 1 a bound) on DAGs up to searchLimit tasks.
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
	sb := bud.child(int64(allBoundsShare * float64(bud.max)))
	strengthen(d, machines, &b, p, ub, sb, el)
	bud.merge(sb)
	if p != nil && p.n <= searchLimit && b.Best < ub && !bud.done() {
		t0 := time.Now()
		res := &searchResult{lb: b.Best, ub: ub}
		searchUp(p, res, ub, bud)
		b.Search = res.lb
		b.addWork("search", bud.used-sb.used)
		el["search"] = time.Since(t0)
		b.settle()
	}
	b.Elapsed = el
	return b, nil
}
