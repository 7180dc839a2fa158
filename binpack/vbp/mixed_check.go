package vbp

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/binpack"
)

// CheckMixed verifies r against inst from scratch: every bin has a valid
// type and at least one item, every item index is in range and packed
// exactly once, on a type it is allowed on (MixedInstance.Allowed), in
// every bin and dimension the summed sizes (exact: binpack.Sum) are at
// most the type's capacity, no type has more than Max nodes (Max > 0), r.Count
// equals the recount, r.Cost equals Σ_t Count[t]·Cost_t (relative 1e-9),
// r.LowerBound does not exceed r.Cost and Optimal implies Cost meets the
// bound. It returns a *CheckError (Bin, Item, Dim -1 when not
// applicable) for the first violation, or an error wrapping ErrInvalid for
// an instance of inconsistent dimensions or a malformed Allowed. Cost
// O(n·d + B + T + m·T) for m item types.
func CheckMixed(inst *MixedInstance, r *MixedResult) error {
	if inst == nil || r == nil {
		return &CheckError{-1, -1, -1, "nil instance or result"}
	}
	T := len(inst.Types)
	if T == 0 {
		return fmt.Errorf("%w: no node types", ErrInvalid)
	}
	d := len(inst.Types[0].Capacity)
	for t, nt := range inst.Types {
		if len(nt.Capacity) != d {
			return fmt.Errorf("%w: node type %d has %d dimensions, type 0 has %d", ErrInvalid, t, len(nt.Capacity), d)
		}
	}
	var sizes [][]int64
	var kinds []int
	for j, it := range inst.Items {
		if len(it.Size) != d {
			return fmt.Errorf("%w: item type %d has %d dimensions, node types %d", ErrInvalid, j, len(it.Size), d)
		}
		for c := 0; c < it.Count; c++ {
			sizes = append(sizes, it.Size)
			kinds = append(kinds, j)
		}
	}
	if err := checkAllowed(inst); err != nil {
		return err
	}
	allow := allowSets(inst)
	seen := make([]bool, len(sizes))
	count := make([]int, T)
	load := make([]binpack.Sum, d)
	for b, bin := range r.Bins {
		if bin.Type < 0 || bin.Type >= T {
			return &CheckError{b, -1, -1, fmt.Sprintf("node type %d out of range", bin.Type)}
		}
		if len(bin.Items) == 0 {
			return &CheckError{b, -1, -1, "empty bin"}
		}
		count[bin.Type]++
		clear(load)
		for _, i := range bin.Items {
			if i < 0 || i >= len(sizes) {
				return &CheckError{b, i, -1, "item index out of range"}
			}
			if seen[i] {
				return &CheckError{b, i, -1, "item packed twice"}
			}
			seen[i] = true
			if allow != nil && !allow[kinds[i]][bin.Type] {
				return &CheckError{b, i, -1, fmt.Sprintf("item type %d not allowed on node type %d", kinds[i], bin.Type)}
			}
			for k, v := range sizes[i] {
				load[k].Add(v)
			}
		}
		for k, l := range load {
			if c := inst.Types[bin.Type].Capacity[k]; l.Cmp(c) > 0 {
				return &CheckError{b, -1, k, fmt.Sprintf("load %s exceeds capacity %d of node type %d", l, c, bin.Type)}
			}
		}
	}
	for i, s := range seen {
		if !s {
			return &CheckError{-1, i, -1, "item not packed"}
		}
	}
	for t, k := range count {
		if m := inst.Types[t].Max; m > 0 && k > m {
			return &CheckError{-1, -1, -1, fmt.Sprintf("%d nodes of type %d exceed Max %d", k, t, m)}
		}
		if len(r.Count) != T || r.Count[t] != k {
			return &CheckError{-1, -1, -1, fmt.Sprintf("Count %v differs from the recount %v", r.Count, count)}
		}
	}
	cost := mixedCost(inst, count)
	if math.IsNaN(r.Cost) || math.Abs(r.Cost-cost) > 1e-9*max(1, math.Abs(cost)) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("Cost %v differs from the recomputed %v", r.Cost, cost)}
	}
	if r.LowerBound > cost*(1+1e-9) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("LowerBound %v exceeds the cost %v", r.LowerBound, cost)}
	}
	if r.Optimal && cost > r.LowerBound*(1+1e-9) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("Optimal set but cost %v exceeds the lower bound %v", cost, r.LowerBound)}
	}
	return nil
}
