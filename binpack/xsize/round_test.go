package xsize

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRound(t *testing.T) {
	tests := []struct {
		name  string
		node  []float64
		req   []float64 // the one request, held by the shape
		shape []float64
		gran  []float64
		want  []float64
	}{
		// 2.5 → 3 cores, 5.2 → 6 GiB.
		{"up to multiples", []float64{32, 128}, []float64{2.5, 5.2}, []float64{2.5, 5.2}, []float64{1, 1}, []float64{3, 6}},
		// Granularity 0 leaves memory alone.
		{"zero granularity", []float64{32, 128}, []float64{2.5, 5.2}, []float64{2.5, 5.2}, []float64{1, 0}, []float64{3, 5.2}},
		// 9.5 → 10 exceeds the node's 9.5 cores: fall back to ⌊9.5/2⌋·2 = 8
		// since the request needs only 7.
		{"fallback to largest multiple", []float64{9.5, 16}, []float64{7, 3}, []float64{9.5, 3}, []float64{2, 2}, []float64{8, 4}},
		// The request needs 9: 8 is too small, keep the unrounded 9.5.
		{"fallback to unrounded", []float64{9.5, 16}, []float64{9, 3}, []float64{9.5, 3}, []float64{2, 2}, []float64{9.5, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Scale: []float64{100, 100}, K: 1, Nodes: [][]float64{tc.node},
				Requests: []Request{{Size: tc.req, Weight: 1}}}
			s := &Solution{Shapes: [][]float64{tc.shape}, Assign: []int{0}}
			r, err := Round(p, s, tc.gran)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Shapes[0], tc.want) {
				t.Errorf("Round = %v, want %v", r.Shapes[0], tc.want)
			}
			checkSolution(t, p, r)
		})
	}
	p := tiny(2, SumCost)
	s := &Solution{Shapes: [][]float64{{2, 1}, {1, 3}}, Assign: []int{0, 0, 1}}
	if _, err := Round(p, s, []float64{1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("short granularity: %v, want ErrInvalid", err)
	}
	if _, err := Round(p, &Solution{Shapes: s.Shapes, Assign: []int{0, 1, 1}}, []float64{1, 1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("wrong assignment: %v, want ErrInvalid", err)
	}
}

// TestRoundKeepsFeasibility: rounding PTAS catalogs of random instances
// (often with two node types) to random granularities keeps every request
// in a dominating shape, every shape in a node type, and never lowers the
// cost.
func TestRoundKeepsFeasibility(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	for it := range 200 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		p := randomSmall(r, D, n, K, SumCost)
		s, err := PTAS(p, PTASOptions{Eps: 0.5, MinEps: 0.5})
		if errors.Is(err, ErrInfeasible) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		gran := make([]float64, D)
		for d := range gran {
			gran[d] = []float64{0, 1, 2, 5, 0.7}[r.IntN(5)]
		}
		rs, err := Round(p, s, gran)
		if err != nil {
			t.Fatalf("instance %d: %v", it, err)
		}
		checkSolution(t, p, rs)
		if rs.Cost < s.Cost*(1-1e-12) {
			t.Fatalf("instance %d: rounding lowered the cost %v → %v", it, s.Cost, rs.Cost)
		}
	}
}
