package vbp

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// bruteMixed returns the cheapest cost of a mixed packing by trying every
// assignment: item i goes into an open node (of the type chosen when it
// was opened) where it fits and that it is allowed on, or opens a node of
// any allowed type with a node left. Costs are summed like
// MixedResult.Cost. ok is false when no packing respects the Max limits.
// Only for n ≤ 8.
func bruteMixed(inst *MixedInstance) (best float64, ok bool) {
	var sizes [][]int64
	var kinds []int
	for j, it := range inst.Items {
		for c := 0; c < it.Count; c++ {
			sizes = append(sizes, it.Size)
			kinds = append(kinds, j)
		}
	}
	allowed := func(i, t int) bool {
		if inst.Allowed == nil {
			return true
		}
		for _, u := range inst.Allowed[kinds[i]] {
			if u == t {
				return true
			}
		}
		return false
	}
	T := len(inst.Types)
	count := make([]int, T)
	type node struct {
		t    int
		load []int64
	}
	var nodes []node
	best = math.Inf(1)
	cost := func() float64 {
		c := 0.0
		for t, k := range count {
			c += float64(k) * inst.Types[t].Cost
		}
		return c
	}
	fits := func(load, s, c []int64) bool {
		for k := range s {
			if load[k]+s[k] > c[k] {
				return false
			}
		}
		return true
	}
	var rec func(i int)
	rec = func(i int) {
		c := cost()
		if c > best*(1+1e-9) {
			return
		}
		if i == len(sizes) {
			best = min(best, c)
			return
		}
		for _, nd := range nodes {
			if allowed(i, nd.t) && fits(nd.load, sizes[i], inst.Types[nd.t].Capacity) {
				for k, v := range sizes[i] {
					nd.load[k] += v
				}
				rec(i + 1)
				for k, v := range sizes[i] {
					nd.load[k] -= v
				}
			}
		}
		for t, nt := range inst.Types {
			if (nt.Max > 0 && count[t] >= nt.Max) || !allowed(i, t) || !fits(make([]int64, len(sizes[i])), sizes[i], nt.Capacity) {
				continue
			}
			count[t]++
			nodes = append(nodes, node{t, append([]int64(nil), sizes[i]...)})
			rec(i + 1)
			nodes = nodes[:len(nodes)-1]
			count[t]--
		}
	}
	rec(0)
	return best, !math.IsInf(best, 1)
}

// randomMixed draws a tiny instance: 2–3 node types with capacities in
// [4, 20] (now and then 0, a dimension the type lacks), costs either equal,
// roughly proportional to capacity or arbitrary, Max limits now and then,
// and up to maxItems items with sizes in [0, 12], each fitting some type.
func randomMixed(rng *rand.Rand, maxItems int) *MixedInstance {
	d, T := 1+rng.IntN(3), 2+rng.IntN(2)
	inst := &MixedInstance{Name: "random"}
	costMode := rng.IntN(3)
	for t := 0; t < T; t++ {
		nt := NodeType{Capacity: make([]int64, d)}
		sum := 0.0
		for k := range nt.Capacity {
			nt.Capacity[k] = 4 + rng.Int64N(17)
			if rng.IntN(8) == 0 {
				nt.Capacity[k] = 0
			}
			sum += float64(nt.Capacity[k])
		}
		switch costMode {
		case 0:
			nt.Cost = 1
		case 1:
			nt.Cost = (1 + sum) * (0.8 + 0.4*rng.Float64())
		default:
			nt.Cost = float64(1 + rng.IntN(10))
		}
		if rng.IntN(4) == 0 {
			nt.Max = 1 + rng.IntN(3)
		}
		inst.Types = append(inst.Types, nt)
	}
	n := 1 + rng.IntN(maxItems)
	for placed := 0; placed < n; {
		s := make([]int64, d)
		for k := range s {
			s[k] = rng.Int64N(13)
		}
		fits := false
		for _, nt := range inst.Types {
			ok := true
			for k := range s {
				ok = ok && s[k] <= nt.Capacity[k]
			}
			fits = fits || ok
		}
		if !fits {
			continue
		}
		c := 1
		if placed+1 < n && rng.IntN(4) == 0 {
			c = 2
		}
		inst.Items = append(inst.Items, Item{Size: s, Count: c})
		placed += c
	}
	return inst
}

// withAllowed gives inst random placement constraints: each item type
// keeps every type with probability 1/4, otherwise each type with
// probability 1/2, plus a random type it fits when none of those does.
func withAllowed(rng *rand.Rand, inst *MixedInstance) *MixedInstance {
	fits := func(s, c []int64) bool {
		for k := range s {
			if s[k] > c[k] {
				return false
			}
		}
		return true
	}
	inst.Allowed = make([][]int, len(inst.Items))
	for j, it := range inst.Items {
		var al, fit []int
		any := false
		all := rng.IntN(4) == 0
		for t, nt := range inst.Types {
			f := fits(it.Size, nt.Capacity)
			if f {
				fit = append(fit, t)
			}
			if all || rng.IntN(2) == 0 {
				al = append(al, t)
				any = any || f
			}
		}
		if !any {
			al = append(al, fit[rng.IntN(len(fit))])
			sort.Ints(al)
		}
		inst.Allowed[j] = al
	}
	return inst
}

// bruteStats counts how SolveMixed and MixedLowerBound compare with
// bruteMixed over random instances.
type bruteStats struct {
	cases, feasible, optimal, boundTight, proven, heuristicFail, infeasible int
	gap                                                                     float64
}

// againstBruteForce checks SolveMixed, MixedLowerBound and CheckMixed on
// the given number of instances from gen against bruteMixed: the cost
// never below the optimum, the bound never above, infeasibility only when
// brute force finds none.
func againstBruteForce(t *testing.T, cases int, gen func() *MixedInstance) bruteStats {
	t.Helper()
	st := bruteStats{cases: cases}
	for c := 0; c < cases; c++ {
		inst := gen()
		opt, ok := bruteMixed(inst)
		lb, bounds, lbErr := MixedLowerBound(inst)
		res, err := SolveMixed(inst, Options{Seed: uint64(c)})
		if !ok {
			st.infeasible++
			if !errors.Is(err, ErrNodeLimit) {
				t.Fatalf("case %d: infeasible by brute force, SolveMixed err = %v", c, err)
			}
			var nl *NodeLimitError
			if errors.As(lbErr, &nl) && nl.Proven {
				st.proven++
			}
			continue
		}
		st.feasible++
		if lbErr != nil {
			t.Fatalf("case %d: feasible (optimum %v) but MixedLowerBound: %v", c, opt, lbErr)
		}
		if lb > opt {
			t.Fatalf("case %d: lower bound %v (%v) > optimum %v\n%+v", c, lb, bounds, opt, inst)
		}
		for name, v := range bounds {
			if v > lb {
				t.Fatalf("case %d: bound %s = %v above LowerBound %v", c, name, v, lb)
			}
		}
		if lb >= opt*(1-1e-9) {
			st.boundTight++
		}
		var nl *NodeLimitError
		if errors.As(err, &nl) && !nl.Proven {
			st.heuristicFail++
			continue
		}
		if err != nil {
			t.Fatalf("case %d: SolveMixed: %v\n%+v", c, err, inst)
		}
		if err := CheckMixed(inst, res); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if res.Cost < opt*(1-1e-9) {
			t.Fatalf("case %d: cost %v < optimum %v", c, res.Cost, opt)
		}
		if res.LowerBound != lb || !reflect.DeepEqual(res.Bounds, bounds) {
			t.Fatalf("case %d: result bound %v %v, MixedLowerBound %v %v", c, res.LowerBound, res.Bounds, lb, bounds)
		}
		if res.Cost <= opt*(1+1e-9) {
			st.optimal++
		}
		st.gap += res.Cost/opt - 1
	}
	solved := st.feasible - st.heuristicFail
	t.Logf("%d cases: %d infeasible by Max (%d proven by the bound); of %d feasible, SolveMixed optimal on %d, mean gap %.4f%%, no packing found on %d; lower bound = optimum on %d",
		cases, st.infeasible, st.proven, st.feasible, st.optimal, 100*st.gap/float64(max(solved, 1)), st.heuristicFail, st.boundTight)
	return st
}

// guard fails t when the rates fall below the given percentages of the
// feasible cases (optimal, bound tight) or the heuristics fail on more
// than 1%.
func (st bruteStats) guard(t *testing.T, optimalPct, tightPct int) {
	t.Helper()
	if st.optimal < st.feasible*optimalPct/100 {
		t.Errorf("SolveMixed optimal on only %d of %d feasible cases", st.optimal, st.feasible)
	}
	if st.heuristicFail > st.feasible/100 {
		t.Errorf("SolveMixed found no packing on %d of %d feasible cases", st.heuristicFail, st.feasible)
	}
	if st.boundTight < st.feasible*tightPct/100 {
		t.Errorf("lower bound tight on only %d of %d feasible cases", st.boundTight, st.feasible)
	}
}

func TestMixedAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 8)) // fixed seed: reproducible cases
	st := againstBruteForce(t, 600, func() *MixedInstance { return randomMixed(rng, 7) })
	// Regression guards, set below the measured rates (see the log:
	// optimal on all 543 feasible cases, bound tight on 493).
	st.guard(t, 97, 85)
}

// TestMixedAllowedAgainstBruteForce is TestMixedAgainstBruteForce with
// random placement constraints (see withAllowed).
func TestMixedAllowedAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 9))
	st := againstBruteForce(t, 600, func() *MixedInstance { return withAllowed(rng, randomMixed(rng, 7)) })
	// Measured: optimal on all 532 feasible cases, bound tight on 483.
	st.guard(t, 97, 85)
}

// TestMixedLimitedTypes covers Max limits that the cost-efficiency greedy
// alone gets wrong (found by comparing with bruteMixed on 8 items).
func TestMixedLimitedTypes(t *testing.T) {
	for _, tc := range []struct {
		name string
		inst *MixedInstance
		opt  float64
	}{
		{
			// The greedy puts 9+2+1 into the only 12-node, then 6, 6, 5, 5
			// need four 9-nodes but three exist; best fit into all
			// limited nodes gives {9}, {6,1}, {6}, {5,5,2} (cost 4).
			name: "scarce big node",
			inst: &MixedInstance{
				Types: []NodeType{{Capacity: []int64{9}, Cost: 1, Max: 3}, {Capacity: []int64{12}, Cost: 1, Max: 1}, {Capacity: []int64{4}, Cost: 1}},
				Items: []Item{{[]int64{5}, 2}, {[]int64{6}, 1}, {[]int64{6}, 1}, {[]int64{1}, 1}, {[]int64{2}, 1}, {[]int64{9}, 1}},
			},
			opt: 4,
		},
		{
			// Merging (7,5) and (6,1) into a (13,10) node needs one of the
			// three, all taken; moving the (12,5) item's node to the
			// (12,5) type frees one (merge via freeFor).
			name: "merge frees a node",
			inst: &MixedInstance{
				Types: []NodeType{{Capacity: []int64{13, 0}, Cost: 1}, {Capacity: []int64{13, 10}, Cost: 1, Max: 3}, {Capacity: []int64{12, 5}, Cost: 1, Max: 2}},
				Items: []Item{{[]int64{4, 5}, 1}, {[]int64{7, 5}, 1}, {[]int64{12, 5}, 1}, {[]int64{11, 10}, 1}, {[]int64{9, 5}, 1}, {[]int64{6, 1}, 1}},
			},
			opt: 4,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if opt, ok := bruteMixed(tc.inst); !ok || opt != tc.opt {
				t.Fatalf("brute force %v %v, want %v", opt, ok, tc.opt)
			}
			res, err := SolveMixed(tc.inst, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := CheckMixed(tc.inst, res); err != nil {
				t.Fatal(err)
			}
			if res.Cost != tc.opt {
				t.Errorf("cost %v (%s), want %v: %+v", res.Cost, res.Method, tc.opt, res.Bins)
			}
		})
	}
}

// TestMixedLowerBoundHand checks a bound worked by hand. One dimension;
// four items of size 6; type A: capacity 10, cost 1 (holds one item);
// type B: capacity 20, cost 1.8 (holds three). Volume 24, and at least 2
// nodes (L2 with capacity 20). LP: min x_A + 1.8·x_B s.t.
// 10·x_A + 20·x_B ≥ 24, x_A + x_B ≥ 2 → vertex x_A = 1.6, x_B = 0.4, cost
// 2.32. Integer: (k_A, k_B) = (1, 1) covers 30 ≥ 24 at cost 2.8, the
// optimum (one B with three items, one A with one).
func TestMixedLowerBoundHand(t *testing.T) {
	inst := &MixedInstance{
		Types: []NodeType{{Name: "A", Capacity: []int64{10}, Cost: 1}, {Name: "B", Capacity: []int64{20}, Cost: 1.8}},
		Items: []Item{{[]int64{6}, 4}},
	}
	lb, bounds, err := MixedLowerBound(inst)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(bounds["lp"]-2.32) > 1e-9 || bounds["integer"] != 2.8 || lb != 2.8 {
		t.Errorf("bounds %v, lb %v; want lp 2.32, integer 2.8", bounds, lb)
	}
	res, err := SolveMixed(inst, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cost != 2.8 || !res.Optimal || !reflect.DeepEqual(res.Count, []int{1, 1}) {
		t.Errorf("result %+v, want cost 2.8 with one A and one B, optimal", res)
	}
}

// TestMixedSubsetBound: items needing a GPU fit only the GPU type, so its
// nodes must cover their volume even though the CPU type is cheaper per
// unit; the bound and the packing both see it.
func TestMixedSubsetBound(t *testing.T) {
	inst := &MixedInstance{
		Types: []NodeType{
			{Name: "cpu", Capacity: []int64{16, 64, 0}, Cost: 1},
			{Name: "gpu", Capacity: []int64{16, 64, 4}, Cost: 4},
		},
		Items: []Item{
			{[]int64{4, 8, 1}, 6}, // GPU jobs: 6 GPUs → at least 2 gpu nodes
			{[]int64{4, 16, 0}, 8},
		},
	}
	lb, bounds, err := MixedLowerBound(inst)
	if err != nil {
		t.Fatal(err)
	}
	// GPU volume 6 over capacity 4 → 2 gpu nodes (cost 8), which hold
	// (32, 128, 8) and so 2 further (4,16,0) items in their spare room
	// (16 − 12 = 4 cpu left in one, 16 − 12... see below); the remaining
	// cpu demand needs cpu nodes. Whatever the split, cost ≥ 8 + ⌈(total
	// cpu 56 − 32)/16⌉ = 8 + 2 = 10.
	if lb < 10-1e-9 {
		t.Errorf("lower bound %v (%v), want ≥ 10", lb, bounds)
	}
	res, err := SolveMixed(inst, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckMixed(inst, res); err != nil {
		t.Fatal(err)
	}
	if res.Count[1] != 2 || res.Cost != 10 || !res.Optimal {
		t.Errorf("result %+v, want 2 gpu + 2 cpu nodes, cost 10, optimal", res)
	}
}

func TestMixedSingleTypeMatchesSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := 0; c < 6; c++ {
		inst := randomInstance(rng, 20+40*c, 1+c%3, 50)
		want, err := Solve(inst, Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		mi := &MixedInstance{Types: []NodeType{{Name: "only", Capacity: inst.Capacity, Cost: 2.5}}, Items: inst.Items}
		// A dominated second type (smaller, dearer) must change nothing.
		if c%2 == 1 {
			small := append([]int64(nil), inst.Capacity...)
			small[0]--
			mi.Types = append(mi.Types, NodeType{Name: "dominated", Capacity: small, Cost: 3})
		}
		res, err := SolveMixed(mi, Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckMixed(mi, res); err != nil {
			t.Fatal(err)
		}
		if len(res.Bins) != want.Bins || res.Count[0] != want.Bins || res.Cost != 2.5*float64(want.Bins) {
			t.Errorf("case %d: %d bins (cost %v), Solve %d", c, len(res.Bins), res.Cost, want.Bins)
		}
		if lb := 2.5 * float64(want.LowerBound.Best); res.Bounds["single-type"] != lb || res.LowerBound < lb {
			t.Errorf("case %d: bounds %v, want single-type %v", c, res.Bounds, lb)
		}
		if !strings.HasPrefix(res.Method, "single-type(only)/") {
			t.Errorf("case %d: method %q", c, res.Method)
		}
	}
}

// randomMixedLarge draws n items in d dimensions (sizes in [1, 40], a few
// needing the big type in dimension 0) and three node types: small, medium
// (twice the small, a little cheaper per unit) and a big type with more of
// dimension 0 and a Max.
func randomMixedLarge(rng *rand.Rand, n, d int) *MixedInstance {
	cp := func(base int64, first int64) []int64 {
		c := make([]int64, d)
		for k := range c {
			c[k] = base
		}
		c[0] = first
		return c
	}
	inst := &MixedInstance{Name: "large", Types: []NodeType{
		{Name: "small", Capacity: cp(64, 64), Cost: 1},
		{Name: "medium", Capacity: cp(128, 128), Cost: 1.9},
		{Name: "big", Capacity: cp(128, 256), Cost: 3.3, Max: n / 15},
	}}
	for i := 0; i < n; i++ {
		s := make([]int64, d)
		for k := range s {
			s[k] = 1 + rng.Int64N(40)
		}
		if rng.IntN(20) == 0 {
			s[0] = 130 + rng.Int64N(60)
		}
		inst.Items = append(inst.Items, Item{Size: s, Count: 1})
	}
	return inst
}

func TestMixedMedium(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inst := randomMixedLarge(rng, 300, 3)
	a, err := SolveMixed(inst, Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckMixed(inst, a); err != nil {
		t.Fatal(err)
	}
	t.Logf("300 items: cost %v, lower bound %v (%v), gap %.2f%%, count %v, %s",
		a.Cost, a.LowerBound, a.Bounds, 100*(a.Cost/a.LowerBound-1), a.Count, a.Method)
	// Measured 2.5% (mostly the bound: volume alone ignores how items
	// fit); 5% leaves room for tuning.
	if a.Cost > 1.05*a.LowerBound {
		t.Errorf("cost %v more than 5%% above the bound %v", a.Cost, a.LowerBound)
	}
	b, err := SolveMixed(inst, Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("SolveMixed with equal seeds differs")
	}
}

// TestMixedMediumAllowed is TestMixedMedium with placement constraints: a
// quarter of the items may not use the small type, a quarter not the
// medium one.
func TestMixedMediumAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inst := randomMixedLarge(rng, 300, 2)
	inst.Allowed = make([][]int, len(inst.Items))
	for j := range inst.Items {
		inst.Allowed[j] = [][]int{{1, 2}, {0, 2}, {0, 1, 2}, {0, 1, 2}}[rng.IntN(4)]
	}
	a, err := SolveMixed(inst, Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckMixed(inst, a); err != nil {
		t.Fatal(err)
	}
	t.Logf("300 items: cost %v, lower bound %v (%v), gap %.2f%%, count %v, %s",
		a.Cost, a.LowerBound, a.Bounds, 100*(a.Cost/a.LowerBound-1), a.Count, a.Method)
	// Measured 1.05%; the guard leaves room for tuning.
	if a.Cost > 1.06*a.LowerBound {
		t.Errorf("cost %v more than 6%% above the bound %v", a.Cost, a.LowerBound)
	}
	b, err := SolveMixed(inst, Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("SolveMixed with equal seeds differs")
	}
}

// TestMixedMaxWork: SolveMixed's work stays near MaxWork (a phase stops
// at its first check past the cap), equal budgets give equal results,
// every result passes CheckMixed, a tiny budget still returns a packing
// (the constructions are not budgeted), and the default run reports its
// work without a time limit.
func TestMixedMaxWork(t *testing.T) {
	inst := randomMixedLarge(rand.New(rand.NewPCG(5, 6)), 120, 3)
	free, err := SolveMixed(inst, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("default run: work %d, cost %v, bound %v, %s", free.WorkUsed, free.Cost, free.LowerBound, free.Method)
	if free.WorkUsed <= 0 || free.WorkUsed > DefaultMixedMaxWork || free.TimeLimitHit {
		t.Fatalf("default run: WorkUsed %d, TimeLimitHit %v", free.WorkUsed, free.TimeLimitHit)
	}
	for _, budget := range []int64{1, 50_000, free.WorkUsed} {
		a, err := SolveMixed(inst, Options{Seed: 3, MaxWork: budget})
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckMixed(inst, a); err != nil {
			t.Fatal(err)
		}
		if a.WorkUsed > budget+budget/100+10_000 {
			t.Errorf("MaxWork %d: WorkUsed %d", budget, a.WorkUsed)
		}
		b, _ := SolveMixed(inst, Options{Seed: 3, MaxWork: budget})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("MaxWork %d: two runs differ", budget)
		}
	}
	if _, err := SolveMixed(inst, Options{MaxWork: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("MaxWork -1: err = %v, want ErrInvalid", err)
	}
	tl, err := SolveMixed(inst, Options{Seed: 3, TimeLimit: time.Nanosecond})
	if err != nil || CheckMixed(inst, tl) != nil {
		t.Fatalf("TimeLimit 1ns: %v", err)
	}
	if !tl.TimeLimitHit && !tl.Optimal {
		t.Error("TimeLimit 1ns: not optimal, yet TimeLimitHit is unset")
	}
}

// BenchmarkMixed solves 2,000 items with three node types (one limited)
// in 2 and 3 dimensions and reports the cost over the lower bound.
func BenchmarkMixed(b *testing.B) {
	for _, d := range []int{2, 3} {
		b.Run(map[int]string{2: "d2", 3: "d3"}[d], func(b *testing.B) {
			inst := randomMixedLarge(rand.New(rand.NewPCG(11, uint64(d))), 2000, d)
			var res *MixedResult
			for b.Loop() {
				var err error
				if res, err = SolveMixed(inst, Options{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(res.Cost/res.LowerBound, "cost/LB")
			b.ReportMetric(float64(len(res.Bins)), "nodes")
		})
	}
}
