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
		if err := Check(p, &Plan{Nodes: nodes}); err == nil {
			t.Errorf("%s: Check accepted an invalid plan", name)
		}
	}
	if err := Check(p, &Plan{Nodes: [][]Container{{{0, 0}, {0, 0}}, {}}}); err != nil {
		t.Errorf("exact fit rejected: %v", err)
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
