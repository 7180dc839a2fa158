package xsize

import (
	"cmp"
	"math"
	"slices"

	"github.com/capplan/capplan/binpack/internal/work"
)

// Limits of the Lagrangian bound: the tight grid is built only when
// |grid|·n ≤ lagrangeGridWork, and the subgradient loop runs up to
// lagrangeIters iterations while Σ_c |cover(c)|·iterations ≤ lagrangeWork.
const (
	lagrangeGridWork = 4e7
	lagrangeWork     = 3e8
	lagrangeIters    = 1000
	lagrangeIdle     = 40 // iterations without progress before θ halves
)

// lagrangianBound is the Lagrangian bound (see subgradient) over the tight
// grid: some optimum uses only these shapes (ALGORITHMS.md §1.2), so it
// bounds OPT. It reports false when the grid is too large or ub unknown.
func (in *instance) lagrangianBound(ub float64) (float64, bool) {
	n := in.n()
	gridSize := 1.0
	for d := range in.dim {
		vals := make([]float64, 0, n)
		for _, s := range in.size {
			vals = append(vals, s[d])
		}
		slices.Sort(vals)
		gridSize *= float64(len(slices.Compact(vals)))
	}
	if gridSize*float64(n) > lagrangeGridWork || math.IsInf(ub, 1) {
		return 0, false
	}
	cands, err := in.tightGrid(int64(gridSize))
	if err != nil {
		return 0, false
	}
	lb, _, ok := in.subgradient(cands, ub, nil)
	return lb, ok
}

// subgradient maximises the Lagrangian relaxation of the k-median model
// over the candidates C,
//
//	min Σ_{i,c} w_i a_c x_ic  s.t. Σ_c x_ic = 1, x_ic ≤ y_c, Σ_c y_c ≤ K,
//
// with x_ic = 0 unless c dominates i and a_c = cost(c). Relaxing the
// assignment rows with multipliers u gives, for every u ∈ R^n, the bound
//
//	L(u) = Σ_i u_i + (sum of the K most negative ρ_c(u)),
//	ρ_c(u) = Σ_{i ≤ c} min(0, w_i a_c − u_i)
//
// on the optimum over C. u starts at w_i·cost(p_i) (where L is the
// own-shapes bound) and follows subgradient steps g_i = 1 − #{open c :
// w_i a_c < u_i} with Polyak's step θ(ub − L)/‖g‖², θ starting at 2 and
// halving after lagrangeIdle idle iterations (Held–Karp style; see Beasley,
// "Lagrangean heuristics for location problems", EJOR 65, 1993). It
// returns the best L and its u; false if the work limit leaves fewer than
// 10 iterations. Each iteration charges w (if not nil) Σ_c |cover(c)| +
// |C| units and the loop stops once w is done (the best L so far is still
// a bound). Cost O(iterations·(Σ_c |cover(c)| + |C| log |C|)).
func (in *instance) subgradient(cands []candidate, ub float64, w *work.Counter) (float64, []float64, bool) {
	n := in.n()
	work := 0
	for _, cd := range cands {
		work += cd.cover.count()
	}
	iters := min(lagrangeIters, int(lagrangeWork/float64(max(work, 1))))
	if iters < 10 {
		return 0, nil, false
	}
	members := make([][]int32, len(cands))
	for c, cd := range cands {
		cd.cover.each(func(i int) { members[c] = append(members[c], int32(i)) })
	}
	u := make([]float64, n)
	for i, s := range in.size {
		u[i] = in.w[i] * in.costOf(s)
	}
	rho := make([]float64, len(cands))
	idx := make([]int, len(cands))
	g := make([]float64, n)
	best, bestU, theta, idle := math.Inf(-1), slices.Clone(u), 2.0, 0
	for range iters {
		if w != nil {
			if w.Done() {
				break
			}
			w.Add(work + len(cands))
		}
		for c, cd := range cands {
			r := 0.0
			for _, i := range members[c] {
				if v := in.w[i]*cd.cost - u[i]; v < 0 {
					r += v
				}
			}
			rho[c], idx[c] = r, c
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(rho[a], rho[b]) })
		L := 0.0
		for _, x := range u {
			L += x
		}
		for i := range g {
			g[i] = 1
		}
		for _, c := range idx[:min(in.k, len(idx))] {
			if rho[c] >= 0 {
				break
			}
			L += rho[c]
			for _, i := range members[c] {
				if in.w[i]*cands[c].cost < u[i] {
					g[i]--
				}
			}
		}
		if L > best {
			best, idle = L, 0
			copy(bestU, u)
		} else if idle++; idle >= lagrangeIdle {
			theta, idle = theta/2, 0
		}
		norm := 0.0
		for _, x := range g {
			norm += x * x
		}
		if norm == 0 || ub-L <= ub*optTol {
			break // u is optimal, or the bound meets the incumbent
		}
		step := theta * (ub - L) / norm
		for i := range u {
			u[i] += step * g[i]
		}
	}
	if math.IsInf(best, -1) {
		return 0, nil, false // no iteration ran
	}
	return best, bestU, true
}
