package lp

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestSafeSimplex(t *testing.T) {
	// min −x₁ − 2x₂ s.t. x₁ + x₂ + s = 4, x ≥ 0, from the slack basis {s}:
	// the optimum puts everything on x₂, −2·4 = −8.
	a := mat.NewDense(1, 3, []float64{1, 1, 1})
	opt, x, err := SafeSimplex([]float64{-1, -2, 0}, a, []float64{4}, 1e-10, []int{2})
	if err != nil || math.Abs(opt+8) > 1e-12 || math.Abs(x[1]-4) > 1e-12 {
		t.Errorf("opt %v at %v, err %v; want −8 at x₂ = 4", opt, x, err)
	}
	// Unbounded: min −x₁ s.t. x₁ − x₂ = 0 from the basis {x₁}: x₁ = x₂ grows
	// without limit.
	u := mat.NewDense(1, 2, []float64{1, -1})
	if _, _, err := SafeSimplex([]float64{-1, 0}, u, []float64{0}, 1e-10, []int{0}); !errors.Is(err, ErrUnbounded) {
		t.Errorf("unbounded LP: err %v, want ErrUnbounded", err)
	}
	// gonum panics when c does not match a's columns; SafeSimplex returns
	// ErrNumeric and no point instead.
	opt, x, err = SafeSimplex([]float64{-1, -2}, a, []float64{4}, 1e-10, []int{2})
	if !errors.Is(err, ErrNumeric) || x != nil || opt != 0 {
		t.Errorf("bad shape: opt %v, x %v, err %v; want ErrNumeric and no point", opt, x, err)
	}
}

// TestSimplexTooLarge: a model beyond MaxSimplexCells is refused at once
// with a *TooLargeError, and one within it is solved. On main, a
// CMMF model of 500 users × 50 types ran for minutes with no budget.
func TestSimplexTooLarge(t *testing.T) {
	// max Σ x_j subject to Σ_j x_j ≤ 1 per row i, over m rows and n
	// columns (every column in every row): m·(n + m slacks) cells.
	build := func(m, n int) *Model {
		md := &Model{}
		terms := make([]Term, n)
		for j := range terms {
			terms[j] = Term{Var: md.AddVar(0, 1), Coef: 1}
		}
		md.SetObjective(terms, true)
		for i := 0; i < m; i++ {
			md.AddConstraint(terms, LE, float64(1+i))
		}
		return md
	}
	var big *TooLargeError
	if _, err := (Simplex{}).Solve(build(600, 600)); !errors.As(err, &big) {
		t.Fatalf("600 × 600 model: err %v, want a *TooLargeError", err)
	}
	// Refused before the dense standard form is allocated: 2,000
	// constraint rows and 2,000 upper-bound rows over 2,000 variables and
	// 4,000 slacks, 4,000 × 6,000 cells, would be 192 MB of rows.
	md := build(2000, 2000)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	_, err := (Simplex{}).Solve(md)
	runtime.ReadMemStats(&ms1)
	if !errors.As(err, &big) || big.Rows != 4000 || big.Cols != 6000 {
		t.Fatalf("2000 × 2000 model: err %v, want a *TooLargeError of 4000 × 6000", err)
	}
	if got := ms1.TotalAlloc - ms0.TotalAlloc; got > 8<<20 {
		t.Errorf("refusing the 2000 × 2000 model allocated %d bytes, want the count first (< 8 MiB)", got)
	}
	sol, err := (Simplex{}).Solve(build(3, 4))
	if err != nil || sol.Status != Optimal {
		t.Fatalf("3 × 4 model: %v, %v", sol, err)
	}
}
