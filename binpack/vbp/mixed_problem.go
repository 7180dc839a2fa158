package vbp

import (
	"fmt"
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
)

// mixedProblem is the solver's view of a MixedInstance: expanded items and
// the usable (non-dominated) node types.
type mixedProblem struct {
	inst *MixedInstance
	d, n int
	size [][]int64 // expanded item sizes (aliasing Item.Size)
	kind []int     // expanded item → index into inst.Items
	cost []float64 // per type
	cap  [][]int64 // per type
	lim  []int     // per type: Max, or math.MaxInt when unlimited
	vol  []int64   // Σ_i size_i per dimension
	// allow[j][t] reports that item type j may use type t (Allowed); nil
	// when every item may use every type.
	allow [][]bool
	// active lists the usable, non-dominated types by increasing cost
	// (ties by index). A type is unusable when no item may be placed on it
	// (allowed and fitting). Type t is dominated by an unlimited type u
	// that is at least as large in every dimension, at most as expensive
	// and allowed for every item allowed on t that fits t (identical
	// types, allowed for the same items: the lower index wins): every
	// packing can swap t for u at no extra cost, so the optimum never
	// needs t.
	active []int
	// fitKind[j] lists the active types that item type j may use and that
	// hold one copy of it, in the order of active.
	fitKind [][]int
	// canFit[i] is fitKind[kind[i]] as a set, indexed by type.
	canFit [][]bool
}

// newMixedProblem validates inst and builds the solver view. Errors:
// malformed instances wrap ErrInvalid, an item too large for every node
// type gives an *ItemFitsNoTypeError.
func newMixedProblem(inst *MixedInstance) (*mixedProblem, error) {
	if inst == nil {
		return nil, fmt.Errorf("%w: nil instance", ErrInvalid)
	}
	if len(inst.Types) == 0 {
		return nil, fmt.Errorf("%w: no node types", ErrInvalid)
	}
	d := len(inst.Types[0].Capacity)
	if d == 0 {
		return nil, fmt.Errorf("%w: no dimensions", ErrInvalid)
	}
	T := len(inst.Types)
	mp := &mixedProblem{inst: inst, d: d, cost: make([]float64, T), cap: make([][]int64, T), lim: make([]int, T)}
	for t, nt := range inst.Types {
		if len(nt.Capacity) != d {
			return nil, fmt.Errorf("%w: node type %d has %d dimensions, type 0 has %d", ErrInvalid, t, len(nt.Capacity), d)
		}
		for k, c := range nt.Capacity {
			if c < 0 {
				return nil, fmt.Errorf("%w: node type %d capacity[%d] = %d < 0", ErrInvalid, t, k, c)
			}
		}
		if !(nt.Cost > 0) || math.IsInf(nt.Cost, 0) {
			return nil, fmt.Errorf("%w: node type %d cost %v, want finite > 0", ErrInvalid, t, nt.Cost)
		}
		if nt.Max < 0 {
			return nil, fmt.Errorf("%w: node type %d Max %d < 0", ErrInvalid, t, nt.Max)
		}
		mp.cost[t], mp.cap[t], mp.lim[t] = nt.Cost, nt.Capacity, nt.Max
		if nt.Max == 0 {
			mp.lim[t] = math.MaxInt
		}
	}
	mp.vol = make([]int64, d)
	for j, it := range inst.Items {
		if len(it.Size) != d {
			return nil, fmt.Errorf("%w: item type %d has %d dimensions, node types %d", ErrInvalid, j, len(it.Size), d)
		}
		if it.Count < 0 {
			return nil, fmt.Errorf("%w: item type %d count %d < 0", ErrInvalid, j, it.Count)
		}
		for k, v := range it.Size {
			if v < 0 {
				return nil, fmt.Errorf("%w: item type %d size[%d] = %d < 0", ErrInvalid, j, k, v)
			}
			if v > 0 && int64(it.Count) > (math.MaxInt64-mp.vol[k])/v {
				return nil, fmt.Errorf("%w: total size in dimension %d overflows int64", ErrInvalid, k)
			}
			mp.vol[k] += int64(it.Count) * v
		}
	}
	caps := make([][]int64, T)
	for t := range inst.Types {
		caps[t] = inst.Types[t].Capacity
	}
	if err := checkTotals(caps, inst.Items); err != nil {
		return nil, err
	}
	if err := checkAllowed(inst); err != nil {
		return nil, err
	}
	mp.allow = allowSets(inst)
	for j, it := range inst.Items {
		if it.Count > 0 && !mp.fitsSomeType(j) {
			return nil, mp.noFitError(j)
		}
		for c := 0; c < it.Count; c++ {
			mp.size = append(mp.size, it.Size)
			mp.kind = append(mp.kind, j)
		}
	}
	mp.n = len(mp.size)
	mp.setActive()
	mp.fitKind = make([][]int, len(inst.Items))
	for j := range inst.Items {
		for _, t := range mp.active {
			if mp.usable(j, t) {
				mp.fitKind[j] = append(mp.fitKind[j], t)
			}
		}
	}
	kindFit := make([][]bool, len(inst.Items))
	for j := range kindFit {
		kindFit[j] = make([]bool, T)
		for _, t := range mp.fitKind[j] {
			kindFit[j][t] = true
		}
	}
	mp.canFit = make([][]bool, mp.n)
	for i, j := range mp.kind {
		mp.canFit[i] = kindFit[j]
	}
	return mp, nil
}

// allowed reports that item type j may use type t.
func (mp *mixedProblem) allowed(j, t int) bool {
	return mp.allow == nil || mp.allow[j][t]
}

// usable reports that one copy of item type j may be placed on type t:
// it is allowed there and fits.
func (mp *mixedProblem) usable(j, t int) bool {
	return mp.allowed(j, t) && binpack.Dominates(mp.cap[t], mp.inst.Items[j].Size)
}

// fitsSomeType reports that item type j is usable on some type.
func (mp *mixedProblem) fitsSomeType(j int) bool {
	for t := range mp.cap {
		if mp.usable(j, t) {
			return true
		}
	}
	return false
}

// noFitError builds the *ItemFitsNoTypeError for item type j, which fits
// none of its allowed types.
func (mp *mixedProblem) noFitError(j int) error {
	capMax := make([]int64, mp.d)
	for _, c := range mp.cap {
		for k, v := range c {
			capMax[k] = max(capMax[k], v)
		}
	}
	big, bigScore := -1, -1.0
	restricted := false
	for t, c := range mp.cap {
		if !mp.allowed(j, t) {
			restricted = true
			continue
		}
		s := 0.0
		for k, v := range c {
			if capMax[k] > 0 {
				s += float64(v) / float64(capMax[k])
			}
		}
		if s > bigScore {
			big, bigScore = t, s
		}
	}
	size := mp.inst.Items[j].Size
	e := &ItemFitsNoTypeError{Item: j, Type: big, TypeName: mp.inst.Types[big].Name, Dim: -1, Restricted: restricted}
	worst := -1.0
	for k, v := range size {
		c := mp.cap[big][k]
		if v > c {
			r := float64(v-c) / float64(max(c, 1))
			if r > worst {
				worst, e.Dim, e.Size, e.Capacity = r, k, v, c
			}
		}
	}
	return e
}

// setActive computes mp.active (see mixedProblem). Cost O(T²·(d + m)) for
// m item types.
func (mp *mixedProblem) setActive() {
	T := len(mp.cap)
	geq := func(u, t int) bool {
		for k := range mp.cap[t] {
			if mp.cap[u][k] < mp.cap[t][k] {
				return false
			}
		}
		return true
	}
	// serves[t][j]: a copy of item type j (Count > 0) may go on type t.
	serves := make([][]bool, T)
	empty := make([]bool, T)
	for t := range serves {
		serves[t] = make([]bool, len(mp.inst.Items))
		empty[t] = true
		for j, it := range mp.inst.Items {
			if it.Count > 0 && mp.usable(j, t) {
				serves[t][j], empty[t] = true, false
			}
		}
	}
	// covers reports serves[t] ⊆ serves[u].
	covers := func(u, t int) bool {
		for j, v := range serves[t] {
			if v && !serves[u][j] {
				return false
			}
		}
		return true
	}
	mp.active = mp.active[:0]
	for t := 0; t < T; t++ {
		// With items, a type none of them may use is never bought.
		dominated := mp.n > 0 && empty[t]
		for u := 0; u < T && !dominated; u++ {
			if u == t || mp.lim[u] != math.MaxInt || mp.cost[u] > mp.cost[t] || !geq(u, t) || !covers(u, t) {
				continue
			}
			same := mp.cost[u] == mp.cost[t] && geq(t, u) && covers(t, u)
			// Identical types: the lower index dominates; a limited copy
			// never dominates, so t (unlimited or not) goes when u < t or
			// t is limited.
			dominated = !same || u < t || mp.lim[t] != math.MaxInt
		}
		if !dominated {
			mp.active = append(mp.active, t)
		}
	}
	sort.SliceStable(mp.active, func(a, b int) bool { return mp.cost[mp.active[a]] < mp.cost[mp.active[b]] })
}

// typeName is "name" or "#t" when the type is unnamed.
func (mp *mixedProblem) typeName(t int) string {
	if n := mp.inst.Types[t].Name; n != "" {
		return n
	}
	return fmt.Sprintf("#%d", t)
}

// cheaper reports a < b by more than rounding (relative 1e-12).
func cheaper(a, b float64) bool { return a < b-1e-12*math.Abs(b) }

// avail reports whether one more node of type t may be bought when the
// solution holds count[t] and frees `freed` of them.
func (mp *mixedProblem) avail(count []int, t, freed int) bool {
	return count[t]-freed < mp.lim[t]
}

// allItems returns 0, 1, …, n−1: every expanded item.
func allItems(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
