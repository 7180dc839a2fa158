package xsize

import (
	"math"
	"math/rand/v2"

	"github.com/capplan/capplan/binpack"
)

// partitionOptimum is an independent truth for small instances: the optimum
// equals the minimum over partitions of the request classes into at most K
// blocks, each block's coordinate-wise max fitting a node type, of
// Σ W(block)·cost(max(block)). (Any such partition yields a feasible
// catalog no dearer, and an optimal catalog's assignment is such a
// partition.) Subset DP, O(K·3^n); it never looks at the candidate grid.
func partitionOptimum(in *instance) float64 {
	n := in.n()
	full := 1<<n - 1
	block := make([]float64, full+1)
	for m := 1; m <= full; m++ {
		mx := make([]float64, in.dim)
		w := 0.0
		for i := range n {
			if m&(1<<i) != 0 {
				w += in.w[i]
				for d, x := range in.size[i] {
					mx[d] = max(mx[d], x)
				}
			}
		}
		if binpack.FirstFit(mx, in.p.Nodes) < 0 {
			block[m] = math.Inf(1)
		} else {
			block[m] = w * in.costOf(mx)
		}
	}
	f := block
	best := f[full]
	for k := 2; k <= in.k; k++ {
		g := make([]float64, full+1)
		for m := 1; m <= full; m++ {
			g[m] = f[m]
			low := m & -m
			rest := m ^ low
			// Blocks containing the lowest member: low | sub for sub ⊆ rest.
			for sub := rest; ; sub = (sub - 1) & rest {
				b := low | sub
				if b != m {
					g[m] = min(g[m], block[b]+f[m^b])
				}
				if sub == 0 {
					break
				}
			}
		}
		f = g
		best = min(best, f[full])
	}
	return best
}

// randomSmall builds a random small instance: D dimensions, up to n request
// classes with sizes on a coarse integer lattice (so ties and dominance are
// common), K shapes and one or two node types.
func randomSmall(r *rand.Rand, D, n, K int, cost Cost) *Problem {
	p := &Problem{K: K, Cost: cost}
	for d := range D {
		p.Scale = append(p.Scale, float64(40+10*d))
	}
	for range n {
		s := make([]float64, D)
		for d := range s {
			s[d] = float64(1 + r.IntN(12))
		}
		p.Requests = append(p.Requests, Request{Size: s, Weight: float64(1 + r.IntN(9))})
	}
	node := make([]float64, D)
	for d := range node {
		node[d] = 12
	}
	p.Nodes = [][]float64{node}
	if r.IntN(3) == 0 { // two node types; every request must still fit one
		a, b := make([]float64, D), make([]float64, D)
		for d := range D {
			a[d], b[d] = 12, 12
		}
		a[0], b[D-1] = 8, 8
		p.Nodes = [][]float64{a, b}
		for i := range p.Requests {
			s := p.Requests[i].Size
			if s[0] > 8 && s[D-1] > 8 {
				s[r.IntN(2)*(D-1)] = 8
			}
		}
	}
	return p
}
