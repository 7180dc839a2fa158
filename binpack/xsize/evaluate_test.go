package xsize

import (
	"errors"
	"slices"
	"testing"
)

// tiny is the worked example used across tests: scale 10 in both
// dimensions, so a shape (x, y) costs (x+y)/10 (sum) or max(x,y)/10 (max).
//
//	a = (1,1) w 4,  b = (2,1) w 1,  c = (1,3) w 2.
func tiny(K int, cost Cost) *Problem {
	return &Problem{
		Dims:  []string{"cpu", "memory"},
		Scale: []float64{10, 10},
		Requests: []Request{
			{Size: []float64{1, 1}, Weight: 4, Label: "a"},
			{Size: []float64{2, 1}, Weight: 1, Label: "b"},
			{Size: []float64{1, 3}, Weight: 2, Label: "c"},
		},
		Nodes: [][]float64{{10, 10}},
		K:     K, Cost: cost,
	}
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name   string
		shapes [][]float64
		assign []int
		cost   float64
	}{
		// a → (2,1) 0.3, b → (2,1) 0.3, c → (1,3) 0.4: 4·0.3 + 0.3 + 2·0.4 = 2.3.
		{"cheapest dominating", [][]float64{{2, 1}, {1, 3}, {2, 3}}, []int{0, 0, 1}, 2.3},
		// (2,1) and (1,2) both cost 0.3 and hold a: lowest index wins;
		// b → 0, c → (2,3) 0.5: 4·0.3 + 0.3 + 2·0.5 = 2.5.
		{"ties to lowest index", [][]float64{{2, 1}, {1, 2}, {2, 3}}, []int{0, 0, 2}, 2.5},
		// One shape for all: 7·0.5 = 3.5.
		{"single shape", [][]float64{{2, 3}}, []int{0, 0, 0}, 3.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assign, cost, err := Evaluate(tiny(3, SumCost), tc.shapes)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(assign, tc.assign) || !approxEq(cost, tc.cost) {
				t.Errorf("Evaluate = %v, %v; want %v, %v", assign, cost, tc.assign, tc.cost)
			}
		})
	}
	if _, _, err := Evaluate(tiny(3, SumCost), [][]float64{{1, 1}}); !errors.Is(err, ErrInfeasible) {
		t.Errorf("uncovered request: error %v, want ErrInfeasible", err)
	}
	if _, _, err := Evaluate(tiny(3, SumCost), [][]float64{{1, 1, 1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad shape length: error %v, want ErrInvalid", err)
	}
}

func TestStats(t *testing.T) {
	p := tiny(2, SumCost)
	s := &Solution{Shapes: [][]float64{{2, 1}, {1, 3}}, Assign: []int{0, 0, 1}}
	st := Stats(p, s)
	// Shape (2,1) holds a (w 4) and b (w 1): waste cpu 4·(2−1) + 1·0 = 4,
	// memory 0; cost 5·0.3 = 1.5. Shape (1,3) holds c exactly: no waste.
	want0 := ShapeStats{Shape: 0, Requests: 2, Weight: 5, Cost: 1.5, Waste: []float64{4, 0}}
	if st[0].Requests != want0.Requests || st[0].Weight != want0.Weight || !approxEq(st[0].Cost, want0.Cost) || !slices.Equal(st[0].Waste, want0.Waste) {
		t.Errorf("stats[0] = %+v, want %+v", st[0], want0)
	}
	if st[1].Requests != 1 || !slices.Equal(st[1].Waste, []float64{0, 0}) {
		t.Errorf("stats[1] = %+v", st[1])
	}
	if tw := TotalWaste(st); !slices.Equal(tw, []float64{4, 0}) {
		t.Errorf("TotalWaste = %v, want [4 0]", tw)
	}
}
