package xselect

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

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
