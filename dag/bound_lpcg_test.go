package dag

import (
	"math"
	"testing"

	"github.com/capplan/capplan/lp"
)

// TestLPTestMatchesFullLP: the LP test by column generation (refutesCG,
// with its smoothed pricing and lp.Revised) decides as the LP of
// Brucker & Knust written out whole decides. On random tiny problems and
// horizons, after propagation, the Farkas LP
//
//	max Σ p_i y_i − Σ_k ℓ_k z_k  s.t.  Σ_{i∈A} y_i ≤ z_k  (every feasible
//	set A of every interval k),  0 ≤ y ≤ 1,  z ≥ 0
//
// is solved (through its dual, fullFarkasLP) by the lp package's default
// backend with every feasible set enumerated (an independent path: no
// pricing, no column generation); a positive optimum means the windows
// are infeasible. Cases within the
// certificate tolerance of zero are skipped.
func TestLPTestMatchesFullLP(t *testing.T) {
	rng := newTestRand(71)
	refuted, agreed := 0, 0
	for trial := 0; trial < 2000; trial++ {
		in := randomTiny(t, rng, 8)
		p := newProblem(in.d, in.machines)
		lo := max(CPLength(in.d), EnergyLB(in.d, in.machines))
		T := lo + int64(rng.IntN(3))
		pr := newPropagator(p, true)
		st := newWindows(p.n, pr.w, T)
		if pr.refutes(st) {
			continue // propagation alone decides
		}
		lb := newLPBound(p)
		lb.cg = true
		value, total := fullFarkasLP(t, lb, st)
		tol := lpCertificateTol * max(1, total)
		if value > tol/10 && value <= 10*tol {
			continue // too near the certificate threshold to call
		}
		want := value > tol
		got := lb.refutesCG(st, &budget{max: 10_000_000})
		if got != want {
			t.Fatalf("trial %d (%d tasks, T %d): column generation refutes %v, the full LP's Farkas value is %g", trial, p.n, T, got, value)
		}
		agreed++
		if got {
			refuted++
		}
	}
	t.Logf("%d horizons decided alike, %d of them refuted", agreed, refuted)
	if agreed < 100 || refuted < 10 || agreed-refuted < 10 {
		t.Fatalf("too few cases exercised: %d decided, %d refuted", agreed, refuted)
	}
}

// fullFarkasLP returns the optimum of the Farkas LP of lpBound.refutes
// over every feasible set of every interval of s, and Σ p_i. It solves the
// LP's dual, the phase-1 LP of refutesCG with every set a column:
//
//	min Σ_i a_i  s.t.  Σ_k Σ_{A∋i} x_{A,k} + a_i ≥ p_i,  Σ_A x_{A,k} ≤ ℓ_k,
//	x, a ≥ 0,
//
// whose optimum equals it (LP duality); it has few rows, which suits the
// dense simplex of the default backend.
func fullFarkasLP(t *testing.T, lb *lpBound, s *windows) (value, total float64) {
	t.Helper()
	p := lb.p
	ivs := lb.intervals(s)
	var m lp.Model
	cover := make([][]lp.Term, p.n) // the terms of task i's row
	var obj []lp.Term
	for i := 0; i < p.n; i++ {
		a := m.AddVar(0, math.Inf(1))
		cover[i] = []lp.Term{{Var: a, Coef: 1}}
		obj = append(obj, lp.Term{Var: a, Coef: 1})
		total += float64(p.dur[i])
	}
	for _, iv := range ivs {
		var room []lp.Term
		forFeasibleSets(lb, s, &iv, func(set []int) {
			x := m.AddVar(0, math.Inf(1))
			room = append(room, lp.Term{Var: x, Coef: 1})
			for _, i := range set {
				cover[i] = append(cover[i], lp.Term{Var: x, Coef: 1})
			}
		})
		if len(room) == 0 {
			return math.Inf(1), total // no set runs the required tasks: infeasible
		}
		m.AddConstraint(room, lp.LE, float64(iv.length))
	}
	for i := 0; i < p.n; i++ {
		m.AddConstraint(cover[i], lp.GE, float64(p.dur[i]))
	}
	m.SetObjective(obj, false)
	sol, err := lp.Default().Solve(&m)
	if err != nil || sol.Status != lp.Optimal {
		t.Fatalf("full LP: %v (%v)", err, sol)
	}
	return sol.Objective, total
}
