package dag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPriceExact checks the LP test's pricing (lpBound.price, branch and
// bound in knapsack order) against enumeration of every subset of the
// candidates: on random DAGs of up to 14 tasks with 0–3 resources (clique
// resources added as in lpClimb), random weights and random windows, μ
// must equal the best weight over the feasible sets (the required tasks,
// then any others allowed that fit every capacity and are pairwise
// unordered), and the set returned must be feasible and weigh μ. A bound
// that cut off a better set (a wrong ratio order or prefix end, say)
// fails it.
func TestPriceExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	checked, pruned := 0, 0
	for c := range 400 {
		n, k := 4+rng.IntN(11), rng.IntN(4)
		res := make([]string, k)
		for r := range res {
			res[r] = fmt.Sprint("r", r)
		}
		capacity := make([]float64, k)
		for r := range capacity {
			capacity[r] = float64(4 + rng.IntN(12))
		}
		bld := NewBuilder(fmt.Sprint("price", c), res, 1)
		for i := range n {
			dem := make([]float64, k)
			for r := range dem {
				if rng.IntN(4) > 0 {
					dem[r] = float64(rng.IntN(int(capacity[r]) + 1))
				}
			}
			bld.AddTask(fmt.Sprint("t", i), -1, int64(1+rng.IntN(9)), dem)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(8) == 0 {
					bld.AddEdge(i, j)
				}
			}
		}
		d, err := bld.Build()
		if err != nil {
			t.Fatal(err)
		}
		p, _ := newProblem(d, [][]float64{capacity}).withCliques(boundCliques)
		lb := newLPBound(p)
		s := newWindows(p.n, lb.w, 100)
		y := make([]float64, p.n)
		var iv interval
		for i := range p.n {
			y[i] = math.Round(rng.Float64()*100) / 100
			if rng.IntN(6) > 0 {
				iv.allowed = append(iv.allowed, i)
				if rng.IntN(10) == 0 {
					iv.required = append(iv.required, i)
				}
			}
		}
		b := &budget{max: math.MaxInt64}
		mu, set := lb.price(&iv, s, y, b)
		want, wantOK := bruteMu(lb, s, &iv, y)
		if !wantOK {
			if !math.IsInf(mu, 1) {
				t.Errorf("case %d: required tasks cannot run together, price gave %v", c, mu)
			}
			continue
		}
		checked++
		if math.Abs(mu-want) > 1e-9 {
			t.Fatalf("case %d: μ = %v, enumeration %v (candidates %v, required %v)", c, mu, want, iv.allowed, iv.required)
		}
		var w float64
		for _, i := range set {
			w += y[i]
		}
		if !feasibleSet(lb, s, set) || math.Abs(w-mu) > 1e-9 {
			t.Fatalf("case %d: set %v (weight %v) is infeasible or does not weigh μ = %v", c, set, w, mu)
		}
		if b.used < 1<<uint(len(iv.allowed)) {
			pruned++
		}
	}
	if checked < 200 || pruned < checked/2 {
		t.Errorf("%d cases checked, %d searched fewer nodes than subsets: the test lost its reach", checked, pruned)
	}
}

// bruteMu enumerates every subset of the allowed tasks that holds the
// required ones: the best weight of a feasible set (false when none is).
func bruteMu(lb *lpBound, s *windows, iv *interval, y []float64) (float64, bool) {
	best, found := 0.0, false
	forFeasibleSets(lb, s, iv, func(set []int) {
		var w float64
		for _, i := range set {
			w += max(0, y[i])
		}
		if !found || w > best {
			best, found = w, true
		}
	})
	return best, found
}

// forFeasibleSets calls visit with every feasible set of the interval:
// every subset of the allowed tasks that holds the required ones, fits
// every capacity and is pairwise unordered.
func forFeasibleSets(lb *lpBound, s *windows, iv *interval, visit func(set []int)) {
	for mask := 0; mask < 1<<len(iv.allowed); mask++ {
		var set []int
		for x, i := range iv.allowed {
			if mask&(1<<x) != 0 {
				set = append(set, i)
			}
		}
		if holds(set, iv.required) && feasibleSet(lb, s, set) {
			visit(set)
		}
	}
}

func holds(set, req []int) bool {
	for _, r := range req {
		ok := false
		for _, i := range set {
			ok = ok || i == r
		}
		if !ok {
			return false
		}
	}
	return true
}

// feasibleSet: within every capacity and pairwise unordered.
func feasibleSet(lb *lpBound, s *windows, set []int) bool {
	p := lb.p
	use := make([]int64, p.k)
	for x, i := range set {
		for r, c := range p.demand(i) {
			use[r] += c
		}
		for _, j := range set[:x] {
			if !lb.together(s, i, j) {
				return false
			}
		}
	}
	for r, u := range use {
		if u > p.cap[r] {
			return false
		}
	}
	return true
}
