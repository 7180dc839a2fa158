package xsize

import (
	"fmt"
	"math"
	"math/bits"
)

// maxExactCover: up to this many maximal node types, nodeCover enumerates
// subsets (2^M) and is exact; beyond, it is greedy (and may then report
// infeasibility for a K that a smaller cover would allow).
const maxExactCover = 12

// nodeCover returns a smallest set of tops (maximal node types, or with
// placement constraints meets of node types) such that every class is
// served by one of them (the first in increasing bit-mask order). The
// instance is feasible iff its size is ≤ K: every shape c fits a node type,
// and with constraints the meet of the node types it fits serves every
// class c covers, so the shapes give a cover; conversely each covering top
// N can take the shape max{p served by N assigned to it}. Classes are
// reduced to their distinct fit signatures s; cost O(2^M·M·s) for M ≤
// maxExactCover, O(M²·s) greedy beyond.
func (in *instance) nodeCover() []int {
	M := len(in.tops)
	var fits [][]bool         // distinct rows fits[.][j]: top j serves a class
	seen := map[string]bool{} // lookup only
	for i := range in.size {
		row := make([]bool, M)
		key := make([]byte, M)
		for j, N := range in.tops {
			row[j] = in.clipsTo(N, i)
			if row[j] {
				key[j] = 1
			}
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			fits = append(fits, row)
		}
	}
	covers := func(set []bool) bool {
	next:
		for _, f := range fits {
			for j, ok := range f {
				if ok && set[j] {
					continue next
				}
			}
			return false
		}
		return true
	}
	set := make([]bool, M)
	list := func() []int {
		var out []int
		for j, ok := range set {
			if ok {
				out = append(out, j)
			}
		}
		return out
	}
	if M <= maxExactCover {
		for size := 1; size <= M; size++ {
			for mask := 0; mask < 1<<M; mask++ {
				if bits.OnesCount(uint(mask)) != size {
					continue
				}
				for j := range set {
					set[j] = mask&(1<<j) != 0
				}
				if covers(set) {
					return list()
				}
			}
		}
	}
	clear(set)
	for !covers(set) { // greedy: the node type fitting most uncovered classes
		best, bestN := 0, -1
		for j := range M {
			cnt := 0
		outer:
			for _, f := range fits {
				for j2, ok := range f {
					if ok && set[j2] {
						continue outer
					}
				}
				if f[j] {
					cnt++
				}
			}
			if cnt > bestN {
				best, bestN = j, cnt
			}
		}
		set[best] = true
	}
	return list()
}

// key1D returns the one-dimensional key of a class for the cost in use:
// ‖p̂‖₁ for SumCost, ‖p̂‖∞ for MaxCost.
func (in *instance) key1D(i int) float64 { return in.costOf(in.size[i]) }

// seedShapes builds a feasible catalog quickly (ALGORITHMS.md §1.4,
// "practical fallback", step 1): split the classes by the first top of a
// smallest cover (nodeCover) that serves them, solve the one-dimensional K-grouping
// (chain1D) on the 1-D key within each part, share the K shapes among parts
// by a small knapsack DP, and take each group's coordinate-wise max (it fits
// the part's node type). For MaxCost with a single part this is MaxDP's
// optimum. Returns ErrInfeasible if the node cover needs more than K types.
// Cost O(K·n log n + parts·K²).
func (in *instance) seedShapes() ([][]float64, error) {
	cover := in.nodeCover()
	if len(cover) > in.k {
		return nil, fmt.Errorf("%w: the requests need at least %d node types' worth of shapes, K = %d", ErrInfeasible, len(cover), in.k)
	}
	part := make([][]int, len(cover))
	for i := range in.size {
		for q, j := range cover {
			if in.clipsTo(in.tops[j], i) {
				part[q] = append(part[q], i)
				break
			}
		}
	}
	type solved struct {
		c   *chain1D
		pos []int
		f   []float64 // f[k]: best with ≤ k groups
	}
	ps := make([]solved, len(part))
	for q, members := range part {
		keys, w := make([]float64, len(members)), make([]float64, len(members))
		for a, i := range members {
			keys[a], w[a] = in.key1D(i), in.w[i]
		}
		v, W, pos := mergeValues(keys, w)
		c := solveChain1D(v, W, in.k)
		f := make([]float64, in.k+1)
		f[0] = math.Inf(1)
		for k := 1; k <= in.k; k++ {
			f[k] = f[k-1]
			if k < len(c.f) {
				f[k] = min(f[k], c.f[k][len(v)])
			}
		}
		ps[q] = solved{c, pos, f}
	}
	// Knapsack over parts: A[q][b] = best for parts < q with b shapes.
	A := make([][]float64, len(ps)+1)
	choice := make([][]int, len(ps)+1)
	A[0] = make([]float64, in.k+1)
	for q := range ps {
		A[q+1] = make([]float64, in.k+1)
		choice[q+1] = make([]int, in.k+1)
		for b := range A[q+1] {
			A[q+1][b] = math.Inf(1)
			for k := 1; k <= b; k++ {
				if v := A[q][b-k] + ps[q].f[k]; v < A[q+1][b] {
					A[q+1][b], choice[q+1][b] = v, k
				}
			}
		}
	}
	var shapes [][]float64
	b := in.k
	for q := len(ps) - 1; q >= 0; q-- {
		k := choice[q+1][b]
		b -= k
		c := ps[q].c
		for k > 1 && (k >= len(c.f) || c.f[k][len(c.v)] > ps[q].f[k]) {
			k-- // fewer groups were as good
		}
		runs := c.runs(k)
		for _, run := range runs {
			g := make([]float64, in.dim)
			for a, i := range part[q] {
				if p := ps[q].pos[a]; p >= run[0] && p < run[1] {
					for d, x := range in.size[i] {
						g[d] = max(g[d], x)
					}
				}
			}
			shapes = append(shapes, g)
		}
	}
	return shapes, nil
}
