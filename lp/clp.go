//go:build clp

package lp

/*
#cgo pkg-config: clp
#include <Clp_C_Interface.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

const (
	// clpInf is COIN_DBL_MAX, the value CLP reads as an infinite bound.
	clpInf = math.MaxFloat64
	// clpFeasTol and clpOptTol replace CLP's primal and dual feasibility
	// tolerances (default 1e-7 each). The CMMF driver compares levels to
	// 1e-9 relative, so a basis must not be accepted while it still
	// violates a bound or a reduced-cost sign by more than this.
	clpFeasTol = 1e-9
	clpOptTol  = 1e-9
	// clpPerturbation is CLP's perturbation mode: 50 switches perturbation
	// on for every solve, and CLP takes it out again before returning. With
	// the default, 100 (perturb when progress stalls), the degenerate CMMF
	// LPs came back with perturbed row bounds still in the point: levels
	// off by up to 5e-11 relative on 500 random instances with exact
	// answers, against 6e-12 with 50.
	clpPerturbation = 50
	// clpHuge is the magnitude from which a value returned as optimal is
	// taken for an artefact of CLP's artificial bounds rather than a
	// solution; models whose solutions are that large are out of scope.
	clpHuge = 1e15
)

// CLP is the COIN-OR CLP backend (https://github.com/coin-or/Clp), driven
// through its C interface (Clp_C_Interface.h). It keeps the last model it
// solved: when the next Model has the same structure (no variable or row
// added since, see Model) only bounds, row sides and the objective are
// sent, and CLP re-solves from its previous basis, with the primal simplex
// when the previous point is still feasible and the dual simplex
// otherwise. A new structure is loaded and solved from scratch
// with the primal simplex, which, unlike CLP's dual simplex, reports an
// unbounded LP as such rather than stopping at its artificial bounds; a
// warm start that ends at such a bound is retried from scratch. It returns
// row duals.
//
// Empty columns and rows never reach CLP: its scaling gives an empty column
// an absurd scale factor (the primal simplex then reports a feasible
// unbounded LP as infeasible), so an empty column is fixed at its best
// bound and an empty row checked, here.
//
// A CLP must not be copied; it is safe for concurrent use (calls are
// serialised). Close releases its C memory; an unreachable CLP releases it
// on garbage collection.
type CLP struct {
	mu sync.Mutex
	h  *clpHandle
	// shape is the structure of the model held by h, and emptyCol and
	// emptyRow mark its empty columns and rows.
	shape              uint64
	emptyCol, emptyRow []bool
	// The data last sent, to choose the warm-start algorithm.
	sent clpData
}

var _ Solver = (*CLP)(nil)

// clpHandle owns a Clp_Simplex* (typedef void, hence unsafe.Pointer).
type clpHandle struct{ p unsafe.Pointer }

func (h *clpHandle) free() {
	if h.p != nil {
		C.Clp_deleteModel(h.p)
		h.p = nil
	}
}

// NewCLP returns a CLP backend.
func NewCLP() *CLP {
	s := &CLP{h: &clpHandle{}}
	runtime.AddCleanup(s, func(h *clpHandle) { h.free() }, s.h)
	return s
}

// Close releases the CLP model held for warm starts. The CLP stays usable.
func (s *CLP) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.h.free()
	return nil
}

// Solve implements Solver.
func (s *CLP) Solve(m *Model) (*Solution, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	warm := s.h.p != nil && s.shape == m.shape
	if !warm {
		s.h.free()
		s.shape = m.shape
		s.emptyCol, s.emptyRow = emptyLines(m)
	}
	d, fixed, ray, err := s.data(m)
	if err != nil {
		return &Solution{Status: Infeasible}, err
	}
	if !slices.Contains(s.emptyCol, false) {
		// Every column is empty (or there are none): nothing for CLP.
		return s.finish(m, fixed, ray, nil, nil)
	}
	if warm {
		s.send(d)
	} else {
		s.load(m, d)
	}
	x, dual, ok, err := s.result(m)
	if !ok && warm {
		// A warm start went wrong (iteration limit, numerical trouble, a
		// point outside the model): retry once from scratch.
		s.load(m, d)
		x, dual, ok, err = s.result(m)
	}
	if !ok {
		s.h.free()
	}
	if err != nil {
		switch {
		case errors.Is(err, ErrInfeasible):
			return &Solution{Status: Infeasible}, err
		case errors.Is(err, ErrUnbounded):
			return &Solution{Status: Unbounded}, err
		}
		return nil, err
	}
	return s.finish(m, fixed, ray, x, dual)
}

// finish completes CLP's point x (nil when CLP was not called) with the
// values of the empty columns, and reports unboundedness along an empty
// column once the rest is known to be feasible.
func (s *CLP) finish(m *Model, fixed []float64, ray bool, x, dual []float64) (*Solution, error) {
	if ray {
		return &Solution{Status: Unbounded}, fmt.Errorf("%w (clp: empty column)", ErrUnbounded)
	}
	if x == nil {
		x = make([]float64, len(m.lo))
	}
	if dual == nil {
		dual = make([]float64, len(m.rows))
	}
	for j, e := range s.emptyCol {
		if e {
			x[j] = fixed[j]
		}
	}
	for j := range x {
		x[j] = math.Min(math.Max(x[j], m.lo[j]), m.hi[j])
	}
	if v := m.Violation(x); v > verifyTol {
		return nil, fmt.Errorf("%w: clp returned a point violating the model by %.3g", ErrNumeric, v)
	}
	return &Solution{Status: Optimal, Objective: m.Value(x), X: x, Dual: dual}, nil
}

// load replaces the held CLP model by m with data d and solves it from
// scratch with the primal simplex.
func (s *CLP) load(m *Model, d clpData) {
	s.h.free()
	p := C.Clp_newModel()
	s.h.p = p
	C.Clp_setLogLevel(p, 0)
	C.Clp_setPrimalTolerance(p, clpFeasTol)
	C.Clp_setDualTolerance(p, clpOptTol)
	C.Clp_setPerturbation(p, clpPerturbation)

	// Column-major copy of the row-wise matrix.
	n := len(m.lo)
	start := make([]C.CoinBigIndex, n+1)
	for _, r := range m.rows {
		for _, t := range r.terms {
			start[t.Var+1]++
		}
	}
	for j := range n {
		start[j+1] += start[j]
	}
	index := make([]C.int, max(start[n], 1))
	value := make([]float64, max(start[n], 1))
	fill := slices.Clone(start[:n])
	for i, r := range m.rows {
		for _, t := range r.terms {
			k := fill[t.Var]
			index[k], value[k] = C.int(i), t.Coef
			fill[t.Var]++
		}
	}
	C.Clp_loadProblem(p, C.int(n), C.int(len(m.rows)), &start[0], &index[0], dp(value),
		dp(d.colLo), dp(d.colUp), dp(d.obj), dp(d.rowLo), dp(d.rowUp))
	C.Clp_setObjSense(p, C.double(d.sense))
	s.sent = d
	C.Clp_primal(p, 0)
}

// send updates the held model's data and re-solves it from its basis:
// with the primal simplex if the last point stays feasible under the new
// bounds and sides (it then starts at that point), otherwise with the dual
// simplex (the old basis stays dual feasible if only bounds and sides
// moved).
func (s *CLP) send(d clpData) {
	p := s.h.p
	primal := stillFeasible(
		unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getColSolution(p))), len(d.colLo)), d.colLo, d.colUp) &&
		stillFeasible(unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getRowActivity(p))), len(d.rowLo)), d.rowLo, d.rowUp)
	C.Clp_chgColumnLower(p, dp(d.colLo))
	C.Clp_chgColumnUpper(p, dp(d.colUp))
	C.Clp_chgRowLower(p, dp(d.rowLo))
	C.Clp_chgRowUpper(p, dp(d.rowUp))
	C.Clp_chgObjCoefficients(p, dp(d.obj))
	C.Clp_setObjSense(p, C.double(d.sense))
	s.sent = d
	if primal {
		C.Clp_primal(p, 0)
	} else {
		C.Clp_dual(p, 0)
	}
}

// stillFeasible reports whether lo ≤ v ≤ up to CLP's primal tolerance.
func stillFeasible(v, lo, up []float64) bool {
	for i, x := range v {
		if x < lo[i]-clpFeasTol*(1+math.Abs(lo[i])) || x > up[i]+clpFeasTol*(1+math.Abs(up[i])) {
			return false
		}
	}
	return true
}

// result reads the held model's outcome: the column values and row duals,
// or an error wrapping ErrInfeasible, ErrUnbounded or ErrNumeric. ok is
// false when CLP could not decide the problem, so that a retry from
// scratch may help.
func (s *CLP) result(m *Model) (x, dual []float64, ok bool, err error) {
	p := s.h.p
	switch st := C.Clp_status(p); st {
	case 0:
	case 1:
		return nil, nil, true, fmt.Errorf("%w (clp)", ErrInfeasible)
	case 2:
		// Dual infeasible: unbounded if the problem is feasible at all.
		C.Clp_chgObjCoefficients(p, dp(make([]float64, len(m.lo))))
		C.Clp_primal(p, 0)
		feasible := C.Clp_status(p) == 0
		C.Clp_chgObjCoefficients(p, dp(s.sent.obj))
		if !feasible {
			return nil, nil, true, fmt.Errorf("%w (clp)", ErrInfeasible)
		}
		return nil, nil, true, fmt.Errorf("%w (clp)", ErrUnbounded)
	default:
		return nil, nil, false, fmt.Errorf("%w: clp status %d, secondary %d", ErrNumeric, int(st), int(C.Clp_secondaryStatus(p)))
	}
	x = slices.Clone(unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getColSolution(p))), len(m.lo)))
	for j, v := range x {
		if math.Abs(v) >= clpHuge {
			// The dual simplex bounds free variables by a large artificial
			// bound (dualBound) and may stop there instead of reporting
			// an unbounded LP.
			return nil, nil, false, fmt.Errorf("%w: clp: x[%d] = %g", ErrNumeric, j, v)
		}
		x[j] = math.Min(math.Max(x[j], m.lo[j]), m.hi[j])
	}
	if v := m.Violation(x); v > verifyTol {
		return nil, nil, false, fmt.Errorf("%w: clp returned a point violating the model by %.3g", ErrNumeric, v)
	}
	// CLP's row price is already ∂objective/∂rhs in the model's own
	// direction (checked by TestHandLPs).
	dual = make([]float64, len(m.rows))
	if len(dual) > 0 {
		copy(dual, unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getRowPrice(p))), len(dual)))
	}
	return x, dual, true, nil
}
