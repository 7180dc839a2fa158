package vbp

import (
	"math"
	"sort"
)

// Item-size measures used to order items for first-fit decreasing, all over
// the normalised sizes w_ik = s_ik / c_k.
func keySum(w []float64) float64 {
	s := 0.0
	for _, v := range w {
		s += v
	}
	return s
}

func keyMax(w []float64) float64 {
	m := 0.0
	for _, v := range w {
		m = max(m, v)
	}
	return m
}

func keyL2(w []float64) float64 {
	s := 0.0
	for _, v := range w {
		s += v * v
	}
	return math.Sqrt(s)
}

// decreasing returns the item indices sorted by key decreasing, ties by
// index (stable, so deterministic).
func (p *problem) decreasing(key func([]float64) float64) []int {
	order := make([]int, p.n)
	k := make([]float64, p.n)
	for i := range order {
		order[i] = i
		k[i] = key(p.w[i])
	}
	sort.SliceStable(order, func(a, b int) bool { return k[order[a]] > k[order[b]] })
	return order
}

// firstFit packs items in the given order, each into the lowest-numbered
// open bin it fits, opening a new bin when none does. Cost O(n·B·d).
func (p *problem) firstFit(order []int) Packing {
	var pk Packing
	var loads [][]int64
	for _, i := range order {
		placed := false
		for b := range pk {
			if p.fits(loads[b], i) {
				pk[b] = append(pk[b], i)
				p.add(loads[b], i, 1)
				placed = true
				break
			}
		}
		if !placed {
			l := make([]int64, p.d)
			p.add(l, i, 1)
			pk = append(pk, []int{i})
			loads = append(loads, l)
		}
	}
	return pk
}

// ffd is first-fit decreasing (Johnson 1973, extended to vectors as in
// Panigrahy et al. 2011, §3): order items by a scalar size measure
// (sum, max or Euclidean norm of the normalised vector) and first-fit them.
func (p *problem) ffd(key func([]float64) float64) Packing {
	return p.firstFit(p.decreasing(key))
}
