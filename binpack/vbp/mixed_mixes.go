package vbp

import (
	"math"
	"sort"
)

// integerBound solves min Σ_t cost_t·k_t over integers 0 ≤ k_t ≤ Max_t
// satisfying rows exactly (see cheapMixes with k = 1). It reports false when
// the enumeration exceeds irNodeLimit nodes, +Inf when no counts are
// feasible.
func (mp *mixedProblem) integerBound(rows []lbRow) (float64, bool) {
	mixes, complete := mp.cheapMixes(rows, 1, irNodeLimit, nil)
	if !complete {
		return 0, false
	}
	if len(mixes) == 0 {
		return math.Inf(1), true
	}
	return mixedCost(mp.inst, mixes[0]), true
}

// cheapMixes returns the k cheapest node counts (indexed by type, in
// increasing cost) among the integer points 0 ≤ k_t ≤ Max_t satisfying rows
// in which the cheapest active type has the least count that covers every
// row; among equal costs, those closer to ref (Σ_t cost_t·|k_t − ref_t|;
// ref may be nil) come first. It enumerates the counts of the other
// active types depth first (most expensive first), pruning a branch when
// its cost so far plus the cheapest covering of its most demanding row
// exceeds the k-th cost found (by more than rounding, so the minimum is
// exact). complete is false when the enumeration exceeded limit nodes (the
// mixes are then the cheapest found). Costs are summed in type index
// order, like MixedResult.Cost.
func (mp *mixedProblem) cheapMixes(rows []lbRow, k, limit int, ref []int) (mixes [][]int, complete bool) {
	A := len(mp.active)
	order := make([]int, A) // positions in mp.active, most expensive first
	for p := range order {
		order[p] = p
	}
	sort.SliceStable(order, func(a, b int) bool { return mp.cost[mp.active[order[a]]] > mp.cost[mp.active[order[b]]] })
	// rate[l][r]: cheapest cost per unit of row r among order[l:].
	rate := make([][]float64, A)
	for l := range rate {
		rate[l] = make([]float64, len(rows))
		for r, row := range rows {
			rate[l][r] = math.Inf(1)
			for _, p := range order[l:] {
				if row.coef[p] > 0 {
					rate[l][r] = min(rate[l][r], mp.cost[mp.active[p]]/float64(row.coef[p]))
				}
			}
		}
	}
	cov := make([]int64, len(rows))
	cnt := make([]int, len(mp.cap)) // by type
	var costs, dists []float64
	dist := func(m []int) float64 {
		if ref == nil {
			return 0
		}
		v := 0.0
		for t, c := range m {
			v += mp.cost[t] * math.Abs(float64(c-ref[t]))
		}
		return v
	}
	thr := func() float64 {
		if len(mixes) < k {
			return math.Inf(1)
		}
		return costs[k-1]
	}
	nodes := 0
	var dfs func(l int, partial float64) bool
	dfs = func(l int, partial float64) bool {
		nodes++
		if nodes > limit {
			return false
		}
		p := order[l]
		t := mp.active[p]
		lim := int64(mp.lim[t])
		if l == A-1 {
			var need int64
			for r, row := range rows {
				if gap := row.rhs - cov[r]; gap > 0 {
					if row.coef[p] == 0 {
						return true
					}
					need = max(need, (gap+row.coef[p]-1)/row.coef[p])
				}
			}
			if need > lim {
				return true
			}
			cnt[t] = int(need)
			c := mixedCost(mp.inst, cnt)
			cnt[t] = 0
			if c > thr() {
				return true
			}
			m := append([]int(nil), cnt...)
			m[t] = int(need)
			dm := dist(m)
			if c == thr() && len(mixes) == k && dm >= dists[k-1] {
				return true
			}
			at := sort.Search(len(costs), func(x int) bool { return costs[x] > c || (costs[x] == c && dists[x] > dm) })
			costs = append(costs[:at], append([]float64{c}, costs[at:]...)...)
			dists = append(dists[:at], append([]float64{dm}, dists[at:]...)...)
			mixes = append(mixes[:at], append([][]int{m}, mixes[at:]...)...)
			if len(mixes) > k {
				costs, dists, mixes = costs[:k], dists[:k], mixes[:k]
			}
			return true
		}
		lb := partial
		var kmax int64
		for r, row := range rows {
			gap := row.rhs - cov[r]
			if gap <= 0 {
				continue
			}
			lb = max(lb, partial+float64(gap)*rate[l][r])
			if row.coef[p] > 0 {
				kmax = max(kmax, (gap+row.coef[p]-1)/row.coef[p])
			}
		}
		if lb > thr()*(1+1e-12) {
			return true
		}
		kmax = min(kmax, lim)
		cost := mp.cost[t]
		var kk int64
		ok := true
		for kk = 0; kk <= kmax; kk++ {
			if kk > 0 {
				for r, row := range rows {
					cov[r] += row.coef[p]
				}
			}
			if partial+float64(kk)*cost > thr()*(1+1e-12) {
				break
			}
			cnt[t] = int(kk)
			if !dfs(l+1, partial+float64(kk)*cost) {
				ok = false
				break
			}
		}
		steps := min(kk, kmax)
		for r, row := range rows {
			cov[r] -= steps * row.coef[p]
		}
		cnt[t] = 0
		return ok
	}
	complete = dfs(0, 0)
	return mixes, complete
}
