package lp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/flow"
)

// TestCMMFAgreesWithFlow is the acceptance check between the two methods:
// on every instance, the iterative LP (each compiled backend) reproduces
// the exact flow solver's amounts and levels to 1e-9 relative, and its
// saturation rounds equal the flow solver's wherever the user grew.
func TestCMMFAgreesWithFlow(t *testing.T) {
	const tol = 1e-9
	rng := rand.New(rand.NewPCG(11, 12))
	for _, backend := range Backends() {
		t.Run(backend, func(t *testing.T) {
			n := 150
			if backend == BackendSimplex {
				n = 60 // the dense simplex is slow
			}
			for i := 0; i < n; i++ {
				users, types := 2+rng.IntN(8), 1+rng.IntN(5)
				p := randomProblem(rng, users, types, 9)
				for u := range p.Users {
					p.Users[u].Weight = 1 + rng.Int64N(5)
				}
				exact, err := flow.Divisible(p)
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewSolver(backend)
				if err != nil {
					t.Fatal(err)
				}
				got, err := CMMF(p, s)
				if err != nil {
					t.Fatalf("instance %d: %v", i, err)
				}
				for u := range p.Users {
					want := exact.Amount[u].Float64()
					if d := math.Abs(got.Amount[u]-want) / math.Max(1, want); d > tol {
						t.Fatalf("instance %d %+v: user %d lp %v, flow %s (rel. diff %.1e)", i, *p, u, got.Amount[u], exact.Amount[u], d)
					}
					wl := exact.Level[u].Float64()
					if d := math.Abs(got.Level[u]-wl) / math.Max(1, wl); d > tol {
						t.Fatalf("instance %d: user %d level lp %v, flow %s", i, u, got.Level[u], exact.Level[u])
					}
					if exact.Round[u] > 0 && got.Round[u] != exact.Round[u] {
						t.Fatalf("instance %d %+v: user %d round lp %d, flow %d", i, *p, u, got.Round[u], exact.Round[u])
					}
				}
			}
		})
	}
}
