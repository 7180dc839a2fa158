package xsize

import (
	"cmp"
	"math"
	"slices"
)

// mergeSplit is LocalSearch's two-slot move: split the group whose best
// two-way split (members sorted by one coordinate, cut where it changes,
// each side shrunk to its max) saves the most, and pay for the extra slot
// with a free slot or by merging the pair of other slots whose merge (the
// max of both shapes, if it fits a node type) costs the least. The savings
// and losses are estimates; the move is kept only if the re-evaluated total
// falls. O(K·D·n log n + K²·n).
func (ls *searcher) mergeSplit(s *lsState) bool {
	in := ls.in
	K := len(s.shapes)
	mem := make([][]int, K)
	for i, b := range s.best {
		mem[b] = append(mem[b], i)
	}
	gain, sj := 0.0, -1
	var sa, sb []float64
	for j, m := range mem {
		if len(m) < 2 {
			continue
		}
		wAll := 0.0
		for _, i := range m {
			wAll += in.w[i]
		}
		cur := wAll * s.cost[j]
		order := slices.Clone(m)
		for d := range in.dim {
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(in.size[a][d], in.size[b][d]) })
			// suffix maxima and weights
			suf := make([][]float64, len(order)+1)
			sw := make([]float64, len(order)+1)
			suf[len(order)] = make([]float64, in.dim)
			for t := len(order) - 1; t >= 0; t-- {
				suf[t] = slices.Clone(suf[t+1])
				for e, x := range in.size[order[t]] {
					suf[t][e] = max(suf[t][e], x)
				}
				sw[t] = sw[t+1] + in.w[order[t]]
			}
			pre := make([]float64, in.dim)
			pw := 0.0
			for t := 0; t < len(order)-1; t++ {
				for e, x := range in.size[order[t]] {
					pre[e] = max(pre[e], x)
				}
				pw += in.w[order[t]]
				if in.size[order[t]][d] == in.size[order[t+1]][d] {
					continue // cut only where the coordinate changes
				}
				if g := cur - pw*in.costOf(pre) - sw[t+1]*in.costOf(suf[t+1]); g > gain {
					gain, sj, sa, sb = g, j, slices.Clone(pre), suf[t+1]
				}
			}
		}
	}
	if sj < 0 {
		return false
	}
	next := slices.Clone(s.shapes)
	next[sj] = sa
	free := slices.IndexFunc(next, func(g []float64) bool { return g == nil })
	if free < 0 {
		loss, ma, mb := math.Inf(1), -1, -1
		var merged []float64
		for a := range K {
			for b := a + 1; b < K; b++ {
				if a == sj || b == sj || s.shapes[a] == nil || s.shapes[b] == nil {
					continue
				}
				g := slices.Clone(s.shapes[a])
				for d, x := range s.shapes[b] {
					g[d] = max(g[d], x)
				}
				if !in.fitsNode(g) {
					continue
				}
				wa, wb := 0.0, 0.0
				for _, i := range mem[a] {
					wa += in.w[i]
				}
				for _, i := range mem[b] {
					wb += in.w[i]
				}
				if l := (wa+wb)*in.costOf(g) - wa*s.cost[a] - wb*s.cost[b]; l < loss {
					loss, ma, mb, merged = l, a, b, g
				}
			}
		}
		if ma < 0 || loss >= gain {
			return false
		}
		next[ma], free = merged, mb
	}
	next[free] = sb
	t := newLSState(in, next, s.w)
	if t.total < s.total*(1-lsTol) {
		*s = *t
		return true
	}
	return false
}
