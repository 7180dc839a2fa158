package lp

import (
	"errors"
	"math"
	"testing"
)

// testTol is the absolute tolerance for comparing hand-computed optima of
// the small, integer-data LPs below.
const testTol = 1e-9

var inf = math.Inf(1)

// eachBackend runs f once per compiled backend, with a fresh solver.
func eachBackend(t *testing.T, f func(t *testing.T, s Solver)) {
	t.Helper()
	for _, name := range Backends() {
		t.Run(name, func(t *testing.T) {
			s, err := NewSolver(name)
			if err != nil {
				t.Fatal(err)
			}
			f(t, s)
		})
	}
}

// handLP is an LP with a hand-computed answer.
type handLP struct {
	name  string
	build func() *Model
	want  error     // nil, ErrInfeasible or ErrUnbounded
	obj   float64   // optimal objective
	x     []float64 // the unique optimum, if unique
	dual  []float64 // the unique row duals, if unique
}

var handLPs = []handLP{
	{
		// max 3x+2y: x+y ≤ 4, x+3y ≤ 7, 0 ≤ x ≤ 3, y ≥ 0.
		// Vertex x=3 (at its bound), y=1 (from row 0): 9+2 = 11.
		// ∂/∂rhs0: y grows one for one, +2; row 1 is slack (3+3 < 7), 0.
		name: "max with bound",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, 3), m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, LE, 4)
			m.AddConstraint([]Term{{x, 1}, {y, 3}}, LE, 7)
			m.SetObjective([]Term{{x, 3}, {y, 2}}, true)
			return &m
		},
		obj: 11, x: []float64{3, 1}, dual: []float64{2, 0},
	},
	{
		// min 2x+3y: x+y ≥ 10, x ≤ 6; x, y ≥ 0. The cheaper x goes to its
		// row limit 6, y = 4: 12+12 = 24. ∂/∂rhs0 = +3 (one more y);
		// ∂/∂rhs1 = 2−3 = −1 (one x replaces one y).
		name: "min with ge",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, GE, 10)
			m.AddConstraint([]Term{{x, 1}}, LE, 6)
			m.SetObjective([]Term{{x, 2}, {y, 3}}, false)
			return &m
		},
		obj: 24, x: []float64{6, 4}, dual: []float64{3, -1},
	},
	{
		// min x+2y: x+y = b0 = 1, x−y ≤ b1 = 3, x and y free.
		// y = b0−x, so x ≤ (b1+b0)/2 = 2 and the objective 2b0−x is
		// least at x = 2, y = −1: 0. ∂/∂b0 = 2−1/2 = 1.5, ∂/∂b1 = −1/2.
		name: "free variables and eq",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(-inf, inf), m.AddVar(-inf, inf)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, EQ, 1)
			m.AddConstraint([]Term{{x, 1}, {y, -1}}, LE, 3)
			m.SetObjective([]Term{{x, 1}, {y, 2}}, false)
			return &m
		},
		obj: 0, x: []float64{2, -1}, dual: []float64{1.5, -0.5},
	},
	{
		// max x: x ≤ 7 (upper bound only), z fixed at 1, x+z ≤ 10.
		// The bound binds (7 < 9), the row does not: dual 0.
		name: "upper bound only and fixed",
		build: func() *Model {
			var m Model
			x, z := m.AddVar(-inf, 7), m.AddVar(1, 1)
			m.AddConstraint([]Term{{x, 1}, {z, 1}}, LE, 10)
			m.SetObjective([]Term{{x, 1}}, true)
			return &m
		},
		obj: 7, x: []float64{7, 1}, dual: []float64{0},
	},
	{
		// min x+y−z: x+y = 2 stated three times (rows 0, 1 and 3), x−y = 0,
		// z ∈ [−1, 4] only in an inactive row: x = y = 1, z = 4: 2−4 = −2.
		// The duplicated rows make the duals non-unique.
		name: "dependent rows",
		build: func() *Model {
			var m Model
			x, y, z := m.AddVar(0, inf), m.AddVar(0, inf), m.AddVar(-1, 4)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, EQ, 2)
			m.AddConstraint([]Term{{x, 2}, {y, 2}}, EQ, 4)
			m.AddConstraint([]Term{{x, 1}, {y, -1}}, EQ, 0)
			m.AddConstraint([]Term{{x, -1}, {y, -1}}, GE, -2)
			m.AddConstraint([]Term{{z, 1}}, LE, inf)
			m.SetObjective([]Term{{x, 1}, {y, 1}, {z, -1}}, false)
			return &m
		},
		obj: -2, x: []float64{1, 1, 4},
	},
	{
		// Repeated terms are summed: (x + x) ≤ 3 is 2x ≤ 3; max x = 1.5.
		name: "merged terms",
		build: func() *Model {
			var m Model
			x := m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {x, 1}}, LE, 3)
			m.SetObjective([]Term{{x, 1}}, true)
			return &m
		},
		obj: 1.5, x: []float64{1.5}, dual: []float64{0.5},
	},
	{
		name:  "empty",
		build: func() *Model { return &Model{} },
		obj:   0, x: []float64{},
	},
	{
		// x+y ≤ 1 and x+y ≥ 2 contradict.
		name: "infeasible rows",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, LE, 1)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, GE, 2)
			return &m
		},
		want: ErrInfeasible,
	},
	{
		// x+y = 1 and 2x+2y = 3 are parallel and inconsistent.
		name: "inconsistent equalities",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {y, 1}}, EQ, 1)
			m.AddConstraint([]Term{{x, 2}, {y, 2}}, EQ, 3)
			m.SetObjective([]Term{{x, 1}}, false)
			return &m
		},
		want: ErrInfeasible,
	},
	{
		name: "crossed bounds",
		build: func() *Model {
			var m Model
			m.AddVar(2, 1)
			return &m
		},
		want: ErrInfeasible,
	},
	{
		// z is fixed at 0, so the only row reads 0 ≤ −1.
		name: "infeasible fixed",
		build: func() *Model {
			var m Model
			z := m.AddVar(0, 0)
			m.AddConstraint([]Term{{z, 1}}, LE, -1)
			return &m
		},
		want: ErrInfeasible,
	},
	{
		// max x+y with only x−y ≤ 1: the ray (1, 1) is unbounded.
		name: "unbounded ray",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{x, 1}, {y, -1}}, LE, 1)
			m.SetObjective([]Term{{x, 1}, {y, 1}}, true)
			return &m
		},
		want: ErrUnbounded,
	},
	{
		// min x with x free and in no row.
		name: "unbounded free column",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(-inf, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{y, 1}}, LE, 1)
			m.SetObjective([]Term{{x, 1}}, false)
			return &m
		},
		want: ErrUnbounded,
	},
	{
		// Infeasible and with an unbounded direction: infeasibility wins.
		name: "infeasible with ray",
		build: func() *Model {
			var m Model
			x, y := m.AddVar(0, inf), m.AddVar(0, inf)
			m.AddConstraint([]Term{{y, 1}}, GE, 2)
			m.AddConstraint([]Term{{y, 1}}, LE, 1)
			m.SetObjective([]Term{{x, 1}}, true)
			return &m
		},
		want: ErrInfeasible,
	},
}

func TestHandLPs(t *testing.T) {
	eachBackend(t, func(t *testing.T, s Solver) {
		for _, tc := range handLPs {
			t.Run(tc.name, func(t *testing.T) {
				checkHand(t, s, tc.build(), tc)
			})
		}
	})
}

func checkHand(t *testing.T, s Solver, m *Model, tc handLP) {
	t.Helper()
	sol, err := s.Solve(m)
	if tc.want != nil {
		if !errors.Is(err, tc.want) {
			t.Fatalf("err = %v, want %v", err, tc.want)
		}
		wantStatus := map[error]Status{ErrInfeasible: Infeasible, ErrUnbounded: Unbounded}[tc.want]
		if sol == nil || sol.Status != wantStatus {
			t.Fatalf("solution %+v, want status %v", sol, wantStatus)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != Optimal {
		t.Fatalf("status %v", sol.Status)
	}
	if math.Abs(sol.Objective-tc.obj) > testTol {
		t.Errorf("objective %v, want %v", sol.Objective, tc.obj)
	}
	if v := m.Violation(sol.X); v > testTol {
		t.Errorf("x = %v violates the model by %g", sol.X, v)
	}
	for j, want := range tc.x {
		if math.Abs(sol.X[j]-want) > testTol {
			t.Errorf("x = %v, want %v", sol.X, tc.x)
			break
		}
	}
	if sol.Dual == nil || tc.dual == nil {
		return
	}
	for i, want := range tc.dual {
		if math.Abs(sol.Dual[i]-want) > testTol {
			t.Errorf("dual = %v, want %v", sol.Dual, tc.dual)
			break
		}
	}
}

// TestResolve changes right-hand sides, bounds and the objective between
// solves (a backend may warm-start) and compares with a fresh model.
func TestResolve(t *testing.T) {
	build := func() (*Model, Var, Var, Row, Row) {
		var m Model
		x, y := m.AddVar(0, 3), m.AddVar(0, inf)
		r0 := m.AddConstraint([]Term{{x, 1}, {y, 1}}, LE, 4)
		r1 := m.AddConstraint([]Term{{x, 1}, {y, 3}}, LE, 6)
		m.SetObjective([]Term{{x, 3}, {y, 2}}, true)
		return &m, x, y, r0, r1
	}
	type step struct {
		name   string
		change func(m *Model, x, y Var, r0, r1 Row)
		// Hand solutions of the changed model.
		obj float64
		x   []float64
	}
	steps := []step{
		// The base model: x=3, y=1, 11.
		{"base", func(*Model, Var, Var, Row, Row) {}, 11, []float64{3, 1}},
		// rhs0 = 5: x=3, y=min(2, (6−3)/3=1) = 1: 11 (row 1 now binds).
		{"rhs", func(m *Model, _, _ Var, r0, _ Row) { m.SetRHS(r0, 5) }, 11, []float64{3, 1}},
		// x ≤ 1 as well: y = min(5−1, 5/3) = 5/3: 3+10/3.
		{"bounds", func(m *Model, x, _ Var, _, _ Row) { m.SetBounds(x, 0, 1) }, 3 + 10.0/3, []float64{1, 5.0 / 3}},
		// min x − y: x = 0, y = 2 (row 1): −2.
		{"objective", func(m *Model, x, y Var, _, _ Row) { m.SetObjective([]Term{{x, 1}, {y, -1}}, false) }, -2, []float64{0, 2}},
		// Row 1 switched off: y = 5 (row 0): −5.
		{"inactive row", func(m *Model, _, _ Var, _, r1 Row) { m.SetRHS(r1, inf) }, -5, []float64{0, 5}},
		// x ≥ 2 but x ≤ 1 meanwhile: infeasible; then x ∈ [0.5, 1] again.
		{"infeasible", func(m *Model, x, _ Var, _, _ Row) { m.SetBounds(x, 2, 1) }, math.NaN(), nil},
		{"recover", func(m *Model, x, _ Var, _, _ Row) { m.SetBounds(x, 0.5, 1) }, 0.5 - 4.5, []float64{0.5, 4.5}},
	}
	eachBackend(t, func(t *testing.T, s Solver) {
		m, x, y, r0, r1 := build()
		for _, st := range steps {
			st.change(m, x, y, r0, r1)
			sol, err := s.Solve(m)
			if math.IsNaN(st.obj) {
				if !errors.Is(err, ErrInfeasible) {
					t.Fatalf("%s: err = %v, want infeasible", st.name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			if math.Abs(sol.Objective-st.obj) > testTol ||
				math.Abs(sol.X[0]-st.x[0]) > testTol || math.Abs(sol.X[1]-st.x[1]) > testTol {
				t.Errorf("%s: got %v at %v, want %v at %v", st.name, sol.Objective, sol.X, st.obj, st.x)
			}
		}
	})
}

func TestModelPanics(t *testing.T) {
	cases := []struct {
		name string
		f    func(m *Model)
	}{
		{"nan bound", func(m *Model) { m.AddVar(math.NaN(), 1) }},
		{"lower +inf", func(m *Model) { m.AddVar(inf, inf) }},
		{"unknown var", func(m *Model) { m.AddConstraint([]Term{{Var(3), 1}}, LE, 1) }},
		{"bad sense", func(m *Model) { m.AddConstraint(nil, Sense(0), 1) }},
		{"nan coef", func(m *Model) { v := m.AddVar(0, 1); m.AddConstraint([]Term{{v, math.NaN()}}, LE, 1) }},
		{"eq inf", func(m *Model) { m.AddConstraint(nil, EQ, inf) }},
		{"le -inf", func(m *Model) { m.AddConstraint(nil, LE, -inf) }},
		{"unknown row", func(m *Model) { m.SetRHS(Row(0), 1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.f(&Model{})
		})
	}
}

func TestNewSolver(t *testing.T) {
	if _, err := NewSolver("cplex"); err == nil {
		t.Error("unknown backend accepted")
	}
	_, err := NewSolver(BackendCLP)
	if clpBuilt != (err == nil) {
		t.Errorf("NewSolver(clp) err = %v with clpBuilt = %v", err, clpBuilt)
	}
	if got := Backends()[0]; (got == BackendCLP) != clpBuilt {
		t.Errorf("default backend %q with clpBuilt = %v", got, clpBuilt)
	}
	if Default() == nil {
		t.Error("Default() = nil")
	}
}
