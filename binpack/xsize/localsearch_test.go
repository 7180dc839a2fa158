package xsize

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
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
	if a.WorkUsed <= 0 || a.WorkUsed > DefaultLocalMaxWork || a.TimeLimitHit {
		t.Fatalf("WorkUsed %d, TimeLimitHit %v", a.WorkUsed, a.TimeLimitHit)
	}
}

// TestLocalSearchMaxWork: a work budget stops the search after the same
// work every time; a budget as large as a free run's work changes
// nothing; a smaller one never gives a dearer catalog than the start; a
// negative one is invalid; an expired time limit says so.
func TestLocalSearchMaxWork(t *testing.T) {
	p := realisticMix(4, 3, 120, 8)
	full, err := LocalSearch(p, LocalOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	same, err := LocalSearch(p, LocalOptions{Seed: 7, MaxWork: full.WorkUsed})
	if err != nil || !sameSolution(same, full) {
		t.Fatalf("MaxWork = a free run's work (%d) changed the result: %v", full.WorkUsed, err)
	}
	in, _ := newInstance(p)
	seed, _ := in.seedShapes()
	_, seedCost, _ := in.evaluate(seed)
	for _, budget := range []int64{1, full.WorkUsed / 10, full.WorkUsed / 2} {
		a, err := LocalSearch(p, LocalOptions{Seed: 7, MaxWork: budget})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := LocalSearch(p, LocalOptions{Seed: 7, MaxWork: budget})
		if !sameSolution(a, b) {
			t.Fatalf("MaxWork %d: two runs differ", budget)
		}
		checkSolution(t, p, a)
		if a.Cost > seedCost*(1+1e-12) {
			t.Fatalf("MaxWork %d: cost %v above the start %v", budget, a.Cost, seedCost)
		}
	}
	if _, err := LocalSearch(p, LocalOptions{MaxWork: -1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("MaxWork -1: err = %v, want ErrInvalid", err)
	}
	tl, err := LocalSearch(p, LocalOptions{Seed: 7, TimeLimit: time.Nanosecond})
	if err != nil || !tl.TimeLimitHit {
		t.Fatalf("TimeLimit 1ns: TimeLimitHit %v, %v", tl.TimeLimitHit, err)
	}
	checkSolution(t, p, tl)
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
