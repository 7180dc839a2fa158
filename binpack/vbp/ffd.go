package vbp

import (
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
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
// open bin it fits, opening a new bin when none does. A bin that cannot
// hold the componentwise smallest of the items still to come holds none
// of them, so a pointer skips such bins at the front: that changes
// nothing but the cost, which drops to O(n·d) when few bins stay open
// (one item type: every bin but the last is full). Past firstFitWork fit
// tests, the remaining items go next fit (the last bin, else a new one),
// so one pass costs at most firstFitWork + O(n·d) fit tests, whatever
// the instance: a work budget, deterministic, reached only on instances
// of tens of thousands of items. Cost O(n·B·d) below the budget.
func (p *problem) firstFit(order []int) Packing {
	// rest[j·d:(j+1)·d] is the componentwise minimum size of order[j:].
	d := p.d
	rest := make([]int64, len(order)*d)
	for j := len(order) - 1; j >= 0; j-- {
		copy(rest[j*d:], p.size[order[j]])
		if j+1 < len(order) {
			for k := 0; k < d; k++ {
				rest[j*d+k] = min(rest[j*d+k], rest[(j+1)*d+k])
			}
		}
	}
	var pk Packing
	var loads [][]int64
	first, tests := 0, 0 // the first bin that may hold an item to come
	for j, i := range order {
		for first < len(pk) && !binpack.Fits(loads[first], rest[j*d:(j+1)*d], p.cap) {
			first++
		}
		placed := false
		from := first
		if tests > firstFitWork && len(pk) > 0 {
			from = max(first, len(pk)-1) // next fit
		}
		for b := from; b < len(pk); b++ {
			tests++
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

// firstFitWork is the fit-test budget of one firstFit pass (see there).
const firstFitWork = 20_000_000

// ffd is first-fit decreasing (Johnson 1973, extended to vectors as in
// Panigrahy et al. 2011, §3): order items by a scalar size measure
// (sum, max or Euclidean norm of the normalised vector) and first-fit them.
func (p *problem) ffd(key func([]float64) float64) Packing {
	return p.firstFit(p.decreasing(key))
}
