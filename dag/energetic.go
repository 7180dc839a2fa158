package dag

import "slices"

// energy is the energetic-reasoning rule of the propagator (Baptiste, Le
// Pape & Nuijten 2001, §3.3; Klein & Scholl 1999 use the same test inside
// destructive improvement), per resource r of capacity C.
//
// For an interval [t1, t2) a task's minimal intersection is
// W_i = c_i·min(t2−t1, p_i⁺(t1), p_i⁻(t2)), with p_i⁺(t1) = clamp(ect_i−t1,
// 0, p_i) its part after t1 when left-shifted and p_i⁻(t2) = clamp(t2−lst_i,
// 0, p_i) its part before t2 when right-shifted. For t2 ≥ t1 this is the
// ramp W_i = c_i·min(A_i, max(0, t2−s_i)) with A_i = p_i⁺(t1) and s_i =
// max(t1, lst_i), so for a fixed t1 the total E(t2) = Σ W_i is piecewise
// linear in t2 and E(t2) − C·(t2−t1) is largest where a ramp ends. The
// rule sweeps those points for every t1 ∈ {est_i, ect_i, lst_i}:
// E > C·(t2−t1) proves the windows infeasible; where the slack is below
// max c_i·p_i it tries the adjustments of the propagator's comment. The
// intervals tried are a subset of Baptiste et al.'s characterisation, so
// the rule may miss a deduction but never makes a wrong one.
// O(K·n² log n) per call plus O(n) per adjusted interval; O(K·n²) when
// the events of each t1 span at most denseTicks ticks each (sweepDense).
func (pr *propagator) energy(s *windows) (changed, ok bool) {
	p := pr.p
	for r := 0; r < p.k; r++ {
		t1s := pr.t1s[:0]
		for _, i := range pr.users[r] {
			t1s = append(t1s, s.est[i], s.est[i]+p.dur[i], s.lct[i]-p.dur[i])
		}
		if len(t1s) == 0 {
			continue
		}
		slices.Sort(t1s)
		t1s = slices.Compact(t1s)
		pr.t1s = t1s
		for _, t1 := range t1s {
			ramps, last := pr.rampsAt(s, r, t1)
			pr.work += int64(len(ramps))
			var c bool
			if last-t1 <= denseTicks*int64(len(ramps)) {
				c, ok = pr.sweepDense(s, r, t1, last, ramps)
			} else {
				c, ok = pr.sweepSorted(s, r, t1, ramps)
			}
			changed = changed || c
			if !ok {
				return changed, false
			}
		}
	}
	return changed, true
}

// rampsAt returns the ramp events of resource r for intervals starting at
// t1, packed as time<<rampShift | task<<1 | end so that a plain integer
// sort orders them by time, and the latest ramp end (t1 when none). The
// slice is pr's scratch.
func (pr *propagator) rampsAt(s *windows, r int, t1 int64) ([]int64, int64) {
	p := pr.p
	ramps := pr.ramps[:0]
	last := t1
	for _, u := range pr.users[r] {
		i := int(u)
		a := min(max(s.est[i]+p.dur[i]-t1, 0), p.dur[i])
		if a == 0 {
			continue
		}
		si := max(t1, s.lct[i]-p.dur[i])
		ramps = append(ramps, si<<rampShift|int64(i)<<1, (si+a)<<rampShift|int64(i)<<1|1)
		last = max(last, si+a)
	}
	pr.ramps = ramps
	return ramps, last
}

// sweepSorted evaluates the intervals [t1, t) for the ramp events of one
// t1 and resource r, t the ends of ramps, in time order after sorting
// them: an interval whose minimal energy exceeds C·(t−t1) proves the
// windows infeasible; one with slack below maxCP[r] is passed to adjust.
func (pr *propagator) sweepSorted(s *windows, r int, t1 int64, ramps []int64) (changed, ok bool) {
	p := pr.p
	slices.Sort(ramps)
	var e, slope int64
	prev := t1
	for x := 0; x < len(ramps); {
		t := ramps[x] >> rampShift
		e += slope * (t - prev)
		prev = t
		ends := false
		for ; x < len(ramps) && ramps[x]>>rampShift == t; x++ {
			i := int(ramps[x] >> 1 & (1<<(rampShift-1) - 1))
			if ramps[x]&1 == 1 {
				slope -= p.dem[i*p.k+r]
				ends = true
			} else {
				slope += p.dem[i*p.k+r]
			}
		}
		if !ends || t <= t1 {
			continue
		}
		c, ok := pr.interval(s, r, t1, t, e)
		if !ok {
			return changed, false
		}
		changed = changed || c
	}
	return changed, true
}

// sweepDense is sweepSorted for events within [t1, last]: the slope
// changes and ramp ends go to arrays indexed by t − t1, which are walked
// tick by tick. The same intervals are evaluated with the same energies,
// in the same order.
func (pr *propagator) sweepDense(s *windows, r int, t1, last int64, ramps []int64) (changed, ok bool) {
	p := pr.p
	span := int(last-t1) + 1
	if cap(pr.dslope) < span {
		pr.dslope, pr.ends = make([]int64, span), make([]bool, span)
	}
	dslope, ends := pr.dslope[:span], pr.ends[:span]
	defer func() { clear(dslope); clear(ends) }()
	for _, ev := range ramps {
		t, i := ev>>rampShift-t1, int(ev>>1&(1<<(rampShift-1)-1))
		if ev&1 == 1 {
			dslope[t] -= p.dem[i*p.k+r]
			ends[t] = true
		} else {
			dslope[t] += p.dem[i*p.k+r]
		}
	}
	var e, slope int64
	for x := range span {
		e += slope // the energy at t1 + x
		slope += dslope[x]
		if !ends[x] || x == 0 {
			continue
		}
		c, ok := pr.interval(s, r, t1, t1+int64(x), e)
		if !ok {
			return changed, false
		}
		changed = changed || c
	}
	return changed, true
}

// interval tests [t1, t2) on resource r, whose tasks' minimal energy is e.
func (pr *propagator) interval(s *windows, r int, t1, t2, e int64) (changed, ok bool) {
	room := pr.p.cap[r] * (t2 - t1)
	if e > room {
		return false, false
	}
	if room-e < pr.maxCP[r] {
		return pr.adjust(s, r, t1, t2, room-e)
	}
	return false, true
}

// rampShift packs a task and an end flag below the time in energy's ramp
// events: tasks < 2¹⁹, times < 2⁴³.
const rampShift = 20

// adjust applies the energetic time-bound adjustments of every task on
// resource r over [t1, t2), where the tasks' minimal intersections leave
// slack = C·(t2−t1) − Σ W_j ≥ 0. W_i is recomputed from the current
// windows; windows only shrink, so it is at least the W_i in the sum, and
// avail = slack + W_i is at least the room the others really leave: the
// rule may deduce less than it could, never something false.
func (pr *propagator) adjust(s *windows, r int, t1, t2, slack int64) (changed, ok bool) {
	p := pr.p
	for _, u := range pr.users[r] {
		i := int(u)
		c, d := p.dem[i*p.k+r], p.dur[i]
		pr.work++
		est, lct := s.est[i], s.lct[i]
		a := min(max(est+d-t1, 0), d)
		wi := c * min(a, max(0, t2-max(t1, lct-d)))
		avail := slack + wi // C·(t2−t1) minus the others' energy
		if ls := max(0, min(t2, est+d)-max(t1, est)); c*ls > avail {
			if ne := t2 - avail/c; ne > est {
				if ne > lct-d {
					return changed, false
				}
				pr.setEst(s, i, ne)
				est, changed = ne, true
			}
		}
		if rs := max(0, min(t2, lct)-max(t1, lct-d)); c*rs > avail {
			if nl := t1 + avail/c; nl < lct {
				if nl-d < est {
					return changed, false
				}
				pr.setLct(s, i, nl)
				changed = true
			}
		}
	}
	return changed, true
}
