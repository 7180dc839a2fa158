package xsize

import (
	"math"
)

// optTol: a cost within this relative distance of a lower bound is reported
// as Optimal (the bound and the cost are float sums of the same products).
const optTol = 1e-9

// LowerBound returns the best lower bound on the optimal cost for p.K that
// this package can prove cheaply (0 for an invalid Problem):
//
//  1. own shapes: every request pays at least its own cost, Σ w·cost(p̂);
//  2. one-dimensional relaxations (SumCost): for λ ∈ {0,1}^D, cost(c) ≥
//     ‖p̂‖₁ − λ·p̂ + λ·ĉ for every request p ≤ c, and the values λ·ĉ of ≤ K
//     shapes are ≤ K thresholds, so OPT ≥ Σ w(‖p̂‖₁ − λ·p̂) + OPT_1D(λ·p̂, K)
//     (chain1D; λ = 𝟙 always dominates bound 1). For MaxCost the same with
//     ‖·‖∞ (the node-free MaxDP optimum);
//  3. Lagrangian relaxation of the k-median formulation over the tight grid
//     (lagrangianBound), when the grid is small enough.
func LowerBound(p *Problem) float64 {
	in, err := newInstance(p)
	if err != nil {
		return 0
	}
	return in.lowerBound(math.Inf(1))
}

// lowerBound computes LowerBound; ub (the best known cost, or +Inf) steers
// the subgradient steps.
func (in *instance) lowerBound(ub float64) float64 {
	lb := 0.0
	for i, s := range in.size {
		lb += in.w[i] * in.costOf(s)
	}
	keys := make([]float64, in.n())
	var lambdas [][]bool
	if in.cost == MaxCost {
		lambdas = [][]bool{nil}
	} else if in.dim <= 4 {
		for m := 1; m < 1<<in.dim; m++ {
			l := make([]bool, in.dim)
			for d := range l {
				l[d] = m&(1<<d) != 0
			}
			lambdas = append(lambdas, l)
		}
	} else {
		all := make([]bool, in.dim)
		for d := range all {
			all[d] = true
			l := make([]bool, in.dim)
			l[d] = true
			lambdas = append(lambdas, l)
		}
		lambdas = append(lambdas, all)
	}
	for _, l := range lambdas {
		base := 0.0
		for i, s := range in.size {
			own := in.costOf(s)
			keys[i] = own
			if l != nil {
				keys[i] = 0
				for d, x := range s {
					if l[d] {
						keys[i] += x / in.scale[d]
					}
				}
			}
			base += in.w[i] * (own - keys[i])
		}
		v, W, _ := mergeValues(keys, in.w)
		_, c1 := solveChain1D(v, W, in.k).best()
		lb = max(lb, base+c1)
	}
	if math.IsInf(ub, 1) {
		if shapes, err := in.seedShapes(); err == nil {
			if s, err := in.finalize(shapes, ""); err == nil {
				ub = s.Cost
			}
		}
	}
	if lg, ok := in.lagrangianBound(ub); ok {
		lb = max(lb, lg)
	}
	return lb
}

// setLowerBound fills s.LowerBound (never above s.Cost) and sets Optimal
// when the cost meets the bound.
func (in *instance) setLowerBound(s *Solution) {
	lb := in.lowerBound(s.Cost)
	if lb > s.Cost || s.Optimal {
		lb = s.Cost
	}
	s.LowerBound = lb
	if s.Cost <= lb*(1+optTol) {
		s.Optimal = true
	}
}
