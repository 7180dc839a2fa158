package lp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
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
	// verifyTol bounds Model.Violation of any point a backend returns as
	// optimal; a worse point is reported as ErrNumeric, not as a solution.
	verifyTol = 1e-7
)

// MaxSimplexCells bounds the standard form the pure-Go backend takes, in
// rows × columns (250,000): its row reduction costs O(m²·n) and every
// pivot dense m×m solves, with no budget to stop it. Measured on the
// CMMF of Google-like instances (2 loaded cores): 50 users × 10 types,
// 160 × 519, 6 s for all rounds; 100 × 15, 315 × 1,339, 37 s; 500 × 50,
// 1,177 × 16,197, minutes. Beyond it, Solve returns a *TooLargeError.
const MaxSimplexCells = 250_000

// TooLargeError is the pure-Go backend's error for a model beyond
// MaxSimplexCells.
type TooLargeError struct{ Rows, Cols int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("lp: the model has %d rows × %d columns in standard form, more than the %d cells the pure-Go simplex solves in reasonable time; use the clp backend", e.Rows, e.Cols, MaxSimplexCells)
}

// Simplex is the pure-Go backend: it converts the Model to standard form
// (see toStdForm), removes linearly dependent rows (see independentRows),
// and runs a two-phase simplex (see twoPhase) whose pivoting is done by
// gonum's dense simplex (gonum.org/v1/gonum/optimize/convex/lp.Simplex,
// after Strang ch. 8). Every pivot costs dense m×m solves, so it suits
// models up to a few hundred rows and columns; use the clp backend beyond
// that. It computes no duals (Solution.Dual is nil). The zero value is
// ready to use and safe for concurrent use.
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
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, err
	}
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
