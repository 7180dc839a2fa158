package dag

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"
)

// Result is a schedule with its evidence.
type Result struct {
	Schedule *Schedule
	// Makespan of Schedule (it starts at 0).
	Makespan int64
	// Method names the scheduler that produced it ("graphene",
	// "psgs-lft+fbi", "ga+fbi", "lcg", …).
	Method string
	// Bounds are the lower bounds; Gap = Makespan/Bounds.Best − 1 (0 when
	// the bound is 0).
	Bounds Bounds
	Gap    float64
	// Optimal is true when Makespan equals a lower bound, and ProvedBy
	// then names that bound (Bounds.BestBy; "" when not optimal).
	Optimal  bool
	ProvedBy string
	// Schedules counts the schedules built by the heuristics.
	Schedules int
	// WorkUsed is the work spent, in the units of DefaultMaxWork.
	WorkUsed int64
	// TimeLimitHit is true when Options.TimeLimit stopped the search
	// (the result then depends on machine speed).
	TimeLimitHit bool
	// Seed is Options.Seed, recorded for replay.
	Seed uint64
}

// tracker keeps the best schedule of one worker and spends its budget.
type tracker struct {
	best   *Schedule
	ms     int64
	method string
	target int64 // a lower bound: reaching it ends the worker
	b      *budget
	passes int
}

// offer records a schedule built (its work is charged separately),
// keeping a copy when it is the shortest so far: callers reuse theirs.
func (t *tracker) offer(s *Schedule, method string) {
	t.passes++
	if ms := s.Makespan(); t.best == nil || ms < t.ms {
		t.best, t.ms, t.method = s.Clone(), ms, method
	}
}

// charge spends w work units.
func (t *tracker) charge(w int64) { t.b.spend(w) }

// done reports whether the target is met or the budget spent.
func (t *tracker) done() bool {
	if t.best != nil && t.ms <= t.target {
		return true
	}
	return t.b.done()
}

// Shares of the budget (see Best).
const (
	constructShare = 0.10
	boundShare     = 0.20
	// searchLimit is the largest DAG the searches run on (the learning
	// search in Best; it and the exact search in AllBounds).
	searchLimit = 120
	// smallSearch is the largest DAG on which the searches get most
	// of the improvement phase even with a gap above one (see improve) and
	// the LP test's share of step 2 (on PSPLIB J30, 32 tasks, the LP test
	// never raised the best bound; with these shares Best proves 459 of
	// the 480 optimal at the default budget).
	smallSearch = 48
	// wideGap is the gap between the constructed schedule and the bound,
	// relative to the bound, above which Best gives the climb a third of
	// its usual share and the descent none (improve).
	wideGap = 0.1
	// islands is the number of genetic-algorithm populations of the
	// improvement phase. It is fixed, not the number of cores, so that the
	// result does not depend on the machine.
	islands = 2
	// epochs is the number of lockstep epochs the parallel phase is cut
	// into: how often its workers compare notes to stop early.
	epochs = 64
	// boundPace is how many epochs of work step 2's bounds do per epoch of
	// the islands while they run beside them: a unit of the bounds takes
	// about half the time of an island's, so at this pace, on 2 cores, the
	// bounds keep one core while the islands take turns on the other (on
	// ProGen J120 projects, 0.84 s mean per project against 0.98 s with
	// the bounds run first; at pace 1.6, 0.85 s; docs/dag/measurements.md).
	boundPace = 4
)

// Best schedules d on machines as well as the toolkit can within the work
// budget o.MaxWork (default DefaultMaxWork, SearchWork on DAGs small
// enough for the searches) and proves what it can. It
// stops as soon as a schedule meets a lower bound:
//
//  1. Construction (≤ 10% of the budget): Graphene (§3.3) and the
//     single-pass methods, strongest first, each also improved by
//     forward–backward improvement (Justify); the first four always run.
//  2. Bounds (≤ 20%): destructive improvement by propagation and shaving
//     (EnergeticLB) on DAGs up to taskBoundLimit tasks, at stage level
//     (StageLB) on DAGs in stages, then the LP test (LPLB) on DAGs of
//     more than smallSearch tasks (on smaller ones the search of step 3
//     refutes what it would, and gets its share).
//  3. Search and improvement: islands populations of a genetic algorithm
//     over activity lists with justification of every child (see gaRun),
//     each with its own random stream from o.Seed, start beside step 2;
//     when step 2 ends, on DAGs up to searchLimit tasks, the search with
//     nogood learning (lcg) top down (proving the best makespan optimal)
//     and bottom up (raising the bound, finding an optimal schedule
//     there; it builds schedules backward, which refutes more on its
//     short share) join them. All stop when the best bound meets the best
//     makespan.
//
// Steps 2 and 3 run in parallel on up to o.Workers cores but in lockstep
// epochs of fixed work (improve), so the result does not depend on the
// cores.
//
// The result is deterministic given o.Seed, whatever GOMAXPROCS and
// o.Workers, unless TimeLimit binds (Result.TimeLimitHit). It returns a
// *NoFitError when some task fits no machine.
func Best(d *DAG, machines [][]float64, o Options) (*Result, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	bud := newBudget(o, d.N(), d.passWork())
	b := LowerBounds(d, machines)
	// Step 1.
	cons := &tracker{target: b.Best, b: bud.child(int64(constructShare * float64(bud.max)))}
	seeds := construct(d, machines, o, cons)
	bud.merge(cons.b)
	win := cons
	// Steps 2 and 3.
	var p *problem
	if d.N() > 0 && d.N() <= taskBoundLimit {
		p = newProblem(d, machines)
	}
	passes := cons.passes
	if win.ms > b.Best && !bud.done() {
		win, passes = improve(d, machines, o, &b, p, win, seeds, bud, passes)
	}
	s := win.best.Clone()
	s.Normalize()
	r := &Result{Schedule: s, Makespan: s.Makespan(), Method: win.method, Bounds: b, Schedules: passes,
		WorkUsed: bud.used, TimeLimitHit: bud.timeHit, Seed: o.Seed}
	r.Gap = Gap(r.Makespan, b.Best)
	r.Optimal = r.Makespan == b.Best
	if r.Optimal {
		r.ProvedBy = b.BestBy
	}
	return r, nil
}

// construct is step 1 of Best: it returns the justified schedules, the
// seeds of the genetic algorithm.
func construct(d *DAG, machines [][]float64, o Options, tr *tracker) []*Schedule {
	var seeds []*Schedule
	for k, name := range stepOneOrder() {
		if k >= firstMethods && tr.done() || tr.best != nil && tr.ms <= tr.target {
			break
		}
		s := methods[name].run(d, machines, o)
		tr.charge(2 * d.passWork()) // about a pass; the methods do not count their work
		tr.offer(s, name)
		j, w := justify(d, machines, s, true)
		tr.charge(w)
		tr.offer(j, name+"+fbi")
		seeds = append(seeds, j)
	}
	sortSchedules(seeds)
	return seeds
}

// improve runs steps 2 and 3 of Best in one lockstep: the bounds of step
// 2 (strengthen) beside the genetic-algorithm islands, and, from the epoch
// after the bounds return, the search workers. The searches' shares are
// planned then, from the bound step 2 reached, as if the islands had not
// started: each gets the part of what step 2 left that it would get after
// a step 2 run alone, and the islands the rest, the work they already did
// included. So every worker gets the same work as when step 2 ran first,
// and the islands no longer wait for it: on 2 cores the bounds had one
// core to themselves for a quarter of a ProGen J120 project's time. Step
// 2 runs at boundPace epochs per barrier, so the islands spend a quarter
// of its work each beside it. It returns the best worker (the given one
// unless a worker found a shorter schedule) and the schedules built.
func improve(d *DAG, machines [][]float64, o Options, b *Bounds, p *problem, win *tracker, seeds []*Schedule,
	bud *budget, passes int) (*tracker, int) {
	total := bud.left()
	boundWork := min(total, int64(boundShare*float64(bud.max)))
	shares := []int64{boundWork}
	for i := range islands {
		shares = append(shares, islandShare(total-boundWork, i))
	}
	const firstIsland = 1
	search := p != nil && p.n <= searchLimit
	var down, up *searchResult
	downAt, upAt := -1, -1
	boundsDone := false // written by worker 0 before it finishes
	isl := make([]*tracker, islands)
	var ls *lockstep
	// plan starts the searches once step 2 has returned (the lock held).
	plan := func(ub int64) {
		left := float64(total - ls.workers[0].used)
		sDown, sUp := searchShares(p, b.Best, min(win.ms, ub), left)
		var spent int64
		for i := range isl {
			spent += ls.workers[firstIsland+i].used
		}
		avail := max(0, int64(left)-spent)
		sDown = min(sDown, avail)
		sUp = min(sUp, avail-sDown)
		rest := avail - sDown - sUp
		for i := range isl {
			w := ls.workers[firstIsland+i]
			w.max = w.used + islandShare(rest, i)
		}
		down = &searchResult{lb: b.Best, ub: win.ms, elsewhere: ub}
		up = &searchResult{lb: b.Best, ub: win.ms, elsewhere: ub}
		downAt, upAt = len(ls.workers), len(ls.workers)+1 // before the workers start
		ls.add(sDown)
		ls.add(sUp)
	}
	// verdict stops every worker once a bound meets a makespan; it reads
	// only what the workers published before the barrier, and tells the
	// searches the least makespan found (a schedule on the machines is one
	// of the pooled relaxation, so each search may stop testing above it).
	verdict := func() bool {
		lb, ub := b.Best, win.ms
		for _, t := range isl {
			if t.best != nil {
				ub = min(ub, t.ms)
			}
		}
		if lb >= ub {
			return true
		}
		if search && boundsDone && down == nil {
			plan(ub)
		}
		if down != nil {
			lb = max(lb, down.lb, up.lb)
			pooled := min(ub, down.ub, up.ub)
			down.elsewhere, up.elsewhere = pooled, pooled
			if p.exact {
				ub = pooled
			}
			// lcgDown then gets the budget the others no longer need:
			// lcgUp's once it has returned, and, on an exact problem
			// with a gap of one, the islands' (a schedule at the bound,
			// all they could still find, is what lcgDown tests for).
			if !down.finished && lb < ub {
				if up.finished {
					ls.transfer(upAt, downAt)
				}
				if p.exact && ub-lb <= 1 {
					for i := range isl {
						ls.transfer(firstIsland+i, downAt)
					}
				}
			}
		}
		return lb >= ub
	}
	limit := o.Workers
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	ls = newLockstep(bud, shares, max(1, total/epochs), limit, verdict)
	ls.pace(0, boundPace)
	for i := range isl {
		isl[i] = &tracker{target: b.Best, b: ls.workers[firstIsland+i]}
	}
	ls.run(bud, func(i int, wb *budget) {
		switch {
		case i == 0:
			strengthen(d, machines, b, p, win.ms, wb, 7, p != nil && p.n > smallSearch, nil)
			boundsDone = true
		case i == downAt:
			lcgDown(p, down, wb)
		case i == upAt:
			lcgUp(p, up, win.ms-1, wb, backward, false)
		default:
			k := i - firstIsland
			rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15+uint64(k)))
			gaRun(d, machines, rng, isl[k], seeds[:min(len(seeds), gaPopulation/4)])
		}
	})
	// Collect, in a fixed order: search schedules, then the islands.
	if down != nil {
		b.LCG = max(down.lb, up.lb)
		b.raise("lcg")
		b.addWork("lcg", ls.workers[downAt].used+ls.workers[upAt].used)
		for _, r := range []*searchResult{down, up} {
			if r.start == nil {
				continue
			}
			if s := assign(d, machines, r.start); s != nil && s.Makespan() < win.ms {
				win = &tracker{best: s, ms: s.Makespan(), method: "lcg"}
			}
		}
	}
	for _, t := range isl {
		passes += t.passes
		if t.best != nil && t.ms < win.ms {
			win = t
		}
	}
	return win, passes
}

// islandShare is island i's part of w work units split evenly among the
// islands, the last taking the remainder.
func islandShare(w int64, i int) int64 {
	if i == islands-1 {
		return w - w/islands*(islands-1)
	}
	return w / islands
}

// searchShares returns the shares of the searches of Best (lcgDown's and
// lcgUp's) in left, the work step 2 left, given the best bound lb and the
// least makespan ub known when step 2 returns (the islands' best by then,
// not only construction's). lcgUp stops below ub − 1, the makespan lcgDown
// tests first; with a gap of one it has nothing to do, and the islands can
// only help by finding a schedule at the bound, which the search also
// finds, so the search gets most of the budget. On small DAGs the search
// proves most makespans optimal and takes the larger share; on larger ones
// the islands keep more, and most when construction leaves the best
// schedule more than wideGap above the bound: the searches rarely close
// such a gap within the budget, while the islands' schedules keep
// improving (on ProGen J120 projects, a third of the usual search shares
// gives schedules 0.41% shorter on average and none longer; on PSPLIB J60
// 0.410% above the best known instead of 0.425%, with as many proofs).
// There the descent, which tests one makespan below the best, gets
// nothing: since survival counts near-copies as one, its share does more
// in the islands (ProGen J120, seeds 1–4: 32.989% → 32.948% above the
// critical path, shorter with each seed; the same proofs on PSPLIB J60;
// docs/dag/measurements.md). Between the two, the descent gets more than
// the climb: its tests below the best makespan find shorter schedules
// too, while the climb only raises the bound (ProGen J120, seeds 1–4:
// 32.901% → 32.863% above the critical path, shorter with each seed,
// with the climb's share cut from 0.25 to 0.1 and the islands' best as
// ub; PSPLIB J60:
// 347 published bounds reached instead of 345, 393 proofs instead of
// 391; docs/dag/measurements.md).
func searchShares(p *problem, lb, ub int64, left float64) (down, up int64) {
	switch {
	case ub-lb <= 1:
		return int64(0.8 * left), 0
	case p.n <= smallSearch:
		return int64(0.8 * left), int64(0.1 * left)
	case float64(ub-lb) > wideGap*float64(lb):
		return 0, int64(0.25 / 3 * left)
	default:
		return int64(0.35 * left), int64(0.1 * left)
	}
}

// assign turns start times found on the pooled relaxation into a schedule
// on the machines: tasks in start order, each on the first machine where
// it fits throughout its run. It returns nil when some task fits nowhere
// or the schedule fails Check.
func assign(d *DAG, machines [][]float64, start []int64) *Schedule {
	s := NewSchedule(d.N())
	sp := NewSpace(machines)
	order := d.allTasks()
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(start[a], start[b]) })
	for _, v := range order {
		t := &d.Tasks[v]
		m := -1
		for c := range machines {
			if t.Duration == 0 || sp.EarliestFit(c, t.Demand, t.Duration, start[v], start[v]+1) == start[v] {
				m = c
				break
			}
		}
		if m < 0 {
			return nil
		}
		sp.Place(m, t.Demand, start[v], t.Duration)
		s.Start[v], s.End[v], s.Machine[v] = start[v], start[v]+t.Duration, m
	}
	if len(Check(d, machines, s)) > 0 {
		return nil
	}
	return s
}

// strengthen is step 2 of Best (and the core of AllBounds): it raises b
// with the destructive bounds below ub, a known makespan, within bud: the
// stage bound with a tenth, the energetic bound with share tenths of the
// rest, then (withLP) the LP test with what is left. When el is not nil
// it records the wall-clock time of each bound run.
func strengthen(d *DAG, machines [][]float64, b *Bounds, p *problem, ub int64, bud *budget, share int64, withLP bool,
	el map[string]time.Duration) {
	run := func(name string, share int64, f func(*budget) int64) { b.run(name, bud, share, el, f) }
	if d.stageTopo != nil && len(d.Stages) < d.N() {
		run("stage", bud.left()/10, func(cb *budget) int64 { return stageBound(d, machines, b.Best, ub, cb) })
	}
	if p == nil || b.Best >= ub {
		return
	}
	run("energetic", bud.left()*share/10, func(cb *budget) int64 { return energeticBound(p, b.Best, ub, cb) })
	if !withLP || p.n > lpLimit || b.Best >= ub || bud.done() {
		return
	}
	run("lp", bud.left(), func(cb *budget) int64 { return lpClimb(p, b.Best, ub, cb) })
}

// firstMethods is the number of step-one methods Best always runs.
const firstMethods = 4

// preferred lists the step-one methods strongest first (by their J30
// results); the other methods follow in name order.
var preferred = []string{"graphene", "psgs-lft", "cp", "tetris", "ssgs-lst", "ssgs-lft", "psgs-mts", "cg"}

func stepOneOrder() []string {
	out := append([]string(nil), preferred...)
	for _, n := range Methods() {
		if !slices.Contains(preferred, n) {
			out = append(out, n)
		}
	}
	return out
}

// sortSchedules orders schedules by makespan, stably.
func sortSchedules(ss []*Schedule) {
	slices.SortStableFunc(ss, func(a, b *Schedule) int { return cmp.Compare(a.Makespan(), b.Makespan()) })
}
