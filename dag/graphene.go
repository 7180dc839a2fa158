package dag

import (
	"runtime"
	"sync"
)

// Graphene defaults.
const (
	// DefaultMaxCandidates bounds the troublesome sets evaluated per part.
	DefaultMaxCandidates = 2048
	// DefaultMaxTroubleFraction prunes sets T with more than this share of
	// the tasks: "if |T| is very large, placing troublesome tasks first is
	// unlikely to help" (Graphene §4.4; the value is ALGORITHMS §3.3's).
	DefaultMaxTroubleFraction = 0.5
	// grapheneWork bounds the task placements spent on the candidates of
	// one part, so large DAGs evaluate fewer candidates (deterministically).
	grapheneWork = 2_500_000
	// seqPerCandidate is the number of placement sequences per candidate
	// (T forward or backward × SPC, SCP with S either way, CSP, PSC, ×
	// placeOrders).
	seqPerCandidate = 12 * placeOrders
	// maxThresholds bounds the distinct values of each score used as
	// thresholds; more are subsampled evenly.
	maxThresholds = 48
	// bypassTasks: parts this small or without edges skip the search.
	bypassTasks = 2
)

// Graphene builds Graphene's preferred schedule for one DAG on the
// machines (Grandl et al., OSDI 2016, §4 and Figs. 8–10; ALGORITHMS §3.3):
//
//  1. Split the DAG at its cuts (Cuts) and schedule the parts one after the
//     other (§4.4).
//  2. Per part, reason over stages when the stage graph is a DAG, else over
//     tasks. Score each unit by LongScore = max duration / the DAG's
//     longest, and FragScore = TWork(unit) / ExecTime(unit), ExecTime being
//     the makespan of the unit packed alone, longest first.
//  3. For discriminative thresholds (the distinct score values, plus a
//     sentinel selecting nothing), T = {u : Long(u) ≥ l or Frag(u) ≤ f},
//     closed under paths (T ∪ (desc(T) ∩ anc(T))), deduplicated, pruned when
//     |T| > MaxTroubleFraction·N; T = ∅ is always a candidate.
//  4. P = anc(T)∖T, C = desc(T)∖T, S = the rest. Place T first on an empty
//     space (forward or backward), then the dead-end-free orders SPC, SCP
//     (S either way), CSP and PSC, P always backward and C forward (§4.3).
//  5. Keep the most compact placement over all candidates (smallest span;
//     ties to the earlier candidate), normalised to start at 0.
//
// Within a subset, tasks are placed longest first (Fig. 10) and, as a
// second variant, critical path first (see placeOrders), each at its
// earliest (latest) fit over all machines. Departures from Fig. 10, all
// keeping its dead-end freedom: T = ∅ is a candidate (plain list
// placement), the directions of T and S are enumerated rather than chosen
// greedily, and the placement order has the critical-path variant.
//
// Candidates are evaluated by o.Workers goroutines, each with its own
// spaces; the result does not depend on their number. The number of
// candidates per part is at most min(MaxCandidates, 2.5·10⁶/(24·N)), so
// the cost is O(C·24·(N + E')·M·B) for C candidates, E' edges with
// barriers counted once per child task and B breakpoints per machine. It
// returns a *NoFitError when some task fits no machine.
func Graphene(d *DAG, machines [][]float64, o Options) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	return graphene(d, machines, o), nil
}

func graphene(d *DAG, machines [][]float64, o Options) *Schedule {
	parts := Parts(d)
	if len(parts) == 1 {
		return graphenePart(d, machines, o)
	}
	s := NewSchedule(d.N())
	var t0 int64
	for _, part := range parts {
		sub, orig := d.Induced(part)
		ps := graphenePart(sub, machines, o)
		var end int64
		for i, v := range orig {
			s.Start[v], s.End[v], s.Machine[v] = ps.Start[i]+t0, ps.End[i]+t0, ps.Machine[i]
			end = max(end, ps.End[i])
		}
		t0 += end
	}
	return s
}

// candidate is one division of the units into T, S, P, C.
type candidate struct {
	t, s, p, c []int // task lists
}

// graphenePart schedules a DAG without cuts.
func graphenePart(d *DAG, machines [][]float64, o Options) *Schedule {
	if d.N() <= bypassTasks || d.Edges() == 0 {
		pl := newPlacer(d, machines, newScratch(d))
		pl.place(d.allTasks(), forward)
		pl.s.Normalize()
		return pl.s
	}
	cands := troubleCandidates(d, machines, o)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(cands)))
	type best struct {
		span int64
		idx  int
		s    *Schedule
	}
	results := make([]best, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sc := newScratch(d)
			b := best{idx: -1}
			for i := w; i < len(cands); i += workers {
				p := evalCandidate(d, machines, cands[i], sc)
				if b.idx < 0 || p.span() < b.span {
					b = best{p.span(), i, p.s}
				}
			}
			results[w] = b
		}(w)
	}
	wg.Wait()
	win := results[0]
	for _, r := range results[1:] {
		if r.idx >= 0 && (r.span < win.span || r.span == win.span && r.idx < win.idx) {
			win = r
		}
	}
	win.s.Normalize()
	return win.s
}

// evalCandidate places T first, then every dead-end-free subset order,
// and returns the most compact placement.
func evalCandidate(d *DAG, machines [][]float64, c candidate, sc *scratch) *placer {
	var best *placer
	keep := func(p *placer) {
		if best == nil || p.span() < best.span() {
			best = p
		}
	}
	for order := 0; order < placeOrders; order++ {
		sc.order = order
		evalOrders(d, machines, c, sc, keep)
	}
	return best
}

// evalOrders tries T both ways and the four subset orders after it.
func evalOrders(d *DAG, machines [][]float64, c candidate, sc *scratch, keep func(*placer)) {
	for _, tDir := range []direction{forward, backward} {
		base := newPlacer(d, machines, sc)
		base.place(c.t, tDir)
		if len(c.t) == 0 && tDir == backward {
			continue
		}
		for _, sDir := range []direction{forward, backward} {
			withS := base.clone()
			withS.place(c.s, sDir)
			spc := withS.clone() // SPC: S, P backward, C forward
			spc.place(c.p, backward)
			spc.place(c.c, forward)
			keep(spc)
			withS.place(c.c, forward) // SCP: S, C forward, P backward
			withS.place(c.p, backward)
			keep(withS)
		}
		csp := base.clone() // CSP: C forward, S backward, P backward
		csp.place(c.c, forward)
		csp.place(c.s, backward)
		csp.place(c.p, backward)
		keep(csp)
		psc := base // PSC: P backward, S forward, C forward
		psc.place(c.p, backward)
		psc.place(c.s, forward)
		psc.place(c.c, forward)
		keep(psc)
	}
}
