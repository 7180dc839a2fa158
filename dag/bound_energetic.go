package dag

// Limits of the task-level destructive bounds: the energetic rule costs
// O(K·n² log n) per pass, shaving a pass per probe, the LP test and the
// search more, so they are used only on DAGs up to these sizes (larger
// DAGs get the stage-level bound).
const (
	taskBoundLimit = 1000
	shaveLimit     = 200
)

// energeticWork bounds the work EnergeticLB spends by default.
const energeticWork = 20_000_000

// EnergeticLB is the destructive-improvement bound of Klein & Scholl
// (EJOR 1999) with the propagator's rules (precedence windows,
// disjunctions, time-table and energetic reasoning) and shaving: assume
// makespan ≤ T and propagate to a fixpoint (then shave, on DAGs of at most
// shaveLimit tasks); if the windows empty, no schedule has makespan ≤ T,
// so T + 1 is a lower bound. T is searched between the simple bounds and
// the sum of durations; the largest refuted T + 1 is returned. It works on
// the pooled integer relaxation of d (see problem), so it bounds the
// machines too. It returns 0 above taskBoundLimit tasks. The work is
// capped at energeticWork units; the result is deterministic.
func EnergeticLB(d *DAG, machines [][]float64) int64 {
	if d.N() == 0 || d.N() > taskBoundLimit {
		return 0
	}
	lo := max(CPLength(d), EnergyLB(d, machines))
	return energeticBound(newProblem(d, machines), lo, d.TotalDuration(), &budget{max: energeticWork})
}

// energeticBound runs destructive improvement from lo below hi (a
// feasible makespan) on p with its clique resources (withCliques): first
// with propagation alone (binary search), then on DAGs up to shaveLimit
// tasks with shaving, its probes propagated without the energetic rule,
// then with it.
func energeticBound(p *problem, lo, hi int64, b *budget) int64 {
	p, w := p.withCliques(boundCliques)
	b.spend(w)
	lo = destructiveLB(p, lo, hi, probeNone, b)
	if p.n <= shaveLimit {
		lo = destructiveLB(p, lo, hi, probeQuick, b)
		lo = destructiveLB(p, lo, hi, probeEnergetic, b)
	}
	return lo
}

// boundCliques is how many clique resources the destructive bounds add
// (see withCliques).
const boundCliques = 8

// Levels of destructiveLB: no shaving, shaving with probes propagated
// without the energetic rule, shaving with probes propagated with it.
const (
	probeNone = iota
	probeQuick
	probeEnergetic
)

// destructiveLB returns the largest T + 1 in [lo, hi) refuted by
// propagation at the given level (lo when none); hi is a makespan known
// to be feasible (or any upper limit). Without shaving T is tested by
// binary search; with it, by exponential search up from lo (T = lo, lo+1,
// lo+3, … until one stands, then binary search below it): a shaving test
// that refutes T stops early, one that does not shaves every task to a
// fixpoint, so the search spends few tests far above the answer. Each
// refutation is a proof on its own, so the result is sound whether or not
// refutation is monotone in T.
func destructiveLB(p *problem, lo, hi int64, level int, b *budget) int64 {
	pr := newPropagator(p, true)
	w := (p.n + 63) / 64
	best := lo // every T < best is refuted (or below a simple bound)
	var step int64
	climbing := level > probeNone
	for best < hi && !b.done() {
		t := best + (hi-best)/2
		if climbing {
			t = min(best+step, hi-1)
		}
		st := newWindows(p.n, w, t)
		refuted := pr.refutes(st) || level > probeNone && !pr.shaveWith(st, b, level == probeEnergetic)
		b.spend(pr.take())
		if refuted {
			best = t + 1
			step = 2*step + 1
		} else {
			hi, climbing = t, false
		}
	}
	return best
}

// refutes reports whether propagation empties the windows.
func (pr *propagator) refutes(s *windows) bool { return !pr.fixpointAll(s) }

// take returns the work counted since the last take.
func (pr *propagator) take() int64 {
	w := pr.work
	pr.work = 0
	return w
}

// shave strengthens propagated windows by probing (shaving; Martin &
// Shmoys 1996, Torres & Lopez 2000 for cumulative scheduling): for a
// task i, if propagating "i starts at most at v" empties the windows, then
// i starts after v; v is found by binary search between est_i and lst_i,
// and symmetrically for the end. Rounds repeat until no window moves or
// the budget is spent. It returns false when the windows are refuted.
func (pr *propagator) shave(s *windows, b *budget) bool { return pr.shaveWith(s, b, false) }

// shaveWith is shave with the probes propagated with the energetic rule
// too when energetic is set (stronger, several times dearer).
func (pr *propagator) shaveWith(s *windows, b *budget, energetic bool) bool {
	p := pr.p
	probe := s.clone()
	for changed := true; changed; {
		changed = false
		for i := 0; i < p.n; i++ {
			if p.dur[i] == 0 {
				continue
			}
			for _, early := range [2]bool{true, false} {
				moved, ok := pr.shaveSide(s, probe, i, early, energetic)
				b.spend(pr.take())
				if !ok {
					return false
				}
				changed = changed || moved
				if b.done() {
					return true
				}
			}
		}
	}
	return true
}

// shaveSide tightens one side of task i's window by binary search over
// probes: the earliest start (early) to the least v in [est, lst] with
// "start ≤ v" not refuted (every start below it is impossible), or the
// latest end to the greatest v in [ect, lct] with "end ≥ v" not refuted.
// It reports whether the window moved and whether s is still consistent
// after propagating the move.
func (pr *propagator) shaveSide(s, probe *windows, i int, early, energetic bool) (moved, ok bool) {
	d := pr.p.dur[i]
	lo, hi, first := s.est[i], s.lct[i]-d, s.est[i] // starts
	if !early {
		lo, hi, first = s.est[i]+d, s.lct[i], s.lct[i] // ends
	}
	if lo >= hi || !pr.refutesWith(s, probe, i, first, early, energetic) {
		return false, true
	}
	// Invariant: the refuted side (lo when early, hi otherwise) is
	// refuted; the other is possible or untested.
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		if pr.refutesWith(s, probe, i, mid, early, energetic) == early {
			lo = mid
		} else {
			hi = mid
		}
	}
	if early {
		pr.setEst(s, i, lo+1)
	} else {
		pr.setLct(s, i, hi-1)
	}
	return true, pr.fixpoint(s)
}

// refutesWith reports whether propagation refutes s with task i starting
// at most at v (early) or ending at least at v (!early), using probe as
// scratch; the energetic rule runs in the probe only when energetic is
// set.
func (pr *propagator) refutesWith(s, probe *windows, i int, v int64, early, energetic bool) bool {
	probe.copyFrom(s)
	if early {
		pr.setLct(probe, i, v+pr.p.dur[i])
	} else {
		pr.setEst(probe, i, v-pr.p.dur[i])
	}
	e := pr.energetic
	pr.energetic = energetic
	ok := pr.fixpoint(probe)
	pr.energetic = e
	return !ok
}
