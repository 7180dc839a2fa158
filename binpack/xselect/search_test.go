package xselect

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomSmall builds a tiny instance: ≤ 3 nodes, ≤ 2 shapes, ≤ 2 apps,
// integer sizes so that feasibility is decided exactly.
func randomSmall(rng *rand.Rand) *Problem {
	p := &Problem{Dims: []string{"cpu", "mem"}}
	for range 1 + rng.IntN(3) {
		p.Nodes = append(p.Nodes, Node{Capacity: []float64{float64(2 + rng.IntN(7)), float64(2 + rng.IntN(7))}})
	}
	for range 1 + rng.IntN(2) {
		p.Shapes = append(p.Shapes, []float64{float64(1 + rng.IntN(3)), float64(1 + rng.IntN(3))})
	}
	na := 1 + rng.IntN(2)
	for range na {
		app := App{Share: 1 / float64(na), Mix: make([]float64, len(p.Shapes))}
		for k := range app.Mix {
			app.Mix[k] = float64(rng.IntN(3)) // 0..2 per unit λ
		}
		if rng.IntN(2) == 0 {
			for n := range p.Nodes {
				if rng.IntN(2) == 0 {
					app.Eligible = append(app.Eligible, n)
				}
			}
			if app.Eligible == nil {
				app.Eligible = []int{}
			}
		}
		p.Apps = append(p.Apps, app)
	}
	return p
}

// exactFeasible decides by exhaustive assignment whether the set req packs.
// Identical containers take non-decreasing node indices (symmetry break).
func exactFeasible(p *Problem, req [][]int) bool {
	var items []Container
	for a := range req {
		for k, c := range req[a] {
			for range c {
				items = append(items, Container{Shape: k, Owner: a})
			}
		}
	}
	elig := func(a, n int) bool {
		if p.Apps[a].Eligible == nil {
			return true
		}
		for _, m := range p.Apps[a].Eligible {
			if m == n {
				return true
			}
		}
		return false
	}
	free := make([][]float64, len(p.Nodes))
	for n := range free {
		free[n] = append([]float64(nil), p.Nodes[n].Capacity...)
	}
	var rec func(i, from int) bool
	rec = func(i, from int) bool {
		if i == len(items) {
			return true
		}
		it := items[i]
		if i == 0 || items[i-1] != it {
			from = 0
		}
		for n := from; n < len(p.Nodes); n++ {
			if !elig(it.Owner, n) {
				continue
			}
			ok := true
			for d, v := range p.Shapes[it.Shape] {
				ok = ok && v <= free[n][d]
			}
			if !ok {
				continue
			}
			for d, v := range p.Shapes[it.Shape] {
				free[n][d] -= v
			}
			found := rec(i+1, n)
			for d, v := range p.Shapes[it.Shape] {
				free[n][d] += v
			}
			if found {
				return true
			}
		}
		return false
	}
	return rec(0, 0)
}

// bruteLambda scans the breakpoints upward (exact feasibility is monotone
// because the sets are nested) and returns the last feasible one.
func bruteLambda(p *Problem) float64 {
	s := &searcher{in: newInstance(p)}
	lam := 0.0
	for {
		nb := s.next(lam)
		if math.IsInf(nb, 1) || !exactFeasible(p, s.counts(nb)) {
			return lam
		}
		lam = nb
	}
}

// checkRequired verifies that plan holds the whole required set of its λ.
func checkRequired(t *testing.T, p *Problem, plan *Plan) {
	t.Helper()
	if err := Check(p, plan); err != nil {
		t.Fatal(err)
	}
	got := make([][]int, len(p.Apps))
	for a := range got {
		got[a] = make([]int, len(p.Shapes))
	}
	for _, cs := range plan.Nodes {
		for _, c := range cs {
			got[c.Owner][c.Shape]++
		}
	}
	for a, app := range p.Apps {
		for k, m := range app.Mix {
			if got[a][k] < Count(plan.Lambda, m) {
				t.Fatalf("app %d shape %d: %d packed < %d required at λ=%v", a, k, got[a][k], Count(plan.Lambda, m), plan.Lambda)
			}
		}
	}
	if plan.Lambda > plan.LambdaUpper {
		t.Fatalf("λ=%v above the upper bound %v", plan.Lambda, plan.LambdaUpper)
	}
}

// TestBruteForce compares λ with exhaustive search on 500 tiny instances
// (seed 1). Every plan must be valid; the test fails if more than 5% of the
// instances fall short of the exact λ, and logs the shortfall figures.
func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	const trials = 500
	short, sumRel := 0, 0.0
	for i := range trials {
		p := randomSmall(rng)
		plan, err := Solve(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkRequired(t, p, plan)
		want := bruteLambda(p)
		if plan.Lambda > want+1e-12 {
			t.Fatalf("trial %d: λ=%v above the exact optimum %v", i, plan.Lambda, want)
		}
		if plan.LambdaUpper < want {
			t.Fatalf("trial %d: LambdaUpper %v below the exact optimum %v", i, plan.LambdaUpper, want)
		}
		if plan.Lambda < want-1e-12 {
			short++
			sumRel += (want - plan.Lambda) / want
			t.Logf("trial %d: λ=%v < exact %v", i, plan.Lambda, want)
		}
	}
	t.Logf("%d/%d instances short of the exact λ; mean relative shortfall over all %.4f", short, trials, sumRel/trials)
	if short > trials/20 {
		t.Errorf("%d/%d instances short of the exact λ", short, trials)
	}
}

func TestDeterministic(t *testing.T) {
	p := generate(7, 200, 2000)
	a, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Solve(p, Options{})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs differ")
	}
	checkRequired(t, p, a)
	t.Log(a)
}

func TestTopUpFollowsShares(t *testing.T) {
	// One 12-cpu node, two apps with shares 2/3 and 1/3 and one 1-cpu
	// shape (mix 1 each). λ = 6 packs 6+6 = 12 and leaves no room.
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{12}}},
		Shapes: [][]float64{{1}},
		Apps: []App{
			{Share: 2.0 / 3, Mix: []float64{1}},
			{Share: 1.0 / 3, Mix: []float64{1}},
		},
	}
	plan, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkRequired(t, p, plan)
	if plan.Lambda != 6 {
		t.Errorf("λ = %v, want 6", plan.Lambda)
	}
	// With 13 cpu, λ = 6 still (λ = 7 needs 14) and one unit is spare.
	// Volume/Share is 6/(2/3) = 9 for app 0 and 6/(1/3) = 18 for app 1,
	// so top-up gives the spare unit to app 0.
	p.Nodes[0].Capacity[0] = 13
	plan, _ = Solve(p, Options{})
	checkRequired(t, p, plan)
	if plan.Apps[0].Packed != 7 || plan.Apps[1].Packed != 6 {
		t.Errorf("top-up gave %+v", plan.Apps)
	}
}
