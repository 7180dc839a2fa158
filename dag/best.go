package dag

import (
	"math/rand/v2"
	"slices"
)

// Result is a schedule with its evidence.
type Result struct {
	Schedule *Schedule
	// Makespan of Schedule (it starts at 0).
	Makespan int64
	// Method names the scheduler that produced it ("graphene",
	// "psgs-lft+fbi", "ga+fbi", …).
	Method string
	// Bounds are the lower bounds; Gap = Makespan/Bounds.Best − 1 (0 when
	// the bound is 0).
	Bounds Bounds
	Gap    float64
	// Optimal is true when Makespan equals a lower bound.
	Optimal bool
	// Schedules counts the schedule generation passes spent (a
	// forward–backward round counts as two).
	Schedules int
	// WorkUsed is the work spent, in the units of DefaultMaxWork.
	WorkUsed int64
	// TimeLimitHit is true when Options.TimeLimit stopped the search
	// (the result then depends on machine speed).
	TimeLimitHit bool
	// Seed is Options.Seed, recorded for replay.
	Seed uint64
}

// tracker keeps the best schedule and spends the budget: each schedule
// generation pass costs pass work units.
type tracker struct {
	best   *Schedule
	ms     int64
	method string
	target int64
	b      *budget
	pass   int64 // work of one pass
	passes int
}

func (t *tracker) offer(s *Schedule, method string) {
	t.count(1)
	if ms := s.Makespan(); t.best == nil || ms < t.ms {
		t.best, t.ms, t.method = s, ms, method
	}
}

// count records n schedule generation passes.
func (t *tracker) count(n int) {
	t.passes += n
	t.b.spend(int64(n) * t.pass)
}

// done reports whether the target is met or the budget spent.
func (t *tracker) done() bool {
	if t.best != nil && t.ms <= t.target {
		return true
	}
	return t.b.done()
}

// Best schedules d on machines as well as the toolkit can within the
// budget, and reports the gap to the lower bounds. It runs, in order,
// stopping as soon as a schedule meets the best lower bound:
//
//  1. Graphene (§3.3) and the single-pass methods: the baselines and the
//     serial and parallel SGS with each priority rule, strongest first;
//     each result is also improved by forward–backward improvement
//     (Justify). The first four always run; the rest while budget lasts.
//  2. A genetic algorithm over activity lists with justification of every
//     child (see gaRun), seeded with the best schedules of step 1, until
//     o.MaxWork work units are spent (see DefaultMaxWork) or o.TimeLimit
//     passes.
//
// The result is deterministic given o.Seed, whatever GOMAXPROCS and
// o.Workers, unless TimeLimit binds (Result.TimeLimitHit). It returns a
// *NoFitError when some task fits no machine.
func Best(d *DAG, machines [][]float64, o Options) (*Result, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	b := LowerBounds(d, machines)
	pass := d.passWork()
	tr := &tracker{target: b.Best, b: newBudget(o, pass), pass: pass}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	// Step 1: the single-pass methods, each also justified, the strongest
	// first; the first firstMethods run whatever the budget.
	var seeds []*Schedule
	for k, name := range stepOneOrder() {
		if k >= firstMethods && tr.done() || tr.best != nil && tr.ms <= tr.target {
			break
		}
		s := methods[name].run(d, machines, o)
		tr.offer(s, name)
		j, rounds := justifyCount(d, machines, s)
		tr.count(2*rounds - 1)
		tr.offer(j, name+"+fbi")
		seeds = append(seeds, j)
	}
	// Step 2: the genetic algorithm, seeded with the shortest of step 1.
	if tr.ms > tr.target && !tr.done() {
		sortSchedules(seeds)
		gaRun(d, machines, rng, tr, seeds[:min(len(seeds), gaPopulation/4)])
	}
	s := tr.best.Clone()
	s.Normalize()
	r := &Result{Schedule: s, Makespan: s.Makespan(), Method: tr.method, Bounds: b, Schedules: tr.passes,
		WorkUsed: tr.b.used, TimeLimitHit: tr.b.timeHit, Seed: o.Seed}
	r.Gap = Gap(r.Makespan, b.Best)
	r.Optimal = r.Makespan == b.Best
	return r, nil
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
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && ss[j].Makespan() < ss[j-1].Makespan(); j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
}
