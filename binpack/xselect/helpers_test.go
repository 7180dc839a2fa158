package xselect

import (
	"math"
	"math/rand/v2"
	"testing"
)

// testSearcher returns a searcher over p for the breakpoint helpers.
func testSearcher(p *Problem) *searcher {
	in := newInstance(p)
	return &searcher{full: in, in: in}
}

// randomSmall builds a tiny instance: ≤ 3 nodes, ≤ 2 shapes, ≤ 2 apps,
// integer sizes so that feasibility is decided exactly.
func randomSmall(rng *rand.Rand) *Problem {
	p := &Problem{Dims: []string{"cpu", "mem"}}
	for range 1 + rng.IntN(3) {
		p.Nodes = append(p.Nodes, Node{Capacity: []float64{float64(2 + rng.IntN(7)), float64(2 + rng.IntN(7))}})
	}
	for range 1 + rng.IntN(2) {
		p.Shapes = append(p.Shapes, []float64{float64(1 + rng.IntN(3)), float64(1 + rng.IntN(3))})
	}
	na := 1 + rng.IntN(2)
	for range na {
		app := App{Share: 1 / float64(na), Mix: make([]float64, len(p.Shapes))}
		for k := range app.Mix {
			app.Mix[k] = float64(rng.IntN(3)) // 0..2 per unit λ
		}
		if rng.IntN(2) == 0 {
			for n := range p.Nodes {
				if rng.IntN(2) == 0 {
					app.Eligible = append(app.Eligible, n)
				}
			}
			if app.Eligible == nil {
				app.Eligible = []int{}
			}
		}
		p.Apps = append(p.Apps, app)
	}
	return p
}

// randomConstrained builds a tiny instance with placement rules: ≤ 4
// nodes, ≤ 2 shapes, 2–4 apps with mixes in {0, ½, 1, 2}, random
// eligibility, MaxPerNode ∈ {0,1,2} and random Colocate (cycles allowed)
// and Exlocate pairs.
func randomConstrained(rng *rand.Rand) *Problem {
	p := &Problem{Dims: []string{"cpu", "mem"}}
	for range 1 + rng.IntN(4) {
		p.Nodes = append(p.Nodes, Node{Capacity: []float64{float64(2 + rng.IntN(6)), float64(2 + rng.IntN(6))}})
	}
	for range 1 + rng.IntN(2) {
		p.Shapes = append(p.Shapes, []float64{float64(1 + rng.IntN(3)), float64(1 + rng.IntN(3))})
	}
	na := 2 + rng.IntN(3)
	mixes := []float64{0, 0.5, 1, 2}
	for range na {
		app := App{Share: 1 / float64(na), Mix: make([]float64, len(p.Shapes))}
		for k := range app.Mix {
			app.Mix[k] = mixes[rng.IntN(len(mixes))]
		}
		if rng.IntN(3) == 0 {
			app.Eligible = []int{}
			for n := range p.Nodes {
				if rng.IntN(3) > 0 {
					app.Eligible = append(app.Eligible, n)
				}
			}
		}
		app.MaxPerNode = rng.IntN(3)
		p.Apps = append(p.Apps, app)
	}
	for range rng.IntN(3) {
		a, b := rng.IntN(na), rng.IntN(na)
		if a != b {
			p.Colocate = append(p.Colocate, [2]int{a, b})
		}
	}
	for range rng.IntN(3) {
		a, b := rng.IntN(na), rng.IntN(na)
		if a != b {
			p.Exlocate = append(p.Exlocate, [2]int{a, b})
		}
	}
	return p
}

// exactFeasible decides by exhaustive assignment whether exactly the set
// req packs into a plan that passes Check (capacity, eligibility,
// MaxPerNode, Exlocate as items are assigned, Colocate at the leaves).
// Identical containers take non-decreasing node indices (symmetry break).
// It shares no code with the packer.
func exactFeasible(p *Problem, req [][]int) bool {
	var items []Container
	for a := range req {
		for k, c := range req[a] {
			for range c {
				items = append(items, Container{Shape: k, Owner: a})
			}
		}
	}
	elig := func(a, n int) bool {
		if p.Apps[a].Eligible == nil {
			return true
		}
		for _, m := range p.Apps[a].Eligible {
			if m == n {
				return true
			}
		}
		return false
	}
	excl := func(a, b int) bool {
		for _, pr := range p.Exlocate {
			if (pr[0] == a && pr[1] == b) || (pr[0] == b && pr[1] == a) {
				return true
			}
		}
		return false
	}
	free := make([][]float64, len(p.Nodes))
	cnt := make([][]int, len(p.Nodes))
	for n := range free {
		free[n] = append([]float64(nil), p.Nodes[n].Capacity...)
		cnt[n] = make([]int, len(p.Apps))
	}
	var rec func(i, from int) bool
	rec = func(i, from int) bool {
		if i == len(items) {
			for _, pr := range p.Colocate {
				for n := range cnt {
					if cnt[n][pr[0]] > 0 && cnt[n][pr[1]] == 0 {
						return false
					}
				}
			}
			return true
		}
		it := items[i]
		if i == 0 || items[i-1] != it {
			from = 0
		}
		for n := from; n < len(p.Nodes); n++ {
			if !elig(it.Owner, n) {
				continue
			}
			if m := p.Apps[it.Owner].MaxPerNode; m > 0 && cnt[n][it.Owner] >= m {
				continue
			}
			ok := true
			for d, v := range p.Shapes[it.Shape] {
				ok = ok && v <= free[n][d]
			}
			for b, c := range cnt[n] {
				ok = ok && (c == 0 || !excl(it.Owner, b))
			}
			if !ok {
				continue
			}
			for d, v := range p.Shapes[it.Shape] {
				free[n][d] -= v
			}
			cnt[n][it.Owner]++
			found := rec(i+1, n)
			cnt[n][it.Owner]--
			for d, v := range p.Shapes[it.Shape] {
				free[n][d] += v
			}
			if found {
				return true
			}
		}
		return false
	}
	return rec(0, 0)
}

// bruteLambda returns the largest breakpoint λ ≤ LambdaUpper(p) (or 0)
// whose required set exactFeasible packs. Every breakpoint is tried:
// with Colocate, feasibility is not monotone in λ (a needs b, and a
// smaller λ may leave a's containers fewer b's to share).
func bruteLambda(p *Problem) float64 {
	s := testSearcher(p)
	ub := LambdaUpper(p)
	best := 0.0
	for lam := s.next(0); lam <= ub*(1+1e-12) && !math.IsInf(lam, 1); lam = s.next(lam) {
		if exactFeasible(p, s.counts(lam)) {
			best = lam
		}
	}
	return best
}

// checkRequired verifies that plan passes Check, holds the whole required
// set of its λ, and that λ ≤ LambdaUpper.
func checkRequired(t *testing.T, p *Problem, plan *Plan) {
	t.Helper()
	if err := Check(p, plan); err != nil {
		t.Fatal(err)
	}
	got := make([][]int, len(p.Apps))
	for a := range got {
		got[a] = make([]int, len(p.Shapes))
	}
	for _, cs := range plan.Nodes {
		for _, c := range cs {
			got[c.Owner][c.Shape]++
		}
	}
	for a, app := range p.Apps {
		for k, m := range app.Mix {
			if got[a][k] < Count(plan.Lambda, m) {
				t.Fatalf("app %d shape %d: %d packed < %d required at λ=%v", a, k, got[a][k], Count(plan.Lambda, m), plan.Lambda)
			}
		}
	}
	if plan.Lambda > plan.LambdaUpper {
		t.Fatalf("λ=%v above the upper bound %v", plan.Lambda, plan.LambdaUpper)
	}
}

func nan() float64 { return math.NaN() }

// randomHarder builds a small constrained instance that is still within
// reach of exactFeasible but rarely decided by LambdaUpper alone: 3–6
// nodes of 4–12 cpu and mem, 2–3 shapes of 1–4, 2–4 apps with mixes in
// {0, ½, 1, 1, 2}, MaxPerNode 0–3 and random Colocate and Exlocate pairs.
func randomHarder(rng *rand.Rand) *Problem {
	p := &Problem{Dims: []string{"cpu", "mem"}}
	for range 3 + rng.IntN(4) {
		p.Nodes = append(p.Nodes, Node{Capacity: []float64{float64(4 + rng.IntN(9)), float64(4 + rng.IntN(9))}})
	}
	for range 2 + rng.IntN(2) {
		p.Shapes = append(p.Shapes, []float64{float64(1 + rng.IntN(4)), float64(1 + rng.IntN(4))})
	}
	na := 2 + rng.IntN(3)
	mixes := []float64{0, 0.5, 1, 1, 2}
	for range na {
		app := App{Share: 1 / float64(na), Mix: make([]float64, len(p.Shapes))}
		for k := range app.Mix {
			app.Mix[k] = mixes[rng.IntN(len(mixes))]
		}
		if rng.IntN(3) == 0 {
			app.Eligible = []int{}
			for n := range p.Nodes {
				if rng.IntN(3) > 0 {
					app.Eligible = append(app.Eligible, n)
				}
			}
		}
		app.MaxPerNode = rng.IntN(4)
		p.Apps = append(p.Apps, app)
	}
	for range rng.IntN(3) {
		if a, b := rng.IntN(na), rng.IntN(na); a != b {
			p.Colocate = append(p.Colocate, [2]int{a, b})
		}
	}
	for range rng.IntN(3) {
		if a, b := rng.IntN(na), rng.IntN(na); a != b {
			p.Exlocate = append(p.Exlocate, [2]int{a, b})
		}
	}
	return p
}
