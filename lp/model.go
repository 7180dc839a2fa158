package lp

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
)

// Sentinel errors returned (wrapped) by every Solver. Test them with
// errors.Is.
var (
	// ErrInfeasible: no point satisfies all bounds and constraints.
	ErrInfeasible = errors.New("lp: problem is infeasible")
	// ErrUnbounded: the problem is feasible but its objective is unbounded
	// in the optimisation direction.
	ErrUnbounded = errors.New("lp: problem is unbounded")
	// ErrNumeric: the backend failed for numerical reasons (singular basis,
	// iteration limit, a returned point that violates the model) and could
	// not decide the problem.
	ErrNumeric = errors.New("lp: numerical failure")
)

// Sense is the direction of a linear constraint.
type Sense int

const (
	// LE is Σ a_j x_j ≤ rhs.
	LE Sense = iota + 1
	// GE is Σ a_j x_j ≥ rhs.
	GE
	// EQ is Σ a_j x_j = rhs.
	EQ
)

func (s Sense) String() string {
	switch s {
	case LE:
		return "<="
	case GE:
		return ">="
	case EQ:
		return "="
	}
	return fmt.Sprintf("Sense(%d)", int(s))
}

// Var identifies a variable of a Model (its column index).
type Var int

// Row identifies a constraint of a Model (its row index).
type Row int

// Term is one coefficient·variable product of a linear expression.
type Term struct {
	Var  Var
	Coef float64
}

// Status is the outcome of a solve.
type Status int

const (
	// Optimal: X is an optimal point.
	Optimal Status = iota + 1
	// Infeasible: the constraints admit no point.
	Infeasible
	// Unbounded: the objective is unbounded on the feasible set.
	Unbounded
)

func (s Status) String() string {
	switch s {
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Solution is the result of a solve.
type Solution struct {
	Status Status
	// Objective is cᵀx at X (in the model's own direction, not negated for
	// maximisation).
	Objective float64
	// X holds one value per variable; nil unless Status is Optimal.
	X []float64
	// Dual holds one value per row, the sensitivity ∂Objective/∂rhs of the
	// optimum to the row's right-hand side, when the backend computes duals;
	// nil otherwise. With this convention a binding ≤ row of a maximisation
	// has Dual ≥ 0 and a binding ≥ row of a minimisation has Dual ≥ 0.
	Dual []float64
}

// Solver solves a Model. Implementations return a Solution with Status
// Infeasible or Unbounded together with an error wrapping ErrInfeasible or
// ErrUnbounded, and (nil, error wrapping ErrNumeric) when they cannot
// decide. A Solver may keep state between calls (for warm starts) and is
// not required to be safe for concurrent use by several goroutines.
type Solver interface {
	Solve(m *Model) (*Solution, error)
}

// shapeSeq issues the structure identifiers of Models.
var shapeSeq atomic.Uint64

type row struct {
	terms []Term
	sense Sense
	rhs   float64
}

// Model is a linear program
//
//	minimise or maximise  cᵀx
//	subject to            a_iᵀx (≤ | ≥ | =) rhs_i   for every row i
//	                      lo_j ≤ x_j ≤ hi_j         for every variable j.
//
// The zero Model is empty and ready to use; a Model must not be copied
// after first use (copies would share rows). Adding variables or rows
// changes the model's structure; changing right-hand sides, bounds or the
// objective does not, which lets a backend re-solve a modified model from
// its previous basis (warm start). Misuse (NaN data, an unknown Var, Row
// or Sense, an infinite right-hand side on the binding side) panics.
type Model struct {
	lo, hi []float64
	obj    []float64
	max    bool
	rows   []row
	// shape identifies the structure (variables and coefficient matrix);
	// it is unique across all Models of the process.
	shape uint64
}

// AddVar adds a variable with bounds lo ≤ x ≤ hi and returns it. lo may be
// math.Inf(-1) and hi math.Inf(1). lo > hi is allowed and makes the model
// infeasible.
func (m *Model) AddVar(lo, hi float64) Var {
	checkBounds(lo, hi)
	m.lo = append(m.lo, lo)
	m.hi = append(m.hi, hi)
	m.obj = append(m.obj, 0)
	m.shape = shapeSeq.Add(1)
	return Var(len(m.lo) - 1)
}

// AddConstraint adds the row Σ terms (sense) rhs and returns it. Repeated
// variables are summed and zero coefficients dropped. rhs may be
// math.Inf(1) for LE and math.Inf(-1) for GE, which makes the row inactive
// until SetRHS gives it a finite value.
func (m *Model) AddConstraint(terms []Term, sense Sense, rhs float64) Row {
	if sense != LE && sense != GE && sense != EQ {
		panic(fmt.Sprintf("lp: invalid sense %d", int(sense)))
	}
	checkRHS(sense, rhs)
	m.rows = append(m.rows, row{terms: m.merge(terms), sense: sense, rhs: rhs})
	m.shape = shapeSeq.Add(1)
	return Row(len(m.rows) - 1)
}

// SetObjective replaces the objective by Σ terms, minimised unless maximize
// is set. Variables absent from terms get coefficient 0.
func (m *Model) SetObjective(terms []Term, maximize bool) {
	for j := range m.obj {
		m.obj[j] = 0
	}
	for _, t := range m.merge(terms) {
		m.obj[t.Var] = t.Coef
	}
	m.max = maximize
}

// SetRHS changes the right-hand side of row r (see AddConstraint for the
// infinite values allowed).
func (m *Model) SetRHS(r Row, rhs float64) {
	m.checkRow(r)
	checkRHS(m.rows[r].sense, rhs)
	m.rows[r].rhs = rhs
}

// SetBounds changes the bounds of variable v (see AddVar).
func (m *Model) SetBounds(v Var, lo, hi float64) {
	m.checkVar(v)
	checkBounds(lo, hi)
	m.lo[v], m.hi[v] = lo, hi
}

// NumVars returns the number of variables.
func (m *Model) NumVars() int { return len(m.lo) }

// NumRows returns the number of constraints.
func (m *Model) NumRows() int { return len(m.rows) }

// Bounds returns the bounds of variable v.
func (m *Model) Bounds(v Var) (lo, hi float64) {
	m.checkVar(v)
	return m.lo[v], m.hi[v]
}

// Constraint returns row r: its terms (merged; do not modify), sense and
// right-hand side.
func (m *Model) Constraint(r Row) (terms []Term, sense Sense, rhs float64) {
	m.checkRow(r)
	rw := m.rows[r]
	return rw.terms, rw.sense, rw.rhs
}

// Objective returns the objective's dense coefficient vector (do not
// modify) and direction.
func (m *Model) Objective() (c []float64, maximize bool) { return m.obj, m.max }

// Value returns cᵀx.
func (m *Model) Value(x []float64) float64 {
	var s float64
	for j, c := range m.obj {
		s += c * x[j]
	}
	return s
}

// Violation returns the largest violation of a bound or an active row by
// x, scaled per row by 1+|rhs|+Σ|a_j x_j| (per variable by 1+|bound|), so
// that it is comparable to a relative tolerance.
func (m *Model) Violation(x []float64) float64 {
	if len(x) != len(m.lo) {
		panic("lp: size mismatch")
	}
	var worst float64
	for j, v := range x {
		if d := m.lo[j] - v; d > 0 {
			worst = math.Max(worst, d/(1+math.Abs(m.lo[j])))
		}
		if d := v - m.hi[j]; d > 0 {
			worst = math.Max(worst, d/(1+math.Abs(m.hi[j])))
		}
	}
	for _, r := range m.rows {
		if math.IsInf(r.rhs, 0) {
			continue
		}
		var act, mag float64
		for _, t := range r.terms {
			act += t.Coef * x[t.Var]
			mag += math.Abs(t.Coef * x[t.Var])
		}
		var d float64
		switch r.sense {
		case LE:
			d = act - r.rhs
		case GE:
			d = r.rhs - act
		case EQ:
			d = math.Abs(act - r.rhs)
		}
		if d > 0 {
			worst = math.Max(worst, d/(1+math.Abs(r.rhs)+mag))
		}
	}
	return worst
}

// merge sums repeated variables and drops zeros; it panics on an unknown
// variable or a NaN or infinite coefficient.
func (m *Model) merge(terms []Term) []Term {
	out := make([]Term, 0, len(terms))
	pos := make(map[Var]int, len(terms))
	for _, t := range terms {
		m.checkVar(t.Var)
		if math.IsNaN(t.Coef) || math.IsInf(t.Coef, 0) {
			panic(fmt.Sprintf("lp: coefficient %v of variable %d", t.Coef, t.Var))
		}
		if k, ok := pos[t.Var]; ok {
			out[k].Coef += t.Coef
			continue
		}
		pos[t.Var] = len(out)
		out = append(out, t)
	}
	kept := out[:0]
	for _, t := range out {
		if t.Coef != 0 {
			kept = append(kept, t)
		}
	}
	return kept
}

func (m *Model) checkVar(v Var) {
	if v < 0 || int(v) >= len(m.lo) {
		panic(fmt.Sprintf("lp: unknown variable %d of %d", v, len(m.lo)))
	}
}

func (m *Model) checkRow(r Row) {
	if r < 0 || int(r) >= len(m.rows) {
		panic(fmt.Sprintf("lp: unknown row %d of %d", r, len(m.rows)))
	}
}

func checkBounds(lo, hi float64) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 1) || math.IsInf(hi, -1) {
		panic(fmt.Sprintf("lp: invalid bounds [%v, %v]", lo, hi))
	}
}

func checkRHS(s Sense, rhs float64) {
	ok := !math.IsNaN(rhs) &&
		(!math.IsInf(rhs, 0) || (s == LE && rhs > 0) || (s == GE && rhs < 0))
	if !ok {
		panic(fmt.Sprintf("lp: invalid right-hand side %s %v", s, rhs))
	}
}
