package vbp

import (
	"fmt"

	"github.com/capplan/capplan/binpack/internal/work"
)

// solveType packs items (expanded indices, all of which may use type t)
// into nodes of type t with Solve's steps (split by cfg, charging w),
// dropping the dimensions where t has no capacity (the items are 0
// there). It returns the packing in expanded
// indices and Solve's method, or an internal error when an item may not
// use t.
func (mp *mixedProblem) solveType(t int, items []int, cfg solveConfig, w *work.Counter) (Packing, string, error) {
	for _, i := range items {
		if !mp.canFit[i][t] {
			return nil, "", fmt.Errorf("vbp: internal error: item %d may not use node type %d", i, t)
		}
	}
	var dims []int
	for k, c := range mp.cap[t] {
		if c > 0 {
			dims = append(dims, k)
		}
	}
	if len(items) == 0 {
		return Packing{}, "empty", nil
	}
	if len(dims) == 0 { // every item is all zero
		return Packing{append([]int(nil), items...)}, "zero", nil
	}
	sub := &Instance{Name: mp.inst.Name, Capacity: make([]int64, len(dims))}
	for a, k := range dims {
		sub.Capacity[a] = mp.cap[t][k]
	}
	// Consecutive copies of one item type stay one Item, so that with all
	// items the instance expands exactly like the mixed one.
	for a := 0; a < len(items); {
		b := a + 1
		for b < len(items) && mp.kind[items[b]] == mp.kind[items[a]] {
			b++
		}
		size := make([]int64, len(dims))
		for c, k := range dims {
			size[c] = mp.size[items[a]][k]
		}
		sub.Items = append(sub.Items, Item{Size: size, Count: b - a})
		a = b
	}
	r, err := solve(sub, cfg, w)
	if err != nil {
		return nil, "", err
	}
	out := make(Packing, len(r.Packing))
	for b, bin := range r.Packing {
		out[b] = make([]int, len(bin))
		for c, i := range bin {
			out[b][c] = items[i]
		}
	}
	return out, r.Method, nil
}
