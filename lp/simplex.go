package lp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
)

const (
	// simplexTol is the reduced-cost tolerance handed to gonum's Simplex:
	// it stops when no reduced cost is below −simplexTol (on the scaled
	// problem, see Simplex.Solve).
	simplexTol = 1e-10
	// squareNegTol is how negative (relative to the largest entry of the
	// scaled b, which is 1) a component of the unique solution of a square
	// system may be and still count as 0 rather than as infeasibility.
	squareNegTol = 1e-9
	// phaseOneTol is the largest sum of artificial variables (relative to
	// the largest entry of the scaled b, which is 1) at the optimum of
	// Phase I that still counts as a feasible LP.
	phaseOneTol = 1e-9
	// verifyTol bounds Model.Violation of any point a backend returns as
	// optimal; a worse point is reported as ErrNumeric, not as a solution.
	verifyTol = 1e-7
)

// Simplex is the pure-Go backend: it converts the Model to standard form
// (see toStdForm), removes linearly dependent rows (see independentRows),
// and runs gonum's dense two-phase simplex (gonum.org/v1/gonum/optimize/
// convex/lp.Simplex, after Strang ch. 8). Every iteration costs a dense
// m×m solve, so it suits models up to a few hundred rows and columns; use
// the clp backend beyond that. It computes no duals (Solution.Dual is nil).
// The zero value is ready to use and safe for concurrent use.
type Simplex struct{}

var _ Solver = Simplex{}

// Solve implements Solver.
//
// Departures from a bare call to gonum's Simplex, each working around one
// of its documented preconditions:
//   - rows that are linear combinations of others are removed (gonum needs
//     full row rank and returns ErrSingular otherwise), and an inconsistent
//     combination is reported as ErrInfeasible;
//   - columns that are zero in every remaining row are removed (gonum
//     returns ErrZeroColumn); one with negative cost makes a feasible
//     problem unbounded;
//   - a square system is solved directly with a tolerance on negativity
//     (gonum rejects any negative component, however small);
//   - Phase I is run here (see twoPhase) rather than by gonum, whose own
//     Phase I reports some feasible, degenerate LPs as infeasible when its
//     artificial variable stays basic at zero;
//   - b is divided by its largest entry so that the absolute tolerances
//     act as relative ones, and y is multiplied back.
func (Simplex) Solve(m *Model) (*Solution, error) {
	sf, err := toStdForm(m)
	if err != nil {
		return &Solution{Status: Infeasible}, err
	}
	keep, err := independentRows(sf.a, sf.b)
	if err != nil {
		return &Solution{Status: Infeasible}, err
	}
	n := len(sf.c)
	used := make([]bool, n)
	for _, i := range keep {
		for k, v := range sf.a[i] {
			if v != 0 {
				used[k] = true
			}
		}
	}
	var cols []int
	unboundedRay := false // a free column of negative cost
	for k := range n {
		switch {
		case used[k]:
			cols = append(cols, k)
		case sf.c[k] < 0:
			unboundedRay = true
		}
	}
	scale := 0.0
	for _, i := range keep {
		scale = math.Max(scale, sf.b[i])
	}
	if scale == 0 {
		scale = 1
	}
	mm, nn := len(keep), len(cols)
	a := mat.NewDense(max(mm, 1), max(nn, 1), nil)
	bs := make([]float64, mm)
	cs := make([]float64, nn)
	for r, i := range keep {
		bs[r] = sf.b[i] / scale
		for q, k := range cols {
			a.Set(r, q, sf.a[i][k])
		}
	}
	for q, k := range cols {
		cs[q] = sf.c[k]
	}

	var ys []float64
	switch {
	case mm == 0:
		ys = make([]float64, nn)
		for _, v := range cs {
			if v < 0 {
				unboundedRay = true
			}
		}
	case mm == nn:
		ys, err = solveSquare(a, bs)
	default:
		ys, err = twoPhase(cs, a, bs)
	}
	switch {
	case errors.Is(err, ErrInfeasible):
		return &Solution{Status: Infeasible}, err
	case err == nil && unboundedRay, errors.Is(err, ErrUnbounded):
		return &Solution{Status: Unbounded}, fmt.Errorf("%w (simplex)", ErrUnbounded)
	case err != nil:
		return nil, err
	}

	y := make([]float64, n)
	for q, k := range cols {
		y[k] = math.Max(ys[q], 0) * scale
	}
	x := make([]float64, len(sf.vars))
	for j, cm := range sf.vars {
		v := cm.base
		if cm.pos >= 0 {
			v += cm.sign * y[cm.pos]
		}
		if cm.neg >= 0 {
			v -= y[cm.neg]
		}
		// Shifting back can leave x a rounding error outside its bounds.
		x[j] = math.Min(math.Max(v, m.lo[j]), m.hi[j])
	}
	if v := m.Violation(x); v > verifyTol {
		return nil, fmt.Errorf("%w: simplex returned a point violating the model by %.3g", ErrNumeric, v)
	}
	return &Solution{Status: Optimal, Objective: m.Value(x), X: x}, nil
}

// solveSquare returns the unique solution y of the nonsingular square
// system a·y = b if it is non-negative to squareNegTol, and an error
// wrapping ErrInfeasible otherwise.
func solveSquare(a *mat.Dense, b []float64) ([]float64, error) {
	var y mat.VecDense
	if err := y.SolveVec(a, mat.NewVecDense(len(b), b)); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return nil, fmt.Errorf("%w: simplex: %v", ErrNumeric, err)
		}
	}
	out := make([]float64, len(b))
	for i := range out {
		v := y.AtVec(i)
		if v < -squareNegTol {
			return nil, fmt.Errorf("%w (simplex: unique solution has y[%d] = %g)", ErrInfeasible, i, v)
		}
		out[i] = v
	}
	return out, nil
}

// twoPhase solves min cᵀy s.t. a·y = b, y ≥ 0 for a of full row rank m < n
// and b ≥ 0, with gonum's Simplex run twice from bases computed here.
// Phase I appends the artificial columns I (a feasible basis, since b ≥ 0)
// and minimises their sum; a positive optimum (beyond phaseOneTol) proves
// infeasibility. Its optimal vertex y¹, completed to a basis of a by
// independent columns at zero (see feasibleBasis), starts Phase II.
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
	art, y1, err := gonumSimplex(c1, a1, b, basis)
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
	_, y, err := gonumSimplex(c, a, b2.RawVector().Data, basis)
	return y, err
}

// gonumSimplex calls gonum's Simplex from the feasible basis, mapping its
// errors (and its panics on a basis that rounding made infeasible) to ours.
func gonumSimplex(c []float64, a *mat.Dense, b []float64, basis []int) (f float64, y []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, y, err = 0, nil, fmt.Errorf("%w: simplex: %v", ErrNumeric, r)
		}
	}()
	f, y, err = gonumlp.Simplex(c, a, b, simplexTol, basis)
	switch {
	case err == nil:
	case errors.Is(err, gonumlp.ErrUnbounded):
		err = fmt.Errorf("%w (simplex)", ErrUnbounded)
	default:
		// From a feasible basis, anything else is numerical trouble.
		err = fmt.Errorf("%w: simplex: %v", ErrNumeric, err)
	}
	return f, y, err
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
