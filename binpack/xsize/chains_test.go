package xsize

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLinesCoverSimplex checks the covering lemma of lines.go directly: for
// random directions c on each face, some line u of that support satisfies
// u ≥ c/(1+ε) coordinate-wise, i.e. snapping c costs at most 1+ε.
func TestLinesCoverSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, D := range []int{2, 3, 4} {
		for _, eps := range []float64{1, 0.5, 0.3, 0.1} {
			dims := make([]int, D)
			for d := range dims {
				dims[d] = d
			}
			lines := simplexLines(dims, D, eps)
			worst := 0.0
			for range 2000 {
				c := make([]float64, D)
				s := 0.0
				for d := range c {
					c[d] = -math.Log(1 - r.Float64()) // uniform on the simplex
					s += c[d]
				}
				best := math.Inf(1)
				for _, u := range lines {
					ratio := 0.0
					for d := range c {
						ratio = max(ratio, c[d]/s/u[d])
					}
					best = min(best, ratio)
				}
				worst = max(worst, best)
			}
			if worst > 1+eps+1e-12 {
				t.Errorf("D=%d ε=%v: worst snapping factor %v > 1+ε", D, eps, worst)
			}
		}
	}
}

// TestRayFamilyWithinEpsilon runs the DP on the ray family alone (no
// incumbent): its optimum must be within 1+ε of the partition oracle, and
// equal to brute force over the same family.
func TestRayFamilyWithinEpsilon(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	worst := map[float64]float64{}
	for it := range 300 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		p := randomSmall(r, D, n, K, SumCost)
		in, _ := newInstance(p)
		opt := partitionOptimum(in)
		if math.IsInf(opt, 1) {
			continue
		}
		for _, eps := range []float64{1, 0.5, 0.25, 0.1} {
			fam := in.rayFamily(eps)
			res := (&coverDP{w: in.w, cands: fam.cands, K: in.k, maxStates: math.MaxInt64, ub: math.Inf(1)}).run()
			if res.chosen == nil {
				t.Fatalf("instance %d ε=%v: DP found nothing", it, eps)
			}
			if res.cost > (1+eps)*opt*(1+1e-9) {
				t.Fatalf("instance %d ε=%v: family optimum %v > (1+ε)·%v", it, eps, res.cost, opt)
			}
			e := &enumerator{in: in, cands: fam.cands, all: full(in.n()), best: math.Inf(1)}
			e.search(0, newBitset(in.n()), 0, nil)
			if !approxEq(e.best, res.cost) {
				t.Fatalf("instance %d ε=%v: DP %v, brute force over the family %v", it, eps, res.cost, e.best)
			}
			chosen := make([][]float64, len(res.chosen))
			for a, c := range res.chosen {
				chosen[a] = fam.cands[c].shape
			}
			if _, c, err := in.evaluate(chosen); err != nil || !approxEq(c, res.cost) {
				t.Fatalf("instance %d ε=%v: reconstruction costs %v (%v), DP says %v", it, eps, c, err, res.cost)
			}
			worst[eps] = max(worst[eps], res.cost/opt)
		}
	}
	t.Logf("worst family/OPT by ε: %v", worst)
}
