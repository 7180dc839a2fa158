package xsize

import (
	"cmp"
	"slices"

	"github.com/capplan/capplan/binpack"
)

// instance is a validated Problem with identical requests (size and
// eligible node types) merged into classes. Classes are sorted
// lexicographically by size, then eligibility, so every algorithm sees the
// same order whatever the order of Problem.Requests.
type instance struct {
	p     *Problem
	dim   int
	k     int
	cost  Cost
	scale []float64
	size  [][]float64 // class sizes, real units
	w     []float64   // class weights (sums over merged requests)
	class []int       // Problem.Requests index → class index
	nodes [][]float64 // maximal node types (dominated ones removed), real units
	// elig[i], for a class whose eligible node types leave out one that
	// could hold it, lists the maximal node types it may use (nil when no
	// class is constrained, or for an unconstrained class); constrained
	// tells whether any class is.
	elig        [][][]float64
	constrained bool
	// tops are the node capacities candidate chains are clipped to: the
	// maximal node types, or with constraints the meets of node types
	// that serve some class (eligibility.go); meetsCapped when the meet
	// closure exceeded maxMeets and tops are the node types alone.
	tops        [][]float64
	meetsCapped bool
}

func newInstance(p *Problem) (*instance, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	order := make([]int, len(p.Requests))
	for i := range order {
		order[i] = i
	}
	elig := make([][]int, len(p.Requests)) // sorted node indices, nil = all
	for i, r := range p.Requests {
		if r.Nodes != nil {
			elig[i] = slices.Compact(slices.Sorted(slices.Values(r.Nodes)))
			if len(elig[i]) == len(p.Nodes) {
				elig[i] = nil
			}
		}
	}
	cmpElig := func(a, b []int) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		case b == nil:
			return 1
		}
		return slices.Compare(a, b)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := slices.Compare(p.Requests[a].Size, p.Requests[b].Size); c != 0 {
			return c
		}
		return cmpElig(elig[a], elig[b])
	})
	in := &instance{p: p, dim: len(p.Scale), k: p.K, cost: p.Cost, scale: p.Scale,
		class: make([]int, len(p.Requests))}
	var classElig [][]int
	for _, i := range order {
		s := p.Requests[i].Size
		last := len(in.size) - 1
		if last < 0 || !slices.Equal(in.size[last], s) || cmpElig(classElig[last], elig[i]) != 0 {
			in.size = append(in.size, slices.Clone(s))
			in.w = append(in.w, 0)
			classElig = append(classElig, elig[i])
			last++
		}
		in.w[last] += p.Requests[i].Weight
		in.class[i] = last
	}
	// More shapes than request classes never help: with one shape per
	// class, every class is served by its own size, the cheapest shape
	// that dominates it. So K beyond the class count is the same problem,
	// and the algorithms, which size tables by K, see at most that many
	// (a -k of 10^9 would otherwise allocate gigabytes).
	in.k = max(1, min(in.k, len(in.size)))
	in.nodes = maximalVectors(p.Nodes)
	in.setupEligibility(classElig)
	return in, nil
}

// maximalVectors returns the vectors not dominated by another one, without
// duplicates, in their original order.
func maximalVectors(vs [][]float64) [][]float64 {
	var out [][]float64
	for i, v := range vs {
		keep := true
		for j, u := range vs {
			if j == i || !binpack.Dominates(u, v) {
				continue
			}
			if !slices.Equal(u, v) || j < i { // strictly dominated, or an earlier duplicate
				keep = false
				break
			}
		}
		if keep {
			out = append(out, v)
		}
	}
	return out
}

func (in *instance) n() int { return len(in.size) }

// costOf returns the normalised cost of shape c (real units).
func (in *instance) costOf(c []float64) float64 { return binpack.ShapeCost(c, in.scale, in.cost) }

// fitsNode reports whether shape c fits some node type (exact comparison).
func (in *instance) fitsNode(c []float64) bool { return binpack.FirstFit(c, in.nodes) >= 0 }

// compareShapes is the deterministic shape order: normalised cost, then
// lexicographic real values.
func (in *instance) compareShapes(a, b []float64) int {
	if c := cmp.Compare(in.costOf(a), in.costOf(b)); c != 0 {
		return c
	}
	return slices.Compare(a, b)
}

// coverOf returns the classes shape c covers: those it dominates and may
// serve (it fits a node type they may use).
func (in *instance) coverOf(c []float64) bitset {
	b := newBitset(in.n())
	for i := range in.size {
		if in.covers(c, i) {
			b.set(i)
		}
	}
	return b
}

// maxOf returns the coordinate-wise maximum of the classes in set.
func (in *instance) maxOf(set bitset) []float64 {
	m := make([]float64, in.dim)
	set.each(func(i int) {
		for d, x := range in.size[i] {
			m[d] = max(m[d], x)
		}
	})
	return m
}
