package xsize

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLowerBoundBelowOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	gain := 0
	for it := range 300 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		cost := SumCost
		if it%3 == 0 {
			cost = MaxCost
		}
		p := randomSmall(r, D, n, K, cost)
		in, _ := newInstance(p)
		opt := partitionOptimum(in)
		if math.IsInf(opt, 1) {
			continue
		}
		lb := LowerBound(p)
		own := 0.0
		for i, s := range in.size {
			own += in.w[i] * in.costOf(s)
		}
		if lb > opt*(1+1e-9) || lb < own*(1-1e-12) {
			t.Fatalf("instance %d: LB %v, own-shape bound %v, optimum %v", it, lb, own, opt)
		}
		if lb > own*(1+1e-9) {
			gain++
		}
	}
	if gain < 50 {
		t.Errorf("the K-dependent bounds beat Σ w·cost(p) on only %d instances", gain)
	}
}

func TestLowerBoundWorkedExample(t *testing.T) {
	// K = 1: the 1-D bound on ‖p‖₁ = 0.2, 0.3, 0.4 with one threshold is
	// 7·0.4 = 2.8 > the own-shape bound 1.9; the optimum is 3.5.
	lb := LowerBound(tiny(1, SumCost))
	if lb < 2.8-1e-12 || lb > 3.5+1e-12 {
		t.Errorf("LowerBound(K=1) = %v, want in [2.8, 3.5]", lb)
	}
	if got := LowerBound(&Problem{}); got != 0 {
		t.Errorf("LowerBound(invalid) = %v, want 0", got)
	}
}
