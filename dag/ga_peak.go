package dag

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// The peak crossover of the genetic algorithm (gaRun), after Valls,
// Ballestín & Quintanilla ("A hybrid genetic algorithm for the
// resource-constrained project scheduling problem", EJOR 185, 2008): a
// good schedule has stretches where the resources are well used, and a
// child that keeps one of them whole, in the order that built it, inherits
// what the two-point crossover cuts through at random positions.

// peakSpace holds what the peak crossover reuses across children: each
// task's share of the machines' capacity, the utilisation profile and its
// scratch.
type peakSpace struct {
	share []float64 // mean over resources of demand / total capacity
	ev    []peakEvent
	at    []int64   // breakpoints
	rate  []float64 // utilisation on [at[j], at[j+1])
	cum   []float64 // integral up to at[j]
	delta []float64 // profile's tick-by-tick changes
	mark  []bool
}

// peakEvent is a change of the utilisation at time t by w.
type peakEvent struct {
	t int64
	w float64
}

// newPeakSpace returns the peak crossover's space for d on machines: a
// task's share is its demand over the machines' total capacity, averaged
// over the resources (Valls et al.'s resource utilisation ratio); tasks of
// zero duration use nothing.
func newPeakSpace(d *DAG, machines [][]float64) *peakSpace {
	caps := make([]float64, d.K())
	for _, m := range machines {
		for k := range caps {
			caps[k] += m[k]
		}
	}
	ps := &peakSpace{share: make([]float64, d.N())}
	for i, t := range d.Tasks {
		if t.Duration == 0 {
			continue
		}
		for k, c := range caps {
			if c > 0 {
				ps.share[i] += t.Demand[k] / c
			}
		}
		ps.share[i] /= float64(max(1, len(caps)))
	}
	return ps
}

// peak returns the start t1 of the window [t1, t1+l) in which the schedule
// of the given starts uses the most capacity, the earliest of the best, no
// earlier than the first start of a task using any; it also returns the
// work spent.
func (ps *peakSpace) peak(d *DAG, start []int64, l int64) (int64, int64) {
	work := ps.profile(d, start)
	at, rate, cum := ps.at, ps.rate, ps.cum
	if len(at) == 0 {
		return 0, work
	}
	// The best window starts at a breakpoint or ends at one. Both lists
	// of window starts are increasing, so one cursor per end walks them.
	best, bt := -1.0, at[0]
	for _, shift := range []int64{0, l} {
		var lo, hi cursor
		for _, b := range at {
			t := max(b-shift, at[0])
			v := hi.integral(at, rate, cum, t+l) - lo.integral(at, rate, cum, t)
			if v > best+1e-12 || v > best-1e-12 && t < bt {
				best, bt = v, t
			}
		}
		work += int64(2 * len(at))
	}
	return bt, work
}

// profile sets at, rate and cum to the capacity start's schedule uses:
// rate[j] on [at[j], at[j+1]), cum[j] up to at[j]. When the schedule spans
// few ticks per task (PSPLIB projects) it adds the changes tick by tick,
// otherwise it sorts them; both give the same breakpoints. It returns the
// work spent.
func (ps *peakSpace) profile(d *DAG, start []int64) int64 {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	n := 0
	for i, t := range d.Tasks {
		if ps.share[i] > 0 {
			lo, hi = min(lo, start[i]), max(hi, start[i]+t.Duration)
			n++
		}
	}
	at, rate, cum := ps.at[:0], ps.rate[:0], ps.cum[:0]
	defer func() { ps.at, ps.rate, ps.cum = at, rate, cum }()
	if n == 0 {
		return 0
	}
	// step changes the utilisation by dr at t, t no earlier than the last
	// breakpoint.
	var r, c float64
	step := func(t int64, dr float64) {
		r += dr
		j := len(at) - 1
		if j >= 0 && at[j] == t {
			rate[j] = r
			return
		}
		if j >= 0 {
			c += rate[j] * float64(t-at[j])
		}
		at, rate, cum = append(at, t), append(rate, r), append(cum, c)
	}
	if span := hi - lo; span <= denseTicks*int64(n) {
		delta, mark := ps.delta[:0], ps.mark[:0]
		for range span + 1 {
			delta, mark = append(delta, 0), append(mark, false)
		}
		for i, t := range d.Tasks {
			if w := ps.share[i]; w > 0 {
				s, e := start[i]-lo, start[i]+t.Duration-lo
				delta[s] += w
				delta[e] -= w
				mark[s], mark[e] = true, true
			}
		}
		ps.delta, ps.mark = delta, mark
		for k, m := range mark {
			if m {
				step(lo+int64(k), delta[k])
			}
		}
		return int64(2*n) + span
	}
	ev := ps.ev[:0]
	for i, t := range d.Tasks {
		if w := ps.share[i]; w > 0 {
			ev = append(ev, peakEvent{start[i], w}, peakEvent{start[i] + t.Duration, -w})
		}
	}
	slices.SortFunc(ev, func(a, b peakEvent) int { return cmp.Compare(a.t, b.t) })
	ps.ev = ev
	for _, e := range ev {
		step(e.t, e.w)
	}
	return int64(2*len(ev)) * int64(bits.Len(uint(len(ev))))
}

// cursor evaluates the integral of a piecewise-constant rate at
// nondecreasing times.
type cursor struct{ j int }

func (c *cursor) integral(at []int64, rate, cum []float64, t int64) float64 {
	for c.j+1 < len(at) && at[c.j+1] <= t {
		c.j++
	}
	if t < at[c.j] {
		return 0
	}
	return cum[c.j] + rate[c.j]*float64(t-at[c.j])
}

// crossover returns a child that keeps the tasks the mother starts in her
// peak window [t1, t1+l) in her order (momList is her start order),
// preceded by the tasks she starts before t1 and followed by the rest, both
// in dad's order. The tasks starting before t1, and those before t1+l, are
// closed under predecessors (a task starts no earlier than its
// predecessors), so the child is precedence-feasible when dad is. It also
// returns the work spent.
func (ps *peakSpace) crossover(d *DAG, momList []int, momStart []int64, dad []int, l int64) ([]int, int64) {
	t1, work := ps.peak(d, momStart, l)
	t2 := t1 + l
	child := make([]int, 0, len(dad))
	for _, v := range dad {
		if momStart[v] < t1 {
			child = append(child, v)
		}
	}
	for _, v := range momList {
		if s := momStart[v]; s >= t1 && s < t2 {
			child = append(child, v)
		}
	}
	for _, v := range dad {
		if momStart[v] >= t2 {
			child = append(child, v)
		}
	}
	return child, work
}
