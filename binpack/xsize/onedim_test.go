package xsize

import (
	"math"
	"math/rand/v2"
	"testing"
)

// quadratic1D is the textbook O(K·m²) recurrence, the truth for the
// convex-hull-trick version.
func quadratic1D(v, w []float64, K int) float64 {
	m := len(v)
	P := make([]float64, m+1)
	for i := range w {
		P[i+1] = P[i] + w[i]
	}
	f := make([]float64, m+1)
	for i := 1; i <= m; i++ {
		f[i] = math.Inf(1)
	}
	best := math.Inf(1)
	for k := 1; k <= K; k++ {
		g := make([]float64, m+1)
		g[0] = math.Inf(1)
		for i := 1; i <= m; i++ {
			g[i] = math.Inf(1)
			for j := 0; j < i; j++ {
				g[i] = min(g[i], f[j]+v[i-1]*(P[i]-P[j]))
			}
		}
		f = g
		best = min(best, f[m])
	}
	return best
}

func TestChain1D(t *testing.T) {
	tests := []struct {
		name string
		v, w []float64
		K    int
		want float64
	}{
		// One group pays the largest value for everyone: 3·(1+1+1) = 9.
		{"one group", []float64{1, 2, 3}, []float64{1, 1, 1}, 1, 9},
		// Two groups: {1,2} pays 2·2 = 4, {3} pays 3 → 7; ({1},{2,3}: 1+6 = 7 ties).
		{"two groups", []float64{1, 2, 3}, []float64{1, 1, 1}, 2, 7},
		// K ≥ m: everyone pays its own value: 1+2+3 = 6.
		{"own values", []float64{1, 2, 3}, []float64{1, 1, 1}, 5, 6},
		// Heavy small item: {1} alone (10·1) + {5,6} pay 6·2 = 12 → 22.
		{"heavy small", []float64{1, 5, 6}, []float64{10, 1, 1}, 2, 22},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got := solveChain1D(tc.v, tc.w, tc.K).best()
			if !approxEq(got, tc.want) {
				t.Errorf("cost %v, want %v", got, tc.want)
			}
		})
	}
	r := rand.New(rand.NewPCG(7, 7))
	for it := range 500 {
		m := 1 + r.IntN(30)
		v, w := make([]float64, m), make([]float64, m)
		x := 0.0
		for i := range v {
			x += 0.01 + r.Float64()
			v[i], w[i] = x, 0.1+r.Float64()*5
		}
		K := 1 + r.IntN(8)
		c := solveChain1D(v, w, K)
		k, got := c.best()
		if want := quadratic1D(v, w, K); !approxEq(got, want) {
			t.Fatalf("random %d: CHT %v, quadratic %v", it, got, want)
		}
		// The runs must reproduce the cost.
		sum := 0.0
		for _, run := range c.runs(k) {
			for i := run[0]; i < run[1]; i++ {
				sum += w[i] * v[run[1]-1]
			}
		}
		if !approxEq(sum, got) {
			t.Fatalf("random %d: runs cost %v, DP %v", it, sum, got)
		}
	}
}
