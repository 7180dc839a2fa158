package xsize

import (
	"cmp"
	"slices"

	"github.com/capplan/capplan/binpack"
)

// instance is a validated Problem with identical request sizes merged into
// classes. Classes are sorted lexicographically by size, so every algorithm
// sees the same order whatever the order of Problem.Requests.
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
}

func newInstance(p *Problem) (*instance, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	order := make([]int, len(p.Requests))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return slices.Compare(p.Requests[a].Size, p.Requests[b].Size)
	})
	in := &instance{p: p, dim: len(p.Scale), k: p.K, cost: p.Cost, scale: p.Scale,
		class: make([]int, len(p.Requests))}
	for _, i := range order {
		s := p.Requests[i].Size
		last := len(in.size) - 1
		if last < 0 || !slices.Equal(in.size[last], s) {
			in.size = append(in.size, slices.Clone(s))
			in.w = append(in.w, 0)
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

// coverOf returns the classes dominated by shape c.
func (in *instance) coverOf(c []float64) bitset {
	b := newBitset(in.n())
	for i, s := range in.size {
		if binpack.Dominates(c, s) {
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
