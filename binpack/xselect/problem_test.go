package xselect

import (
	"errors"
	"math"
	"testing"
)

func TestValidate(t *testing.T) {
	good := func() *Problem {
		return &Problem{
			Dims:   []string{"cpu", "mem"},
			Nodes:  []Node{{Name: "n0", Capacity: []float64{4, 8}}},
			Shapes: [][]float64{{1, 2}},
			Apps:   []App{{Name: "a", Share: 1, Mix: []float64{1}}},
		}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("good problem: %v", err)
	}
	cases := map[string]func(p *Problem){
		"no dims":        func(p *Problem) { p.Dims = nil },
		"node dims":      func(p *Problem) { p.Nodes[0].Capacity = []float64{1} },
		"negative cap":   func(p *Problem) { p.Nodes[0].Capacity[0] = -1 },
		"shape dims":     func(p *Problem) { p.Shapes[0] = []float64{1} },
		"NaN shape":      func(p *Problem) { p.Shapes[0][1] = math.NaN() },
		"zero share":     func(p *Problem) { p.Apps[0].Share = 0 },
		"shares above 1": func(p *Problem) { p.Apps = append(p.Apps, App{Share: 0.5, Mix: []float64{1}}) },
		"mix length":     func(p *Problem) { p.Apps[0].Mix = nil },
		"elig range":     func(p *Problem) { p.Apps[0].Eligible = []int{1} },
		"elig repeated":  func(p *Problem) { p.Apps[0].Eligible = []int{0, 0} },
		"MaxPerNode < 0": func(p *Problem) { p.Apps[0].MaxPerNode = -1 },
		"colocate range": func(p *Problem) { p.Colocate = [][2]int{{0, 1}} },
		"colocate self":  func(p *Problem) { p.Colocate = [][2]int{{0, 0}} },
		"exlocate range": func(p *Problem) { p.Exlocate = [][2]int{{-1, 0}} },
		"exlocate self":  func(p *Problem) { p.Exlocate = [][2]int{{0, 0}} },
	}
	for name, mutate := range cases {
		p := good()
		mutate(p)
		if err := p.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
		if _, err := Solve(p, Options{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Solve got %v, want ErrInvalid", name, err)
		}
	}
}

func TestCheckRejects(t *testing.T) {
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{2}}, {Capacity: []float64{2}}},
		Shapes: [][]float64{{1}},
		Apps:   []App{{Share: 1, Mix: []float64{1}, Eligible: []int{0}}},
	}
	cases := map[string][][]Container{
		"over capacity": {{{0, 0}, {0, 0}, {0, 0}}, {}}, // 3·1 > 2
		"not eligible":  {{}, {{0, 0}}},                 // app 0 may only use node 0
		"bad shape":     {{{1, 0}}, {}},
		"bad owner":     {{{0, 1}}, {}},
		"node count":    {{}},
	}
	for name, nodes := range cases {
		if err := Check(p, &Plan{Nodes: nodes}); !errors.Is(err, ErrViolation) {
			t.Errorf("%s: Check gave %v, want ErrViolation", name, err)
		}
	}
	if err := Check(p, &Plan{Nodes: [][]Container{{{0, 0}, {0, 0}}, {}}}); err != nil {
		t.Errorf("exact fit rejected: %v", err)
	}
}

// TestCheckRules: Check rejects a hand-made break of each placement rule
// and accepts the same plans once the rule is met.
func TestCheckRules(t *testing.T) {
	// Four apps on two 10-cpu nodes: app 0 at most 2 per node; apps 1
	// and 2 exlocated; app 3 needs app 1, and app 1 needs app 3 (a
	// cycle).
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{10}}, {Capacity: []float64{10}}},
		Shapes: [][]float64{{1}},
		Apps: []App{
			{Share: 0.25, Mix: []float64{1}, MaxPerNode: 2},
			{Share: 0.25, Mix: []float64{1}},
			{Share: 0.25, Mix: []float64{1}},
			{Share: 0.25, Mix: []float64{1}},
		},
		Colocate: [][2]int{{3, 1}, {1, 3}},
		Exlocate: [][2]int{{1, 2}},
	}
	bad := map[string][][]Container{
		"MaxPerNode":         {{{0, 0}, {0, 0}, {0, 0}}, {}},
		"exlocated":          {{{0, 1}, {0, 3}, {0, 2}}, {}},
		"exlocated reverse":  {{{0, 2}, {0, 3}, {0, 1}}, {}},
		"colocate 3 needs 1": {{{0, 3}}, {{0, 1}}},
		"colocate 1 needs 3": {{{0, 1}, {0, 3}}, {{0, 1}}},
	}
	for name, nodes := range bad {
		if err := Check(p, &Plan{Nodes: nodes}); !errors.Is(err, ErrViolation) {
			t.Errorf("%s: Check gave %v, want ErrViolation", name, err)
		}
	}
	good := [][]Container{{{0, 0}, {0, 0}, {0, 1}, {0, 3}, {0, 3}}, {{0, 0}, {0, 0}, {0, 2}, {0, 2}}}
	if err := Check(p, &Plan{Nodes: good}); err != nil {
		t.Errorf("valid plan rejected: %v", err)
	}
	// Check also refuses an invalid problem.
	p.Exlocate = [][2]int{{1, 1}}
	if err := Check(p, &Plan{Nodes: good}); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid problem: got %v, want ErrInvalid", err)
	}
}

// TestCheckIncremental: one node too many changed, and a Changed list
// that is not the set of differing nodes, are both rejected.
func TestCheckIncremental(t *testing.T) {
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{2}}, {Capacity: []float64{2}}, {Capacity: []float64{2}}, {Capacity: []float64{2}}},
		Shapes: [][]float64{{1}},
		Apps:   []App{{Share: 0.5, Mix: []float64{1}}, {Share: 0.5, Mix: []float64{1}}},
	}
	from := [][]Container{{{0, 0}, {0, 1}}, {{0, 0}}, {}, {{0, 1}}}
	// Node 0 reordered (same multiset: unchanged), node 2 changed.
	plan := &Plan{Nodes: [][]Container{{{0, 1}, {0, 0}}, {{0, 0}}, {{0, 1}}, {{0, 1}}}}
	if err := CheckIncremental(p, from, plan, 0.25); err != nil { // limit 1
		t.Errorf("one change within limit 1: %v", err)
	}
	plan.Nodes[1] = []Container{{0, 1}}
	if err := CheckIncremental(p, from, plan, 0.25); !errors.Is(err, ErrViolation) {
		t.Errorf("two changes, limit 1: got %v", err)
	}
	if err := CheckIncremental(p, from, plan, 0.5); err != nil {
		t.Errorf("two changes, limit 2: %v", err)
	}
	plan.Changed = []int{2}
	if err := CheckIncremental(p, from, plan, 0.5); !errors.Is(err, ErrViolation) {
		t.Errorf("Changed = [2] but nodes 1, 2 differ: got %v", err)
	}
	plan.Changed = []int{1, 2}
	if err := CheckIncremental(p, from, plan, 0.5); err != nil {
		t.Errorf("correct Changed: %v", err)
	}
}

func TestLambdaUpper(t *testing.T) {
	// Two nodes of 10 cpu; app 0 (mix 2 of a 1-cpu shape) may use node 0
	// only, app 1 (mix 1 of a 2-cpu shape) both. Per app: 10/2 = 5 and
	// 20/2 = 10; total: 20/(2+2) = 5. So λ ≤ 5.
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{10}}, {Capacity: []float64{10}}},
		Shapes: [][]float64{{1}, {2}},
		Apps: []App{
			{Share: 0.5, Mix: []float64{2, 0}, Eligible: []int{0}},
			{Share: 0.5, Mix: []float64{0, 1}},
		},
	}
	if got := LambdaUpper(p); got != 5 {
		t.Errorf("LambdaUpper = %v, want 5", got)
	}
	// A shape larger than every node keeps λ below 1/m = 1 for app 1;
	// the largest breakpoint below is app 0's 1/2.
	p.Shapes[1] = []float64{11}
	if got := LambdaUpper(p); got != 0.5 {
		t.Errorf("LambdaUpper = %v, want 0.5", got)
	}
	plan, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// λ = 0.5 gives app 0 one container and app 1 none; λ = 1 needs the
	// unfittable one.
	if plan.Lambda != 0.5 || len(plan.Unplaced) != 1 || plan.Unplaced[0].Reason != ReasonNoEligibleNode {
		t.Errorf("got %v, unplaced %+v", plan, plan.Unplaced)
	}
}

// TestLambdaUpperRules: the bound accounts for MaxPerNode and for the
// Colocate closure's eligibility, and Solve reaches it on these easy cases.
func TestLambdaUpperRules(t *testing.T) {
	// Three 100-cpu nodes, one 1-cpu shape. App 0 (mix 1, MaxPerNode 2)
	// holds at most 2·3 = 6 containers: λ ≤ 6.
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{100}}, {Capacity: []float64{100}}, {Capacity: []float64{100}}},
		Shapes: [][]float64{{1}},
		Apps:   []App{{Share: 0.5, Mix: []float64{1}, MaxPerNode: 2}, {Share: 0.5, Mix: []float64{1}, Eligible: []int{0}}},
	}
	if got := LambdaUpper(p); got != 6 {
		t.Errorf("MaxPerNode: LambdaUpper = %v, want 6", got)
	}
	plan, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkRequired(t, p, plan)
	if plan.Lambda != 6 {
		t.Errorf("MaxPerNode: λ = %v, want 6", plan.Lambda)
	}
	// App 0 needs app 1, which may only use node 0: both share node 0's
	// 100 cpu, λ·(1+1) ≤ 100, and app 0's cap 2 gives λ ≤ 2.
	p.Colocate = [][2]int{{0, 1}}
	if got := LambdaUpper(p); got != 2 {
		t.Errorf("colocate: LambdaUpper = %v, want 2", got)
	}
	p.Apps[0].MaxPerNode = 0
	if got := LambdaUpper(p); got != 50 {
		t.Errorf("colocate: LambdaUpper = %v, want 50", got)
	}
	plan, _ = Solve(p, Options{})
	checkRequired(t, p, plan)
	if plan.Lambda != 50 {
		t.Errorf("colocate: λ = %v, want 50", plan.Lambda)
	}
	// Exlocating the pair leaves app 0 no node at all: λ < 1/m = 1.
	p.Exlocate = [][2]int{{1, 0}}
	if got := LambdaUpper(p); got != 0 {
		t.Errorf("colocate+exlocate: LambdaUpper = %v, want 0", got)
	}
}

func TestCount(t *testing.T) {
	// At λ = j/m the count is exactly j despite rounding of j/m·m.
	for m := 1; m <= 50; m++ {
		for j := 0; j <= 3*m; j++ {
			mf := float64(m) / 7 // non-integer mixes, e.g. 3/7
			lam := float64(j) / mf
			if got := Count(lam, mf); got != j {
				t.Fatalf("Count(%v, %v) = %d, want %d", lam, mf, got, j)
			}
		}
	}
}
