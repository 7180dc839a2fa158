package xsize

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestLocalSearchNeverWorseThanSeed: from its default seed and from MaxDP's
// catalog (MaxCost), LocalSearch returns a valid catalog no dearer than the
// start and no cheaper than the optimum.
func TestLocalSearchNeverWorseThanSeed(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for it := range 200 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		cost := SumCost
		if it%3 == 0 {
			cost = MaxCost
		}
		p := randomSmall(r, D, n, K, cost)
		in, _ := newInstance(p)
		opt := partitionOptimum(in)
		if math.IsInf(opt, 1) {
			if _, err := LocalSearch(p, LocalOptions{}); !errors.Is(err, ErrInfeasible) {
				t.Fatalf("instance %d: want ErrInfeasible, got %v", it, err)
			}
			continue
		}
		seed, err := in.seedShapes()
		if err != nil {
			t.Fatal(err)
		}
		_, seedCost, _ := in.evaluate(seed)
		s, err := LocalSearch(p, LocalOptions{Seed: uint64(it)})
		if err != nil {
			t.Fatalf("instance %d: %v", it, err)
		}
		checkSolution(t, p, s)
		if s.Cost > seedCost*(1+1e-12) || s.Cost < opt*(1-1e-9) {
			t.Fatalf("instance %d: local %v, seed %v, optimum %v", it, s.Cost, seedCost, opt)
		}
		if s.Method != "local" || s.Seed != uint64(it) {
			t.Fatalf("instance %d: method %q seed %d", it, s.Method, s.Seed)
		}
		if cost == MaxCost {
			m, err := MaxDP(p)
			if err != nil {
				t.Fatal(err)
			}
			s2, err := LocalSearch(p, LocalOptions{Init: m.Shapes})
			if err != nil || s2.Cost > m.Cost*(1+1e-12) {
				t.Fatalf("instance %d: from MaxDP %v → %v (%v)", it, m.Cost, s2.Cost, err)
			}
		}
	}
}

func TestLocalSearchDeterministic(t *testing.T) {
	p := realisticMix(4, 3, 120, 8)
	a, err := LocalSearch(p, LocalOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := LocalSearch(p, LocalOptions{Seed: 7})
	if !sameSolution(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	checkSolution(t, p, a)
}

func TestLocalSearchInit(t *testing.T) {
	p := tiny(2, SumCost)
	tests := []struct {
		name string
		init [][]float64
		want error
	}{
		{"too many shapes", [][]float64{{2, 3}, {2, 3}, {2, 3}}, ErrInvalid},
		{"wrong length", [][]float64{{2}}, ErrInvalid},
		{"fits no node", [][]float64{{11, 3}}, ErrInvalid},
		{"leaves c uncovered", [][]float64{{2, 1}}, ErrInfeasible},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := LocalSearch(p, LocalOptions{Init: tc.init}); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	// From the single shape (2,3) (cost 3.5) the search reaches 2.3.
	s, err := LocalSearch(p, LocalOptions{Init: [][]float64{{2, 3}}})
	if err != nil || !approxEq(s.Cost, 2.3) {
		t.Errorf("LocalSearch from (2,3) = %v, %v; want 2.3", s, err)
	}
}
