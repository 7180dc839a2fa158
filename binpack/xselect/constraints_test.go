package xselect

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestBruteForceConstrained compares λ with exhaustive search on 400 tiny
// instances with MaxPerNode, Colocate and Exlocate rules (seed 2). Every
// plan must pass Check and hold its required set; λ above the exact
// optimum would mean an invalid probe was accepted, λ above LambdaUpper
// or the exact optimum above LambdaUpper a wrong bound. The shortfall is
// logged and must stay under 10% of the instances.
func TestBruteForceConstrained(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 0))
	const trials = 400
	short, sumRel, rules, loose := 0, 0.0, 0, 0
	for i := range trials {
		p := randomConstrained(rng)
		plan, err := Solve(p, Options{Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		checkRequired(t, p, plan)
		want := bruteLambda(p)
		if len(p.Colocate)+len(p.Exlocate) > 0 {
			rules++
		}
		if want < plan.LambdaUpper {
			loose++
		}
		if plan.Lambda > want+1e-12 {
			t.Fatalf("trial %d: λ=%v above the exact optimum %v\n%+v", i, plan.Lambda, want, p)
		}
		if plan.LambdaUpper < want {
			t.Fatalf("trial %d: LambdaUpper %v below the exact optimum %v", i, plan.LambdaUpper, want)
		}
		if plan.Lambda < want-1e-12 {
			short++
			sumRel += (want - plan.Lambda) / want
			t.Logf("trial %d: λ=%v < exact %v (colocate %v, exlocate %v)", i, plan.Lambda, want, p.Colocate, p.Exlocate)
		}
	}
	t.Logf("%d/%d instances short of the exact λ (%d with pair rules, %d where the exact λ is below LambdaUpper); mean relative shortfall over all %.4f",
		short, trials, rules, loose, sumRel/trials)
	if short > trials/10 {
		t.Errorf("%d/%d instances short of the exact λ", short, trials)
	}
}

// TestRandomRules solves 100 medium instances with every kind of rule
// (generateRules at 15–50 nodes, seeds 10..109) under varied options
// (small improvement budgets, no top-up, incremental from a random plan)
// and checks every plan independently.
func TestRandomRules(t *testing.T) {
	for i := range 100 {
		seed := uint64(10 + i)
		rng := rand.New(rand.NewPCG(seed, 7))
		nodes := 15 + rng.IntN(36)
		p := generateRules(seed, nodes, nodes*(8+rng.IntN(8)))
		opt := Options{Seed: seed, NoTopUp: rng.IntN(4) == 0}
		if rng.IntN(3) == 0 {
			opt.ImproveVisits = 1 + rng.IntN(5000)
		}
		plan, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkRequired(t, p, plan)
		if rng.IntN(2) == 0 {
			from := randomFrom(rng, p)
			phi := rng.Float64()
			plan, err := Solve(p, Options{Seed: seed, From: from, Mutable: phi})
			if errors.Is(err, ErrTooManyInvalid) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			checkIncremental(t, p, from, phi, plan)
		}
	}
}

// TestDeterministicSeeds: equal seeds give equal plans; other seeds give
// valid plans (the perturbations differ, the result may too).
func TestDeterministicSeeds(t *testing.T) {
	p := generateRules(2, 150, 1900)
	a, err := Solve(p, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Solve(p, Options{Seed: 1})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with seed 1 differ")
	}
	checkRequired(t, p, a)
	differ := 0
	for seed := uint64(2); seed < 6; seed++ {
		c, _ := Solve(p, Options{Seed: seed})
		checkRequired(t, p, c)
		if !reflect.DeepEqual(a.Nodes, c.Nodes) {
			differ++
		}
	}
	t.Logf("%s; %d/4 other seeds gave other plans", a, differ)
	q := *p // the previous plan served other mixes
	q.Apps = slices.Clone(p.Apps)
	for a := range q.Apps {
		q.Apps[a].Mix = slices.Clone(p.Apps[a].Mix)
		for k := range q.Apps[a].Mix {
			q.Apps[a].Mix[k] *= 0.5 + float64(a%3)/2
		}
	}
	prev, _ := Solve(&q, Options{})
	x, err1 := Solve(p, Options{Seed: 3, From: prev.Nodes, Mutable: 0.3})
	y, err2 := Solve(p, Options{Seed: 3, From: prev.Nodes, Mutable: 0.3})
	if err1 != nil || err2 != nil || !reflect.DeepEqual(x, y) {
		t.Fatalf("incremental runs differ (%v, %v)", err1, err2)
	}
	checkIncremental(t, p, prev.Nodes, 0.3, x)
	t.Log(x)
}

// TestTimeLimit: a time limit that has passed before the first probe
// (1 ns) stops the search there: λ = 0, TimeLimitHit, and in incremental
// mode the plan is From.
func TestTimeLimit(t *testing.T) {
	p := generate(3, 40, 400)
	plan, err := Solve(p, Options{TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Probes != 0 || plan.Lambda != 0 || !plan.TimeLimitHit {
		t.Fatalf("past time limit: %v", plan)
	}
	checkRequired(t, p, plan)
	prev, _ := Solve(p, Options{})
	if prev.TimeLimitHit || prev.WorkUsed <= 0 || prev.WorkUsed > DefaultMaxWork {
		t.Fatalf("default run: TimeLimitHit %v, WorkUsed %d", prev.TimeLimitHit, prev.WorkUsed)
	}
	plan, err = Solve(p, Options{TimeLimit: time.Nanosecond, From: prev.Nodes, Mutable: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changed) != 0 || !reflect.DeepEqual(plan.Nodes, prev.Nodes) {
		t.Fatalf("past time limit changed nodes %v", plan.Changed)
	}
}

// TestMaxWork: the work budget ends the λ search after the probe that
// spends it, the same way on every run; a budget as large as a full run's
// work changes nothing; a negative one is invalid.
func TestMaxWork(t *testing.T) {
	p := generate(3, 40, 400)
	full, err := Solve(p, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// One unit: the λ_hi probe (the first) spends it, none follows.
	one, err := Solve(p, Options{Seed: 1, MaxWork: 1})
	if err != nil {
		t.Fatal(err)
	}
	if one.Probes != 1 || one.WorkUsed < 1 || one.TimeLimitHit {
		t.Fatalf("MaxWork 1: %d probes, work %d", one.Probes, one.WorkUsed)
	}
	checkRequired(t, p, one)
	again, _ := Solve(p, Options{Seed: 1, MaxWork: 1})
	if !reflect.DeepEqual(one, again) {
		t.Fatal("MaxWork 1: two runs differ")
	}
	same, err := Solve(p, Options{Seed: 1, MaxWork: full.WorkUsed})
	if err != nil || !reflect.DeepEqual(same, full) {
		t.Fatalf("MaxWork = the full run's work (%d) changed the plan: %v", full.WorkUsed, err)
	}
	if _, err := Solve(p, Options{MaxWork: -1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("MaxWork -1: err = %v, want ErrInvalid", err)
	}
}

// TestReasons: each Unplaced reason on a case built for it. One 4-cpu
// node per case unless said; shape 0 is 1 cpu, shape 1 is 8 cpu.
func TestReasons(t *testing.T) {
	base := func() *Problem {
		return &Problem{
			Dims:   []string{"cpu"},
			Nodes:  []Node{{Capacity: []float64{4}}},
			Shapes: [][]float64{{1}, {8}},
			Apps:   []App{{Share: 0.5, Mix: []float64{1, 0}}},
		}
	}
	reasons := func(p *Problem, opt Options) map[string]bool {
		t.Helper()
		plan, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkRequired(t, p, plan)
		r := map[string]bool{}
		for _, u := range plan.Unplaced {
			r[u.Reason] = true
		}
		return r
	}
	// No room: λ = 4 fills the node; λ = 5 needs a fifth.
	if r := reasons(base(), Options{}); !r[ReasonNoRoom] || len(r) != 1 {
		t.Errorf("no room: %v", r)
	}
	// No eligible node: the 8-cpu shape fits nowhere.
	p := base()
	p.Apps[0].Mix = []float64{1, 1}
	if r := reasons(p, Options{}); !r[ReasonNoEligibleNode] {
		t.Errorf("no eligible node: %v", r)
	}
	// Constraint: app 1 is exlocated with app 0, which holds the only
	// node; app 1's container would fit the empty node.
	p = base()
	p.Nodes[0].Capacity[0] = 40
	p.Apps = append(p.Apps, App{Share: 0.5, Mix: []float64{1, 0}, Eligible: []int{0}})
	p.Apps[0].Mix = []float64{4, 0}
	p.Exlocate = [][2]int{{0, 1}}
	if r := reasons(p, Options{}); !r[ReasonConstraint] {
		t.Errorf("constraint: %v", r)
	}
	// Frozen: two nodes, φ = 0: the next step needs one more container
	// than From holds.
	p = base()
	p.Nodes = append(p.Nodes, Node{Capacity: []float64{4}})
	from := [][]Container{{{0, 0}}, {{0, 0}}}
	if r := reasons(p, Options{From: from, Mutable: 0}); !r[ReasonFrozen] || len(r) != 1 {
		t.Errorf("frozen: %v", r)
	}
}

// TestBruteForceHarder is TestBruteForceConstrained on larger instances
// (randomHarder, seed 3, 150 trials; exhaustive search dominates the
// time). At most 5% may fall short.
func TestBruteForceHarder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	const trials = 150
	short, loose := 0, 0
	for i := range trials {
		p := randomHarder(rng)
		plan, err := Solve(p, Options{Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		checkRequired(t, p, plan)
		want := bruteLambda(p)
		if plan.Lambda > want+1e-12 || plan.LambdaUpper < want {
			t.Fatalf("trial %d: λ=%v, exact %v, upper %v", i, plan.Lambda, want, plan.LambdaUpper)
		}
		if want < plan.LambdaUpper {
			loose++
		}
		if plan.Lambda < want-1e-12 {
			short++
			t.Logf("trial %d: λ=%v < exact %v", i, plan.Lambda, want)
		}
	}
	t.Logf("%d/%d short of the exact λ (%d with the exact λ below LambdaUpper)", short, trials, loose)
	if short > trials/20 {
		t.Errorf("%d/%d instances short of the exact λ", short, trials)
	}
}
