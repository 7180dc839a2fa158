package xsize

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// maxDPStates caps the states of MaxDP's multi-node-type DP.
const maxDPStates = 20_000_000

// MaxDP solves a MaxCost problem exactly (ALGORITHMS.md §1.3).
//
// With v_i = ‖p̂_i‖∞, a shape of cost t fitting node type N is best taken as
// min(t·𝟙, N): it dominates exactly {p ≤ N : v(p) ≤ t}. With placement
// constraints the same holds with N a meet of node types (eligibility.go):
// chains are built per top. If one node type N* dominates the max of all
// requests and no request is constrained (the usual case) only N* matters, the
// shapes are nested in t and some optimum groups the requests into runs of
// the v order, each paying its largest v: the one-dimensional DP chain1D
// (convex-hull trick, O(K·n) after an O(n log n) sort). Otherwise each
// maximal node type gives one nested chain of candidates (the shrunk
// min(t·𝟙, N) for t over the v values) and coverDP solves the chains
// exactly, with at most K·Σ_{r≤K} e_r(chain sizes) states; above
// maxDPStates it returns ErrTooLarge. ErrCost for SumCost problems,
// ErrInfeasible if no K shapes can cover the requests.
func MaxDP(p *Problem) (*Solution, error) {
	in, err := newInstance(p)
	if err != nil {
		return nil, err
	}
	if in.cost != MaxCost {
		return nil, fmt.Errorf("%w: MaxDP needs Cost = MaxCost, got %v", ErrCost, in.cost)
	}
	if len(in.nodeCover()) > in.k {
		return nil, fmt.Errorf("%w: the requests need more than K = %d node types' worth of shapes", ErrInfeasible, in.k)
	}
	if in.meetsCapped {
		return nil, fmt.Errorf("%w: the node types have more than %d meets under the placement constraints", ErrTooLarge, maxMeets)
	}
	all := in.maxOf(full(in.n()))
	var shapes [][]float64
	if !in.constrained && in.fitsNode(all) {
		shapes = in.maxChainShapes()
	} else {
		var chains []int
		var cands []candidate
		seen := map[string]bool{} // lookup only
		for _, N := range in.tops {
			var fit []int
			for i := range in.size {
				if in.clipsTo(N, i) {
					fit = append(fit, i)
				}
			}
			slices.SortStableFunc(fit, func(a, b int) int { return cmp.Compare(in.key1D(a), in.key1D(b)) })
			got := 0
			g := make([]float64, in.dim)
			for a, i := range fit {
				for d, x := range in.size[i] {
					g[d] = max(g[d], x)
				}
				if a+1 < len(fit) && in.key1D(fit[a+1]) == in.key1D(i) {
					continue
				}
				if key := shapeKey(g); !seen[key] {
					seen[key] = true
					c := slices.Clone(g)
					cands = append(cands, candidate{shape: c, cost: in.costOf(c), cover: in.coverOf(c)})
					got++
				}
			}
			chains = append(chains, got)
		}
		if b := stateBound(chains, in.k); b > maxDPStates {
			return nil, fmt.Errorf("%w: MaxDP state bound %.3g > %d", ErrTooLarge, b, maxDPStates)
		}
		in.sortCandidates(cands)
		res := (&coverDP{w: in.w, cands: cands, K: in.k, maxStates: math.MaxInt64, ub: math.Inf(1)}).run()
		if res.chosen == nil {
			return nil, fmt.Errorf("%w: no %d shapes cover the requests", ErrInfeasible, in.k)
		}
		for _, c := range res.chosen {
			shapes = append(shapes, cands[c].shape)
		}
	}
	s, err := in.finalize(shapes, "maxdp")
	if err != nil {
		return nil, err
	}
	s.Optimal, s.LowerBound = true, s.Cost
	return s, nil
}

// maxChainShapes solves the single-chain case: runs of the ‖p̂‖∞ order.
func (in *instance) maxChainShapes() [][]float64 {
	keys := make([]float64, in.n())
	for i := range keys {
		keys[i] = in.key1D(i)
	}
	v, W, pos := mergeValues(keys, in.w)
	c := solveChain1D(v, W, in.k)
	k, _ := c.best()
	var shapes [][]float64
	for _, run := range c.runs(k) {
		g := make([]float64, in.dim)
		for i, q := range pos {
			if q >= run[0] && q < run[1] {
				for d, x := range in.size[i] {
					g[d] = max(g[d], x)
				}
			}
		}
		shapes = append(shapes, g)
	}
	return shapes
}
