package lp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestRevisedHand(t *testing.T) {
	// min −x₁ − 2x₂ s.t. x₁ + x₂ + s = 4 (s the unit column, cost 0): the
	// optimum puts everything on x₂, −2·4 = −8, and the row's dual is
	// y = c_B B⁻¹ = −2 (x₂ basic, B = [1]).
	r := NewRevised([]float64{4}, []float64{0})
	x1 := r.AddColumn([]int{0}, []float64{1}, -1)
	x2 := r.AddColumn([]int{0}, []float64{1}, -2)
	if st := r.Solve(1e6); st != RevisedOptimal {
		t.Fatalf("status %v, want optimal", st)
	}
	if got := r.Objective(); math.Abs(got+8) > 1e-12 || r.X(x2) != 4 || r.X(x1) != 0 {
		t.Errorf("objective %v at x₁ = %v, x₂ = %v; want −8 at (0, 4)", got, r.X(x1), r.X(x2))
	}
	if y := r.Duals(); math.Abs(y[0]+2) > 1e-12 {
		t.Errorf("dual %v, want −2", y[0])
	}
	// Unbounded: min −x s.t. x − z + s = 0: x = z grows without limit.
	u := NewRevised([]float64{0}, []float64{0})
	u.AddColumn([]int{0}, []float64{1}, -1)
	u.AddColumn([]int{0}, []float64{-1}, 0)
	if st := u.Solve(1e6); st != RevisedUnbounded {
		t.Errorf("unbounded LP: status %v", st)
	}
	// A work cap of zero stops at once, at the (feasible) start.
	c := NewRevised([]float64{1}, []float64{0})
	c.AddColumn([]int{0}, []float64{1}, -1)
	if st := c.Solve(-1); st != RevisedCapped || c.Objective() != 0 {
		t.Errorf("capped: status %v, objective %v", st, c.Objective())
	}
}

// TestRevisedAgainstGonum solves random LPs min cᵀx, [A | I]·(x, s) = b,
// with Revised (columns added in two batches, the second solve warm) and
// with gonum's simplex on the same standard form: the optima agree, and
// so does unboundedness; at Revised's optimum the duals price every column
// non-negative (optimality certificate) and x is feasible.
func TestRevisedAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	agreed, unbounded := 0, 0
	for trial := 0; trial < 300; trial++ {
		m, n := 1+rng.IntN(8), 1+rng.IntN(12)
		b := make([]float64, m)
		unit := make([]float64, m)
		for i := range b {
			b[i] = float64(rng.IntN(10))
			unit[i] = float64(rng.IntN(3)) // unit-column costs 0, 1 or 2
		}
		a := make([][]float64, n) // columns
		cost := make([]float64, n)
		for j := range a {
			a[j] = make([]float64, m)
			for i := range a[j] {
				if rng.IntN(3) > 0 {
					a[j][i] = float64(rng.IntN(7) - 2)
				}
			}
			cost[j] = float64(rng.IntN(9) - 5)
		}
		r := NewRevised(b, unit)
		add := func(j int) {
			var idx []int
			var val []float64
			for i, v := range a[j] {
				if v != 0 {
					idx, val = append(idx, i), append(val, v)
				}
			}
			r.AddColumn(idx, val, cost[j])
		}
		for j := 0; j < n/2; j++ {
			add(j)
		}
		st := r.Solve(1e9)
		for j := n / 2; j < n; j++ {
			add(j)
		}
		if st != RevisedUnbounded {
			st = r.Solve(1e9)
		}
		// gonum on [A | I] with costs (cost, unit), from the unit basis.
		dense := mat.NewDense(m, n+m, nil)
		c := append(append([]float64(nil), cost...), unit...)
		basis := make([]int, m)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				dense.Set(i, j, a[j][i])
			}
			dense.Set(i, n+i, 1)
			basis[i] = n + i
		}
		opt, _, err := SafeSimplex(c, dense, b, 1e-10, basis)
		switch {
		case errors.Is(err, ErrUnbounded):
			unbounded++
			if st != RevisedUnbounded {
				t.Errorf("trial %d: gonum unbounded, Revised %v (objective %v)", trial, st, r.Objective())
			}
			continue
		case err != nil:
			continue // gonum's numerical trouble: no reference
		}
		if st != RevisedOptimal {
			t.Errorf("trial %d: Revised %v, gonum optimum %v", trial, st, opt)
			continue
		}
		if math.Abs(r.Objective()-opt) > 1e-7*max(1, math.Abs(opt)) {
			t.Errorf("trial %d: Revised %v, gonum %v", trial, r.Objective(), opt)
		}
		// Feasibility of x and the dual certificate.
		y := r.Duals()
		for i := 0; i < m; i++ {
			lhs := r.X(i) // unit column i
			for j := 0; j < n; j++ {
				lhs += a[j][i] * r.X(m+j)
			}
			if math.Abs(lhs-b[i]) > 1e-7 {
				t.Errorf("trial %d: row %d: %v ≠ %v", trial, i, lhs, b[i])
			}
			if unit[i]-y[i] < -1e-7 {
				t.Errorf("trial %d: unit column %d prices out: %v", trial, i, unit[i]-y[i])
			}
		}
		for j := 0; j < n; j++ {
			rc := cost[j]
			for i := 0; i < m; i++ {
				rc -= y[i] * a[j][i]
			}
			if rc < -1e-7 {
				t.Errorf("trial %d: column %d prices out at the optimum: %v", trial, j, rc)
			}
		}
		agreed++
	}
	if agreed < 100 || unbounded < 10 {
		t.Errorf("only %d optima and %d unbounded LPs compared: the generator is off", agreed, unbounded)
	}
	t.Logf("%d optima agree, %d unbounded", agreed, unbounded)
}
