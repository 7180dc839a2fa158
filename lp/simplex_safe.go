package lp

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
)

// SafeSimplex runs gonum's Simplex — minimise cᵀx subject to a·x = b,
// x ≥ 0, from the feasible basis with reduced-cost tolerance tol — and
// never panics. gonum panics on a basis that rounding has made slightly
// infeasible; SafeSimplex turns that panic into an error wrapping
// ErrNumeric and returns x = nil. gonum's unbounded error becomes one
// wrapping ErrUnbounded; from a feasible basis any other error is
// numerical trouble and wraps ErrNumeric. x is gonum's point, which a
// caller that only needs a candidate (to be repaired and certified) may
// use when it is not nil, whatever err says.
//
// It is capplan's one home for calling gonum's simplex: every LP solved
// inside an algorithm package goes through it.
func SafeSimplex(c []float64, a *mat.Dense, b []float64, tol float64, basis []int) (opt float64, x []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			opt, x, err = 0, nil, fmt.Errorf("%w: simplex: %v", ErrNumeric, r)
		}
	}()
	opt, x, err = gonumlp.Simplex(c, a, b, tol, basis)
	switch {
	case err == nil:
	case errors.Is(err, gonumlp.ErrUnbounded):
		err = fmt.Errorf("%w (simplex)", ErrUnbounded)
	default:
		err = fmt.Errorf("%w: simplex: %v", ErrNumeric, err)
	}
	return opt, x, err
}
