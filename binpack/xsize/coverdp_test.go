package xsize

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCoverDPOnGrid: on the whole tight grid the DP is an exact solver, so
// it must equal the partition oracle, with and without Lagrangian pruning
// and an incumbent just above the optimum.
func TestCoverDPOnGrid(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for it := range 300 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		cost := SumCost
		if it%4 == 0 {
			cost = MaxCost
		}
		p := randomSmall(r, D, n, K, cost)
		in, _ := newInstance(p)
		opt := partitionOptimum(in)
		cands, err := in.tightGrid(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		plain := (&coverDP{w: in.w, cands: cands, K: in.k, maxStates: math.MaxInt64, ub: math.Inf(1)}).run()
		if math.IsInf(opt, 1) {
			if plain.chosen != nil {
				t.Fatalf("instance %d: infeasible, DP found %v", it, plain.chosen)
			}
			continue
		}
		if !approxEq(plain.cost, opt) {
			t.Fatalf("instance %d: DP %v, oracle %v", it, plain.cost, opt)
		}
		ub := opt * (1 + 1e-6) // the DP must still find the optimum below it
		_, u, _ := in.subgradient(cands, ub, nil)
		lag := (&coverDP{w: in.w, cands: cands, K: in.k, maxStates: math.MaxInt64, ub: ub, u: u}).run()
		if lag.chosen == nil || !approxEq(lag.cost, opt) {
			t.Fatalf("instance %d: DP with Lagrangian pruning %v (%v), oracle %v", it, lag.cost, lag.chosen, opt)
		}
		if lag.states > plain.states {
			t.Fatalf("instance %d: pruning stored more states (%d > %d)", it, lag.states, plain.states)
		}
	}
}

func TestStateBound(t *testing.T) {
	tests := []struct {
		name   string
		chains []int
		K      int
		want   float64
	}{
		// e0 = 1, e1 = 2+3 = 5, e2 = 2·3 = 6: (1+5+6)·K = 24.
		{"two chains K=2", []int{2, 3}, 2, 24},
		// K = 1 keeps e0 + e1 = 1+5: 6.
		{"two chains K=1", []int{2, 3}, 1, 6},
		// One chain of 4, K = 3: (1+4)·3 = 15 (e2, e3 vanish).
		{"one chain", []int{4}, 3, 15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := stateBound(tc.chains, tc.K); got != tc.want {
				t.Errorf("stateBound = %v, want %v", got, tc.want)
			}
		})
	}
}
