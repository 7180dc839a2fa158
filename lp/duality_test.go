package lp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// dualityTol is the relative tolerance on the agreement of primal and dual
// optima of the small random integer LPs below.
const dualityTol = 1e-7

// randomLP draws max cᵀx s.t. a_iᵀx (sense_i) b_i, x ≥ 0 with small integer
// data: m rows, n columns, about a third of the coefficients zero.
func randomLP(rng *rand.Rand) (a [][]float64, b, c []float64, sense []Sense) {
	m, n := 1+rng.IntN(6), 1+rng.IntN(8)
	a = make([][]float64, m)
	b = make([]float64, m)
	sense = make([]Sense, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			if rng.IntN(3) > 0 {
				a[i][j] = float64(rng.IntN(15) - 5)
			}
		}
		b[i] = float64(rng.IntN(24) - 3)
		// Mostly ≤ rows, so that many instances are feasible and bounded.
		sense[i] = []Sense{LE, LE, LE, GE, EQ}[rng.IntN(5)]
	}
	c = make([]float64, n)
	for j := range c {
		c[j] = float64(rng.IntN(13) - 3)
	}
	return a, b, c, sense
}

// primalModel is max cᵀx s.t. A x (sense) b, x ≥ 0.
func primalModel(a [][]float64, b, c []float64, sense []Sense) *Model {
	var m Model
	x := make([]Var, len(c))
	for j := range x {
		x[j] = m.AddVar(0, inf)
	}
	for i, ai := range a {
		var terms []Term
		for j, v := range ai {
			terms = append(terms, Term{x[j], v})
		}
		m.AddConstraint(terms, sense[i], b[i])
	}
	var obj []Term
	for j, v := range c {
		obj = append(obj, Term{x[j], v})
	}
	m.SetObjective(obj, true)
	return &m
}

// dualModel is the LP dual of primalModel: min bᵀy s.t. Aᵀy ≥ c, with
// y_i ≥ 0 for a ≤ row, y_i ≤ 0 for a ≥ row and y_i free for an equality.
func dualModel(a [][]float64, b, c []float64, sense []Sense) *Model {
	var m Model
	y := make([]Var, len(b))
	for i := range y {
		switch sense[i] {
		case LE:
			y[i] = m.AddVar(0, inf)
		case GE:
			y[i] = m.AddVar(-inf, 0)
		case EQ:
			y[i] = m.AddVar(-inf, inf)
		}
	}
	for j := range c {
		var terms []Term
		for i := range a {
			terms = append(terms, Term{y[i], a[i][j]})
		}
		m.AddConstraint(terms, GE, c[j])
	}
	var obj []Term
	for i, v := range b {
		obj = append(obj, Term{y[i], v})
	}
	m.SetObjective(obj, false)
	return &m
}

// TestDuality solves random LPs and their duals with the same backend and
// checks strong duality: both optimal with equal values, or primal
// unbounded and dual infeasible, or primal infeasible and dual infeasible
// or unbounded. When the backend reports row duals, they must be feasible
// for the dual and price the optimum (bᵀy = cᵀx).
func TestDuality(t *testing.T) {
	const instances = 3000
	eachBackend(t, func(t *testing.T, s Solver) {
		rng := rand.New(rand.NewPCG(1, 2)) // fixed seed: reproducible instances
		counts := map[string]int{}
		for k := range instances {
			a, b, c, sense := randomLP(rng)
			pm := primalModel(a, b, c, sense)
			psol, perr := s.Solve(pm)
			dsol, derr := s.Solve(dualModel(a, b, c, sense))
			fail := func(format string, args ...any) {
				t.Helper()
				t.Errorf("instance %d (A=%v b=%v c=%v sense=%v): "+format,
					append([]any{k, a, b, c, sense}, args...)...)
			}
			switch {
			case errors.Is(perr, ErrNumeric) || errors.Is(derr, ErrNumeric):
				fail("numerical failure: primal %v, dual %v", perr, derr)
			case perr == nil:
				counts["optimal"]++
				if derr != nil {
					fail("primal optimal %v, dual: %v", psol.Objective, derr)
					continue
				}
				scale := 1 + math.Abs(psol.Objective)
				if math.Abs(psol.Objective-dsol.Objective) > dualityTol*scale {
					fail("primal %v ≠ dual %v", psol.Objective, dsol.Objective)
				}
				if v := pm.Violation(psol.X); v > dualityTol {
					fail("primal point violates by %g", v)
				}
				if psol.Dual != nil {
					checkRowDuals(t, fail, a, b, c, sense, psol)
				}
			case errors.Is(perr, ErrUnbounded):
				counts["unbounded"]++
				if !errors.Is(derr, ErrInfeasible) {
					fail("primal unbounded, dual: %v", derr)
				}
			case errors.Is(perr, ErrInfeasible):
				counts["infeasible"]++
				if !errors.Is(derr, ErrInfeasible) && !errors.Is(derr, ErrUnbounded) {
					fail("primal infeasible, dual: %v %v", dsol, derr)
				}
			default:
				fail("unexpected error %v", perr)
			}
		}
		// Each outcome must be exercised for the test to mean something.
		for _, k := range []string{"optimal", "unbounded", "infeasible"} {
			if counts[k] < instances/20 {
				t.Errorf("only %d %s instances of %d", counts[k], k, instances)
			}
		}
		t.Logf("outcomes: %v", counts)
	})
}

func checkRowDuals(t *testing.T, fail func(string, ...any), a [][]float64, b, c []float64, sense []Sense, sol *Solution) {
	t.Helper()
	y := sol.Dual
	var by float64
	for i, v := range y {
		by += b[i] * v
		if (sense[i] == LE && v < -dualityTol) || (sense[i] == GE && v > dualityTol) {
			fail("row dual %d = %v has the wrong sign for %v", i, v, sense[i])
		}
	}
	if math.Abs(by-sol.Objective) > dualityTol*(1+math.Abs(by)) {
		fail("bᵀy = %v ≠ objective %v (y = %v)", by, sol.Objective, y)
	}
	for j := range c {
		var aty float64
		for i := range a {
			aty += a[i][j] * y[i]
		}
		if aty < c[j]-dualityTol*(1+math.Abs(c[j])) {
			fail("column %d: (Aᵀy)_j = %v < c_j = %v", j, aty, c[j])
		}
	}
}

// TestWarmResolve solves a random LP, then changes its right-hand sides,
// objective and a bound in place and solves it again with the same solver
// (a backend may warm-start from its previous basis), and requires the same
// outcome and optimum as a fresh solver on a fresh copy of the changed LP.
func TestWarmResolve(t *testing.T) {
	const instances = 1000
	for _, name := range Backends() {
		t.Run(name, func(t *testing.T) {
			s, _ := NewSolver(name)
			rng := rand.New(rand.NewPCG(3, 4)) // fixed seed: reproducible instances
			for k := range instances {
				a, b, c, sense := randomLP(rng)
				m := primalModel(a, b, c, sense)
				if _, err := s.Solve(m); errors.Is(err, ErrNumeric) {
					t.Fatalf("instance %d: %v", k, err)
				}
				// New data drawn like randomLP's; x_0 gets an upper bound.
				b2 := make([]float64, len(b))
				for i := range b2 {
					b2[i] = float64(rng.IntN(24) - 3)
					m.SetRHS(Row(i), b2[i])
				}
				var obj []Term
				for j := range c {
					obj = append(obj, Term{Var(j), float64(rng.IntN(13) - 3)})
				}
				maximize := rng.IntN(2) == 0
				m.SetObjective(obj, maximize)
				hi := float64(rng.IntN(10))
				m.SetBounds(0, 0, hi)

				fresh := primalModel(a, b2, c, sense)
				fresh.SetObjective(obj, maximize)
				fresh.SetBounds(0, 0, hi)
				f, _ := NewSolver(name)
				want, werr := f.Solve(fresh)
				got, gerr := s.Solve(m)
				switch {
				case errors.Is(werr, ErrNumeric) || errors.Is(gerr, ErrNumeric):
					t.Errorf("instance %d: numerical failure: %v, %v", k, werr, gerr)
				case (werr == nil) != (gerr == nil) || (werr != nil && want.Status != got.Status):
					t.Errorf("instance %d: warm %v %v, fresh %v %v", k, got, gerr, want, werr)
				case werr == nil && math.Abs(want.Objective-got.Objective) > dualityTol*(1+math.Abs(want.Objective)):
					t.Errorf("instance %d: warm optimum %v, fresh %v", k, got.Objective, want.Objective)
				}
			}
		})
	}
}
