package xselect

import (
	"math"
	"sort"
)

// knapsack solves the single-node bounded multi-dimensional knapsack of
// ALGORITHMS §2.4,
//
//	max Σ_k val_k y_k  s.t.  Σ_k y_k c_k ≤ free (per dimension),
//	                         0 ≤ y_k ≤ avail_k,
//
// by depth-first branch and bound over the shapes in decreasing value
// order, largest count first, so the first leaf is the greedy solution. The
// bound at depth i is the smaller of (a) value + Σ_{j≥i} val_j·ymax_j and
// (b) for each dimension d, value + free_d·max_{j≥i} val_j/c_{j,d}, both
// valid relaxations. At most budget search nodes are visited, so the result
// is exact when the budget is not exhausted and otherwise the best found.
// Shapes of zero size are taken in full. y receives the counts; solve
// returns the number of search nodes visited.
type knapsack struct {
	in *instance
	// val[k] is the value of a container of shape k: in.vol unless a
	// perturbation sets noisy values.
	val    []float64
	types  []int
	ymax   []int
	cur    []int
	best   []int
	bestV  float64
	free   [][]float64
	sufVol []float64
	ratio  [][]float64 // ratio[i][d] = max_{j≥i} val_j / c_{j,d}; +Inf if some c_{j,d}=0
	budget int
	n      int
}

// valTol: two knapsack values closer than this are treated as equal, so
// rounding cannot make the search prefer a later, equal solution.
const valTol = 1e-12

func (ks *knapsack) solve(n int, free []float64, avail []int, budget int, y []int) int {
	in := ks.in
	if ks.val == nil {
		ks.val = in.vol
	}
	for k := range y {
		y[k] = 0
	}
	ks.types = ks.types[:0]
	ks.ymax = ks.ymax[:0]
	for k, c := range avail {
		if c <= 0 {
			continue
		}
		m := c
		zero := true
		for d, v := range in.p.Shapes[k] {
			if v > 0 {
				zero = false
				f := int(math.Floor((free[d] - in.tol[n][d]) / v))
				m = min(m, f)
			}
		}
		if zero {
			y[k] = c
			continue
		}
		if m > 0 {
			ks.types = append(ks.types, k)
		}
	}
	if len(ks.types) == 0 {
		return 0
	}
	sort.SliceStable(ks.types, func(i, j int) bool { return ks.val[ks.types[i]] > ks.val[ks.types[j]] })
	t := len(ks.types)
	ks.ymax = ks.ymax[:0]
	for _, k := range ks.types {
		m := avail[k]
		for d, v := range in.p.Shapes[k] {
			if v > 0 {
				m = min(m, int(math.Floor((free[d]-in.tol[n][d])/v)))
			}
		}
		ks.ymax = append(ks.ymax, m)
	}
	ks.cur = resizeInts(ks.cur, t)
	ks.best = resizeInts(ks.best, t)
	for len(ks.free) < t+1 {
		ks.free = append(ks.free, make([]float64, in.nd))
	}
	ks.sufVol = resizeFloats(ks.sufVol, t+1)
	for len(ks.ratio) < t+1 {
		ks.ratio = append(ks.ratio, make([]float64, in.nd))
	}
	ks.sufVol[t] = 0
	for d := range in.nd {
		ks.ratio[t][d] = 0
	}
	for i := t - 1; i >= 0; i-- {
		k := ks.types[i]
		ks.sufVol[i] = ks.sufVol[i+1] + ks.val[k]*float64(ks.ymax[i])
		for d, v := range in.p.Shapes[k] {
			r := math.Inf(1)
			if v > 0 {
				r = ks.val[k] / v
			}
			ks.ratio[i][d] = math.Max(ks.ratio[i+1][d], r)
		}
	}
	copy(ks.free[0], free)
	ks.bestV = -1
	ks.budget = budget
	ks.n = n
	ks.dfs(0, 0)
	for i, k := range ks.types {
		y[k] = ks.best[i]
	}
	return budget - ks.budget
}

func (ks *knapsack) dfs(i int, val float64) {
	if val > ks.bestV+valTol {
		ks.bestV = val
		copy(ks.best, ks.cur)
		for j := i; j < len(ks.cur); j++ {
			ks.best[j] = 0
		}
	}
	if i == len(ks.types) || ks.budget <= 0 {
		return
	}
	ks.budget--
	in := ks.in
	free := ks.free[i]
	bound := val + ks.sufVol[i]
	for d, r := range ks.ratio[i] {
		if !math.IsInf(r, 1) {
			bound = math.Min(bound, val+math.Max(free[d], 0)*r)
		}
	}
	if bound <= ks.bestV+valTol {
		return
	}
	k := ks.types[i]
	shape := in.p.Shapes[k]
	y := ks.ymax[i]
	for d, v := range shape {
		if v > 0 {
			y = min(y, int(math.Floor((free[d]-in.tol[ks.n][d])/v)))
		}
	}
	next := ks.free[i+1]
	for ; y >= 0; y-- {
		for d, v := range shape {
			next[d] = free[d] - float64(y)*v
		}
		ks.cur[i] = y
		ks.dfs(i+1, val+float64(y)*ks.val[k])
		if ks.budget <= 0 {
			break
		}
	}
	ks.cur[i] = 0
}

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func resizeFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
