package xsize

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxDPMatchesOracle: with MaxCost, MaxDP equals the partition oracle
// (and Exact) on random small instances, including two node types where the
// multi-chain DP is used.
func TestMaxDPMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	multi := 0
	for it := range 400 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		p := randomSmall(r, D, n, K, MaxCost)
		in, _ := newInstance(p)
		want := partitionOptimum(in)
		s, err := MaxDP(p)
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
			t.Fatalf("instance %d: MaxDP %v, oracle %v", it, s.Cost, want)
		}
		if !s.Optimal || s.Method != "maxdp" {
			t.Fatalf("instance %d: Optimal %v Method %q", it, s.Optimal, s.Method)
		}
		checkSolution(t, p, s)
		if !in.fitsNode(in.maxOf(full(in.n()))) {
			multi++
		}
		// PTAS delegates MaxCost to MaxDP.
		if s2, err := PTAS(p, PTASOptions{}); err != nil || s2.Cost != s.Cost {
			t.Fatalf("instance %d: PTAS(MaxCost) = %v, %v", it, s2, err)
		}
	}
	if multi < 20 {
		t.Errorf("only %d instances exercised several node types", multi)
	}
}

func TestMaxDPErrors(t *testing.T) {
	if _, err := MaxDP(tiny(2, SumCost)); !errors.Is(err, ErrCost) {
		t.Errorf("SumCost: error %v, want ErrCost", err)
	}
	p := tiny(2, MaxCost)
	p.K = 0
	if _, err := MaxDP(p); !errors.Is(err, ErrInvalid) {
		t.Errorf("K=0: error %v, want ErrInvalid", err)
	}
}
