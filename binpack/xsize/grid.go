package xsize

import (
	"fmt"
	"slices"
)

// candidate is one possible container: a tight shape (the coordinate-wise
// max of the classes it dominates) with its cost and dominated set.
type candidate struct {
	shape []float64
	cost  float64
	cover bitset
}

// tightGrid returns every point of the candidate grid Π_d {distinct values
// of coordinate d} that is tight (equal to the max of the classes it
// dominates) and fits some node type, sorted by (cost, lex). By the shrink
// lemma (ALGORITHMS.md §1.2) some optimum uses only such points, and a tight
// point is determined by its dominated set, so the list has no two
// candidates with the same cover. It returns ErrTooLarge if the grid has
// more than limit points. Cost O(|grid|·n·D).
func (in *instance) tightGrid(limit int64) ([]candidate, error) {
	vals := make([][]float64, in.dim)
	size := int64(1)
	for d := range in.dim {
		for _, s := range in.size {
			vals[d] = append(vals[d], s[d])
		}
		slices.Sort(vals[d])
		vals[d] = slices.Compact(vals[d])
		size *= int64(len(vals[d]))
		if size > limit {
			return nil, fmt.Errorf("%w: candidate grid has more than %d points", ErrTooLarge, limit)
		}
	}
	var out []candidate
	idx := make([]int, in.dim)
	g := make([]float64, in.dim)
	for {
		for d := range in.dim {
			g[d] = vals[d][idx[d]]
		}
		if in.fitsNode(g) {
			cov := in.coverOf(g)
			if slices.Equal(in.maxOf(cov), g) {
				c := slices.Clone(g)
				out = append(out, candidate{shape: c, cost: in.costOf(c), cover: cov})
			}
		}
		d := 0
		for d < in.dim {
			idx[d]++
			if idx[d] < len(vals[d]) {
				break
			}
			idx[d] = 0
			d++
		}
		if d == in.dim {
			break
		}
	}
	in.sortCandidates(out)
	return out, nil
}

func (in *instance) sortCandidates(cs []candidate) {
	slices.SortFunc(cs, func(a, b candidate) int { return in.compareShapes(a.shape, b.shape) })
}
