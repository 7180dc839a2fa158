package dag

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// GA parameters (Hartmann, "A competitive genetic algorithm for
// resource-constrained project scheduling", Naval Research Logistics 45,
// 1998, with forward–backward improvement of every child as in Valls,
// Ballestín & Quintanilla, EJOR 2005).
const (
	gaPopulation = 40
	gaMutation   = 0.05 // per-position probability of an adjacent swap
	gaAlpha      = 1.0  // regret-based sampling exponent for the initial population
	// gaPeak is the probability that a pair of parents is crossed by the
	// peak crossover (ga_peak.go) rather than Hartmann's; its window is
	// gaPeakMin to gaPeakMax of the mother's makespan, drawn uniformly.
	gaPeak    = 0.75
	gaPeakMin = 0.1
	gaPeakMax = 0.5
	// gaDistinct is the percentage of tasks whose start times must differ
	// for two schedules of equal makespan to count as two in survive;
	// closer ones count as one, so near-copies of the best do not fill
	// the population (on the 60 ProGen J120 projects of seed 1000·P + 1,
	// seeds 1–8: 33.088% → 33.009% above the critical path on average,
	// shorter with 6 of the 8 seeds; docs/dag/measurements.md).
	gaDistinct = 30
)

// individual is one activity list with the start times and makespan of
// its decoded, justified schedule.
type individual struct {
	list  []int
	start []int64
	ms    int64
}

// gaRun evolves activity lists until the budget is spent or the target is
// reached, reporting each schedule built to the tracker. Genes are
// precedence-feasible lists decoded by the serial SGS; every child is
// improved by Justify and its list replaced by the justified start order
// (Lamarckian). A pair of parents is crossed, with probability gaPeak,
// by the peak crossover (peakSpace.crossover; each parent's densest
// window of its schedule kept within the other's order), otherwise by
// Hartmann's two-point operator: positions [0,q1) from the mother,
// [q1,q2) from the father in his order, the rest from the mother, each
// skipping tasks already taken. Both keep precedence feasibility. On the
// 60 ProGen J120 projects of seed 1000·P + 1 the peak crossover takes
// Best from 33.39% to 33.09% above the critical path, mean of seeds 1–8,
// shorter on average with every seed (docs/dag/measurements.md).
// Mutation swaps adjacent tasks that are not precedence-related. Survival
// keeps the best of parents and children (ties: the older), each schedule
// once, near-copies of equal makespan counting as one (survive).
func gaRun(d *DAG, machines [][]float64, rng *rand.Rand, tr *tracker, seeds []*Schedule) {
	prio := Priority(d, LFT, 0, rng)
	j := newJustifier(d, machines)
	var pop []individual
	add := func(list []int) bool {
		ind := decode(j, list, tr)
		pop = append(pop, ind)
		return !tr.done()
	}
	for _, s := range seeds {
		if !add(startOrder(d, s)) {
			return
		}
	}
	for len(pop) < gaPopulation {
		if !add(SampleList(d, prio, gaAlpha, rng)) {
			return
		}
	}
	pop = survive(pop)
	taken := make([]bool, d.N())
	ps := newPeakSpace(d, machines)
	for !tr.done() {
		perm := rng.Perm(len(pop))
		var kids []individual
		for i := 0; i+1 < len(perm) && !tr.done(); i += 2 {
			mom, dad := pop[perm[i]], pop[perm[i+1]]
			q1, q2 := rng.IntN(d.N()+1), rng.IntN(d.N()+1)
			if q1 > q2 {
				q1, q2 = q2, q1
			}
			peak := rng.Float64() < gaPeak
			for _, pair := range [][2]individual{{mom, dad}, {dad, mom}} {
				var child []int
				if peak {
					m := pair[0]
					l := max(1, int64((gaPeakMin+(gaPeakMax-gaPeakMin)*rng.Float64())*float64(m.ms)))
					var w int64
					child, w = ps.crossover(d, m.list, m.start, pair[1].list, l)
					tr.charge(w)
				} else {
					child = crossover(pair[0].list, pair[1].list, q1, q2, taken)
				}
				mutate(d, child, rng)
				kids = append(kids, decode(j, child, tr))
				if tr.done() {
					break
				}
			}
		}
		pop = append(pop, kids...)
		pop = survive(pop)
	}
}

// survive keeps the gaPopulation best of pop, each schedule once while
// there are enough distinct ones: copies of one schedule would otherwise
// fill the population and stop the search. Two individuals count as one
// schedule when their makespans are equal and fewer than gaDistinct
// percent of the tasks start at different times (same).
func survive(pop []individual) []individual {
	sortPop(pop)
	out := make([]individual, 0, gaPopulation)
	var dup []individual
	for _, ind := range pop {
		if slices.ContainsFunc(out, func(o individual) bool { return same(o, ind) }) {
			dup = append(dup, ind)
			continue
		}
		out = append(out, ind)
		if len(out) == gaPopulation {
			return out
		}
	}
	return append(out, dup[:gaPopulation-len(out)]...)
}

// same reports whether a and b count as one schedule in survive: equal
// makespans, and fewer than gaDistinct percent of the tasks starting at
// different times.
func same(a, b individual) bool {
	if a.ms != b.ms {
		return false
	}
	limit, diff := gaDistinct*len(a.start), 0
	for i, x := range a.start {
		if x != b.start[i] {
			if diff += 100; diff >= limit {
				return false
			}
		}
	}
	return true
}

// sortPop orders by makespan, stably (older individuals first on ties).
func sortPop(pop []individual) {
	slices.SortStableFunc(pop, func(a, b individual) int { return cmp.Compare(a.ms, b.ms) })
}

// decode schedules a list with the serial SGS, justifies it and returns
// the individual with its list set to the justified start order. Both
// schedules are j's buffers (the tracker copies the one it keeps).
func decode(j *justifier, list []int, tr *tracker) individual {
	d, s := j.d, j.sgs
	j.fwd.reset()
	serialListWith(d, j.fwd, list, nil, forward, 0, s, j.st)
	tr.charge(j.fwd.work + d.passWork())
	tr.offer(s, "ga")
	js, w := j.run(s, false)
	tr.charge(w)
	tr.offer(js, "ga+fbi")
	return individual{list: startOrder(d, js), start: slices.Clone(js.Start), ms: js.Makespan()}
}

// startOrder returns the tasks by start time (ties: end, topological
// order): a precedence-feasible list that the serial SGS decodes to a
// schedule at least as short as s on one machine.
func startOrder(d *DAG, s *Schedule) []int {
	list := d.allTasks()
	sortByStart(d, list, s)
	return list
}

// crossover is Hartmann's two-point crossover; taken is scratch space.
func crossover(mom, dad []int, q1, q2 int, taken []bool) []int {
	clear(taken)
	child := make([]int, 0, len(mom))
	take := func(src []int, upto int) {
		for _, v := range src {
			if len(child) == upto {
				return
			}
			if !taken[v] {
				taken[v] = true
				child = append(child, v)
			}
		}
	}
	take(mom, q1)
	take(dad, q2)
	take(mom, len(mom))
	return child
}

// mutate swaps adjacent tasks with probability gaMutation when the first
// is not a predecessor of the second.
func mutate(d *DAG, list []int, rng *rand.Rand) {
	for i := 0; i+1 < len(list); i++ {
		if rng.Float64() >= gaMutation {
			continue
		}
		if _, dep := slices.BinarySearch(d.Succs(list[i]), list[i+1]); !dep {
			list[i], list[i+1] = list[i+1], list[i]
		}
	}
}
