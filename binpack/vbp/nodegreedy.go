package vbp

import (
	"slices"
	"sort"
)

// volEps treats two normalised volumes as equal; volumes are sums of at
// most d ratios of integers, so this only absorbs rounding noise.
const volEps = 1e-9

// nodeGreedy is the node-at-a-time greedy of ALGORITHMS.md §2.4: open one
// bin, fill it with the subset of the remaining items of largest total
// normalised volume Σ_i Σ_k s_ik/c_k (a d-dimensional 0/1 knapsack), close
// it, repeat. With an exact knapsack this is the greedy for the separable
// assignment problem (Cohen, Katzir & Raz, IPL 2006).
//
// The knapsack is solved by depth-first branch and bound over the remaining
// items in decreasing volume order, bounded by the suffix volume and by
// the ideal fill Σ_k min(1, remaining_k/c_k), and cut off after nodeLimit
// search nodes (the best fill found so far is kept, and the search starts
// from the first-fit fill, so the result is at least that good). Copies of
// one item type are interchangeable, so a search level tries each run of
// identical items once (the multiset of a bin, not which copy, matters).
// Cost O(B · nodeLimit · t · d) in the worst case for t distinct sizes.
func (p *problem) nodeGreedy(nodeLimit int) Packing {
	left := make([]int, p.n)
	for i := range left {
		left[i] = i
	}
	sort.SliceStable(left, func(a, b int) bool { return p.vol[left[a]] > p.vol[left[b]] })
	var pk Packing
	for len(left) > 0 {
		bin := p.fillOne(left, nodeLimit)
		pk = append(pk, bin)
		taken := make(map[int]bool, len(bin))
		for _, i := range bin {
			taken[i] = true
		}
		left = dropTaken(left, taken)
	}
	return pk
}

// fillOne returns a subset of cand (sorted by decreasing volume) that fits
// one empty bin and has large total volume.
func (p *problem) fillOne(cand []int, nodeLimit int) []int {
	m := len(cand)
	suffix := make([]float64, m+1)
	for j := m - 1; j >= 0; j-- {
		suffix[j] = suffix[j+1] + max(0, p.vol[cand[j]]) // negative sizes never help the bound
	}
	// Ideal fill: no bin can hold more than min(1, Σ remaining / c) per
	// dimension.
	target := 0.0
	for k := 0; k < p.d; k++ {
		var s int64
		for _, i := range cand {
			s += p.size[i][k]
		}
		target += min(1, float64(s)/float64(p.cap[k]))
	}
	// next[j] is the first position after the run of items identical to
	// cand[j] (cand keeps equal items adjacent: sorted stably by volume
	// from type order).
	next := make([]int, m)
	for j := m - 1; j >= 0; j-- {
		next[j] = j + 1
		if j+1 < m && slices.Equal(p.size[cand[j]], p.size[cand[j+1]]) {
			next[j] = next[j+1]
		}
	}
	load := make([]int64, p.d)
	// Incumbent: first fit in volume order.
	var best []int
	bestV := 0.0
	for _, i := range cand {
		if p.fits(load, i) {
			p.add(load, i, 1)
			best = append(best, i)
			bestV += p.vol[i]
		}
	}
	if bestV >= target-volEps {
		return best
	}
	for k := range load {
		load[k] = 0
	}
	cur := make([]int, 0, 16)
	nodes := 0
	done := false
	var dfs func(start int, v float64)
	dfs = func(start int, v float64) {
		nodes++
		if len(cur) > 0 && v > bestV+volEps { // a bin holds at least one item
			bestV = v
			best = append(best[:0], cur...)
			if bestV >= target-volEps {
				done = true
			}
		}
		for j := start; j < m && !done && nodes < nodeLimit; {
			if v+suffix[j] <= bestV+volEps {
				return
			}
			i := cand[j]
			if p.fits(load, i) {
				p.add(load, i, 1)
				cur = append(cur, i)
				dfs(j+1, v+p.vol[i])
				cur = cur[:len(cur)-1]
				p.add(load, i, -1)
			}
			// Another copy of i at this level would repeat the branch
			// just explored (or fail to fit again).
			j = next[j]
		}
	}
	dfs(0, 0)
	return best
}
