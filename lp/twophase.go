package lp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// phaseOneTol is the largest sum of artificial variables (relative to the
// largest entry of the scaled b, which is 1) at the optimum of Phase I that
// still counts as a feasible LP.
const phaseOneTol = 1e-9

// twoPhase solves min cᵀy s.t. a·y = b, y ≥ 0 for a of full row rank m < n
// and b ≥ 0 by the two-phase simplex method (Bertsimas & Tsitsiklis,
// "Introduction to Linear Optimization", §3.5), with gonum's Simplex run
// twice from bases computed here. Phase I appends the artificial columns I
// (a feasible basis, since b ≥ 0) and minimises their sum; a positive
// optimum (beyond phaseOneTol) proves infeasibility. Its optimal vertex y¹,
// completed to a basis of a by independent columns at zero (see
// feasibleBasis), starts Phase II.
func twoPhase(c []float64, a *mat.Dense, b []float64) ([]float64, error) {
	m, n := a.Dims()
	a1 := mat.NewDense(m, n+m, nil)
	a1.Slice(0, m, 0, n).(*mat.Dense).Copy(a)
	c1 := make([]float64, n+m)
	basis := make([]int, m)
	for i := range m {
		a1.Set(i, n+i, 1)
		c1[n+i] = 1
		basis[i] = n + i
	}
	art, y1, err := SafeSimplex(c1, a1, b, simplexTol, basis)
	if err != nil {
		return nil, err
	}
	if art > phaseOneTol {
		return nil, fmt.Errorf("%w (simplex: phase I optimum %g)", ErrInfeasible, art)
	}
	basis, err = feasibleBasis(a, y1[:n])
	if err != nil {
		return nil, err
	}
	// Up to phaseOneTol of artificial value left in Phase I can make the
	// basic solution B⁻¹b slightly negative, which gonum rejects. Move b by
	// as much, to B·max(B⁻¹b, 0), so that the basis is exactly feasible;
	// the final point is checked against the unmoved model.
	ab := mat.NewDense(m, m, nil)
	for k, j := range basis {
		ab.SetCol(k, mat.Col(nil, j, a))
	}
	var xb mat.VecDense
	if err := xb.SolveVec(ab, mat.NewVecDense(m, b)); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return nil, fmt.Errorf("%w: simplex: %v", ErrNumeric, err)
		}
	}
	for i := range m {
		xb.SetVec(i, math.Max(xb.AtVec(i), 0))
	}
	var b2 mat.VecDense
	b2.MulVec(ab, &xb)
	_, y, err := SafeSimplex(c, a, b2.RawVector().Data, simplexTol, basis)
	return y, err
}

// feasibleBasis returns m linearly independent columns of a (m×n, rank m)
// including every column where the vertex y is positive, so that y is the
// basic solution of the basis. Columns are taken greedily by decreasing y,
// then from the last column back (slacks first), each kept if it is
// independent of those kept (to depTol, by Gaussian elimination).
func feasibleBasis(a *mat.Dense, y []float64) ([]int, error) {
	m, n := a.Dims()
	order := make([]int, 0, n)
	for j := n - 1; j >= 0; j-- {
		if y[j] > 0 {
			order = append(order, j)
		}
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(y[j], y[i]) })
	for j := n - 1; j >= 0; j-- {
		if y[j] <= 0 {
			order = append(order, j)
		}
	}
	type pivotCol struct {
		v   []float64
		row int
	}
	var kept []pivotCol
	var basis []int
	for _, j := range order {
		if len(basis) == m {
			break
		}
		v := mat.Col(nil, j, a)
		scale := 0.0
		for _, x := range v {
			scale = math.Max(scale, math.Abs(x))
		}
		for _, p := range kept {
			if f := v[p.row] / p.v[p.row]; f != 0 {
				for i := range v {
					v[i] -= f * p.v[i]
				}
				v[p.row] = 0
			}
		}
		row, big := -1, 0.0
		for i, x := range v {
			if math.Abs(x) > big {
				row, big = i, math.Abs(x)
			}
		}
		if big <= depTol*scale {
			if y[j] > 0 {
				return nil, fmt.Errorf("%w: simplex: phase I point is not a vertex", ErrNumeric)
			}
			continue
		}
		kept = append(kept, pivotCol{v: v, row: row})
		basis = append(basis, j)
	}
	if len(basis) < m {
		return nil, fmt.Errorf("%w: simplex: rank %d < %d rows", ErrNumeric, len(basis), m)
	}
	return basis, nil
}
