package vbp

import (
	"math"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
)

// lpBound returns a certified value of the LP relaxation over rows and its
// dual prices y (per row, in cost per unit of the row's right-hand side;
// nil when the simplex failed). It solves the dual
//
//	max Σ_r y_r − Σ_t Max_t·z_t  s.t.  Σ_r G_rt·y_r − z_t ≤ cost_t,  y, z ≥ 0
//
// (z_t only for limited types; rows scaled to right-hand side 1, costs to
// at most 1) with gonum's simplex from the slack basis, then repairs y
// into exact dual feasibility (scaling it down for unlimited types, raising
// z for limited ones) and evaluates the dual objective, which bounds the
// primal optimum by weak duality. The best single-row dual solution is a
// fallback floor.
func (mp *mixedProblem) lpBound(rows []lbRow) (float64, []float64) {
	best := 0.0
	for r := range rows {
		best = max(best, mp.rowBound(rows[r]))
	}
	m, A := len(rows), len(mp.active)
	var bounded []int // positions of limited types
	for p, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			bounded = append(bounded, p)
		}
	}
	cs := 0.0
	for _, t := range mp.active {
		cs = max(cs, mp.cost[t])
	}
	ncol := m + len(bounded) + A
	a := mat.NewDense(A, ncol, nil)
	c := make([]float64, ncol)
	b := make([]float64, A)
	basis := make([]int, A)
	for r, row := range rows {
		c[r] = -1
		for p := range mp.active {
			a.Set(p, r, float64(row.coef[p])/float64(row.rhs))
		}
	}
	for z, p := range bounded {
		a.Set(p, m+z, -1)
		c[m+z] = float64(mp.lim[mp.active[p]])
	}
	for p, t := range mp.active {
		a.Set(p, m+len(bounded)+p, 1)
		b[p] = mp.cost[t] / cs
		basis[p] = m + len(bounded) + p
	}
	x, ok := simplexSafe(c, a, b, basis)
	if !ok {
		return best, nil
	}
	y := make([]float64, m)
	for r, row := range rows {
		y[r] = max(x[r], 0) * cs / float64(row.rhs)
	}
	v := mp.dualValue(rows, y)
	if v > best {
		best = v
	}
	return best, y
}

// simplexSafe runs gonum's simplex, turning its panics into failure. On a
// numerical error it still returns the last feasible point, which is only
// used as a dual candidate to be repaired and certified.
func simplexSafe(c []float64, a *mat.Dense, b []float64, basis []int) (x []float64, ok bool) {
	defer func() {
		if recover() != nil {
			x, ok = nil, false
		}
	}()
	_, x, err := gonumlp.Simplex(c, a, b, 1e-10, basis)
	if x == nil {
		return nil, false
	}
	_ = err
	return x, true
}

// dualValue repairs the dual prices y (in place) to exact feasibility and
// returns the dual objective Σ_r rhs_r·y_r − Σ_t Max_t·z_t.
func (mp *mixedProblem) dualValue(rows []lbRow, y []float64) float64 {
	lhs := func(p int) float64 {
		s := 0.0
		for r, row := range rows {
			s += float64(row.coef[p]) * y[r]
		}
		return s
	}
	f := 1.0
	for p, t := range mp.active {
		if mp.lim[t] == math.MaxInt {
			if l := lhs(p); l > mp.cost[t] {
				f = min(f, mp.cost[t]/l)
			}
		}
	}
	f *= 1 - lpMargin
	for r := range y {
		y[r] *= f
	}
	v := 0.0
	for r, row := range rows {
		v += float64(row.rhs) * y[r]
	}
	for p, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			if z := lhs(p) - mp.cost[t]; z > 0 {
				v -= float64(mp.lim[t]) * z * (1 + lpMargin)
			}
		}
	}
	return max(v, 0)
}

// rowBound is the best dual solution that prices only row r: y at one of
// the breakpoints cost_t/coef_t (not above the cheapest unlimited rate).
func (mp *mixedProblem) rowBound(row lbRow) float64 {
	ymax := math.Inf(1)
	var cand []float64
	for p, t := range mp.active {
		if row.coef[p] == 0 {
			continue
		}
		rate := mp.cost[t] / float64(row.coef[p])
		cand = append(cand, rate)
		if mp.lim[t] == math.MaxInt {
			ymax = min(ymax, rate)
		}
	}
	best := 0.0
	for _, y := range cand {
		if y > ymax {
			continue
		}
		y *= 1 - lpMargin
		v := float64(row.rhs) * y
		for p, t := range mp.active {
			if z := float64(row.coef[p])*y - mp.cost[t]; z > 0 && row.coef[p] > 0 {
				v -= float64(mp.lim[t]) * z * (1 + lpMargin)
			}
		}
		best = max(best, v)
	}
	return best
}
