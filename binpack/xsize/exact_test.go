package xsize

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestExactMatchesPartitionOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2)) // fixed seed: reproducible instances
	for it := range 300 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		cost := SumCost
		if it%3 == 0 {
			cost = MaxCost
		}
		p := randomSmall(r, D, n, K, cost)
		in, err := newInstance(p)
		if err != nil {
			t.Fatal(err)
		}
		want := partitionOptimum(in)
		s, err := Exact(p, ExactOptions{})
		if math.IsInf(want, 1) {
			if !errors.Is(err, ErrInfeasible) {
				t.Fatalf("instance %d: want ErrInfeasible, got %v", it, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("instance %d: %v", it, err)
		}
		if !approxEq(s.Cost, want) {
			t.Fatalf("instance %d: Exact cost %v, partition optimum %v", it, s.Cost, want)
		}
		checkSolution(t, p, s)
	}
}

func approxEq(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func TestExactWorkedExample(t *testing.T) {
	tests := []struct {
		name string
		K    int
		cost Cost
		want float64
	}{
		// All in (2,3): 7·0.5.
		{"K=1 sum", 1, SumCost, 3.5},
		// {(2,1),(1,3)}: 4·0.3 + 0.3 + 2·0.4 = 2.3 (ties {(1,1),(2,3)}: 0.8 + 3·0.5).
		{"K=2 sum", 2, SumCost, 2.3},
		// Own shapes: 4·0.2 + 0.3 + 2·0.4 = 1.9.
		{"K=3 sum", 3, SumCost, 1.9},
		// Max cost, v = 0.1, 0.2, 0.3: {a},{b,c} → 4·0.1 + 3·0.3 = 1.3.
		{"K=2 max", 2, MaxCost, 1.3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tiny(tc.K, tc.cost)
			s, err := Exact(p, ExactOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !approxEq(s.Cost, tc.want) || !s.Optimal || s.Method != "exact" {
				t.Errorf("Exact = %v (optimal %v, %s), want %v", s.Cost, s.Optimal, s.Method, tc.want)
			}
			checkSolution(t, p, s)
		})
	}
}

func TestExactGuards(t *testing.T) {
	p := tiny(2, SumCost)
	if _, err := Exact(p, ExactOptions{MaxCombinations: 2}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxCombinations 2: error %v, want ErrTooLarge", err)
	}
	if _, err := Exact(p, ExactOptions{MaxGrid: 3}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxGrid 3: error %v, want ErrTooLarge", err)
	}
	// Two node types that each hold one request only: K = 1 is infeasible.
	q := &Problem{Scale: []float64{1, 1}, K: 1,
		Requests: []Request{{Size: []float64{8, 1}, Weight: 1}, {Size: []float64{1, 8}, Weight: 1}},
		Nodes:    [][]float64{{8, 2}, {2, 8}}}
	if _, err := Exact(q, ExactOptions{}); !errors.Is(err, ErrInfeasible) {
		t.Errorf("K=1 across node types: error %v, want ErrInfeasible", err)
	}
}
