package xsize

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/capplan/capplan/binpack"
)

// constrainedOptimum is the partition oracle (partitionOptimum) for
// requests limited to node types: a block is feasible when its
// coordinate-wise max fits, for every member, a node type that member may
// use. It never looks at meets, chains or the grid.
func constrainedOptimum(p *Problem, cost func([]float64) float64) float64 {
	n := len(p.Requests)
	full := 1<<n - 1
	block := make([]float64, full+1)
	for m := 1; m <= full; m++ {
		mx := make([]float64, len(p.Scale))
		w := 0.0
		for i := range n {
			if m&(1<<i) != 0 {
				w += p.Requests[i].Weight
				for d, x := range p.Requests[i].Size {
					mx[d] = max(mx[d], x)
				}
			}
		}
		ok := true
		for i := 0; i < n && ok; i++ {
			if m&(1<<i) == 0 {
				continue
			}
			fits := false
			for _, j := range p.Requests[i].Nodes {
				fits = fits || binpack.Dominates(p.Nodes[j], mx)
			}
			ok = fits
		}
		block[m] = math.Inf(1)
		if ok {
			block[m] = w * cost(mx)
		}
	}
	f := slices.Clone(block)
	best := f[full]
	for k := 2; k <= p.K; k++ {
		g := make([]float64, full+1)
		for m := 1; m <= full; m++ {
			g[m] = f[m]
			low := m & -m
			rest := m ^ low
			for sub := rest; ; sub = (sub - 1) & rest {
				if b := low | sub; b != m {
					g[m] = min(g[m], block[b]+f[m^b])
				}
				if sub == 0 {
					break
				}
			}
		}
		f = g
		best = min(best, f[full])
	}
	return best
}

// randomConstrained builds a small instance with 2–4 node types of random
// capacities and every request limited to a random non-empty set of the
// node types that can hold it (requests that fit none are shrunk until
// they fit the first).
func randomConstrained(r *rand.Rand, D, n, K int, cost Cost) *Problem {
	p := &Problem{K: K, Cost: cost}
	for d := range D {
		p.Scale = append(p.Scale, float64(40+10*d))
	}
	for range 2 + r.IntN(3) {
		N := make([]float64, D)
		for d := range N {
			N[d] = float64(6 + r.IntN(7))
		}
		p.Nodes = append(p.Nodes, N)
	}
	for range n {
		s := make([]float64, D)
		for d := range s {
			s[d] = float64(1 + r.IntN(10))
		}
		var fit []int
		for j, N := range p.Nodes {
			if binpack.Dominates(N, s) {
				fit = append(fit, j)
			}
		}
		if len(fit) == 0 {
			for d := range s {
				s[d] = min(s[d], p.Nodes[0][d])
			}
			fit = []int{0}
		}
		var elig []int
		for _, j := range fit {
			if r.IntN(2) == 0 {
				elig = append(elig, j)
			}
		}
		if len(elig) == 0 {
			elig = []int{fit[r.IntN(len(fit))]}
		}
		p.Requests = append(p.Requests, Request{Size: s, Weight: float64(1 + r.IntN(9)), Nodes: elig})
	}
	return p
}

// TestEligibilityAgainstOracle: with every request limited to some node
// types, Exact and MaxDP find the partition oracle's optimum, one PTAS step
// at ε is within (1+ε) of it, LocalSearch and the lower bound bracket it,
// and every catalog covers every request by a shape that fits a node type
// it may use (checkSolution).
func TestEligibilityAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 4)) // fixed seed
	checked := 0
	for it := range 600 {
		D, n, K := 2+it%2, 1+r.IntN(7), 1+r.IntN(3)
		cost := SumCost
		if it%4 == 3 {
			cost = MaxCost
		}
		p := randomConstrained(r, D, n, K, cost)
		opt := constrainedOptimum(p, func(c []float64) float64 { return binpack.ShapeCost(c, p.Scale, cost) })
		if math.IsInf(opt, 1) {
			if _, err := Exact(p, ExactOptions{}); err == nil {
				t.Fatalf("instance %d: the oracle finds no catalog, Exact does", it)
			}
			continue
		}
		ex, err := Exact(p, ExactOptions{})
		if err != nil {
			t.Fatalf("instance %d: Exact: %v", it, err)
		}
		checkSolution(t, p, ex)
		if !approxEq(ex.Cost, opt) {
			t.Fatalf("instance %d: Exact %v, oracle %v", it, ex.Cost, opt)
		}
		if lb := LowerBound(p); lb > opt*(1+1e-9) {
			t.Fatalf("instance %d: lower bound %v > OPT %v", it, lb, opt)
		}
		if cost == MaxCost {
			s, err := MaxDP(p)
			if err != nil {
				t.Fatalf("instance %d: MaxDP: %v", it, err)
			}
			checkSolution(t, p, s)
			if !approxEq(s.Cost, opt) {
				t.Fatalf("instance %d: MaxDP %v, oracle %v", it, s.Cost, opt)
			}
		} else {
			for _, eps := range []float64{1, 0.5, 0.2} {
				s, err := PTAS(p, PTASOptions{Eps: eps, MinEps: eps})
				if err != nil {
					t.Fatalf("instance %d ε=%v: %v", it, eps, err)
				}
				checkSolution(t, p, s)
				if s.Cost > (1+eps)*opt*(1+1e-9) {
					t.Fatalf("instance %d ε=%v: cost %v > (1+ε)·OPT = %v", it, eps, s.Cost, (1+eps)*opt)
				}
				if s.LowerBound > opt*(1+1e-9) {
					t.Fatalf("instance %d: PTAS lower bound %v > OPT %v", it, s.LowerBound, opt)
				}
			}
		}
		ls, err := LocalSearch(p, LocalOptions{Seed: 1})
		if err != nil {
			t.Fatalf("instance %d: LocalSearch: %v", it, err)
		}
		checkSolution(t, p, ls)
		if ls.Cost < opt*(1-1e-9) {
			t.Fatalf("instance %d: LocalSearch %v below OPT %v", it, ls.Cost, opt)
		}
		checked++
	}
	if checked < 300 {
		t.Fatalf("only %d feasible instances", checked)
	}
	t.Logf("%d feasible constrained instances checked", checked)
}

// TestEligibilityHandExample: two node types, a (cpu 8, mem 16) and b (cpu
// 4, mem 64). Request x (2, 4) may use a only, y (2, 40) b only. Without
// constraints one shape (2, 40) fits b and dominates both; with them x
// cannot use a shape that fits b only, so K = 1 is infeasible and K = 2
// gives the shapes (2, 4) on a and (2, 40) on b.
func TestEligibilityHandExample(t *testing.T) {
	p := &Problem{Scale: []float64{100, 1000}, K: 1, Cost: SumCost,
		Nodes:    [][]float64{{8, 16}, {4, 64}},
		Requests: []Request{{Size: []float64{2, 4}, Weight: 1, Nodes: []int{0}}, {Size: []float64{2, 40}, Weight: 1, Nodes: []int{1}}}}
	if _, err := Exact(p, ExactOptions{}); err == nil {
		t.Fatal("K = 1 is infeasible, Exact found a catalog")
	}
	if _, err := PTAS(p, PTASOptions{}); err == nil {
		t.Fatal("K = 1 is infeasible, PTAS found a catalog")
	}
	p.K = 2
	for _, solve := range []func(*Problem) (*Solution, error){
		func(p *Problem) (*Solution, error) { return Exact(p, ExactOptions{}) },
		func(p *Problem) (*Solution, error) { return PTAS(p, PTASOptions{}) },
		func(p *Problem) (*Solution, error) { return LocalSearch(p, LocalOptions{}) },
	} {
		s, err := solve(p)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, p, s)
		want := [][]float64{{2, 4}, {2, 40}}
		if !slices.EqualFunc(s.Shapes, want, slices.Equal) || !slices.Equal(s.Assign, []int{0, 1}) {
			t.Errorf("%s: shapes %v assign %v, want %v [0 1]", s.Method, s.Shapes, s.Assign, want)
		}
	}
}
