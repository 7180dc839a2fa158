//go:build clp

package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestCLPIsDefault(t *testing.T) {
	if got := Backends()[0]; got != BackendCLP {
		t.Errorf("Backends()[0] = %q, want %q", got, BackendCLP)
	}
	if _, ok := Default().(*CLP); !ok {
		t.Errorf("Default() is %T, want *CLP", Default())
	}
}

// TestCLPHandLPs runs the hand-solved LPs on CLP, which must report duals
// (checkHand compares them wherever they are unique).
func TestCLPHandLPs(t *testing.T) {
	s := NewCLP()
	for _, tc := range handLPs {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.build()
			checkHand(t, s, m, tc)
			if tc.want != nil {
				return
			}
			if sol, err := s.Solve(m); err != nil || len(sol.Dual) != m.NumRows() {
				t.Errorf("duals %v (err %v), want %d", sol, err, m.NumRows())
			}
		})
	}
}

// TestCLPConcurrent shares one CLP between goroutines solving different
// models: calls are serialised and each must get its own model's optimum
// (warm starts must not leak between structures). Run with -race.
func TestCLPConcurrent(t *testing.T) {
	s := NewCLP()
	defer s.Close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				// max x+y: x+y ≤ r, x ≤ 1: optimum r, for r = g+k+1.
				var m Model
				x, y := m.AddVar(0, 1), m.AddVar(0, inf)
				m.AddConstraint([]Term{{x, 1}, {y, 1}}, LE, float64(g+k+1))
				m.SetObjective([]Term{{x, 1}, {y, 1}}, true)
				sol, err := s.Solve(&m)
				if err != nil || math.Abs(sol.Objective-float64(g+k+1)) > testTol {
					t.Errorf("goroutine %d, model %d: %v %v", g, k, sol, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestCLPClose: a closed CLP releases its model and still solves.
func TestCLPClose(t *testing.T) {
	s := NewCLP()
	tc := handLPs[0]
	m := tc.build()
	checkHand(t, s, m, tc)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkHand(t, s, m, tc)
}

// TestCLPCMMFPaperMedium compares CMMF with the paper's literal algorithm
// on instances too large for the exact oracle and for the dense simplex.
func TestCLPCMMFPaperMedium(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5)) // fixed seed: reproducible instances
	for i := range 40 {
		// 10–69 users on 2–16 types of up to 300 machines.
		p := randomProblem(rng, 10+rng.IntN(60), 2+rng.IntN(15), 1+rng.Int64N(300))
		got, err := CMMF(p, NewCLP())
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		want, err := CMMFPaper(p, NewCLP())
		if err != nil {
			t.Fatalf("instance %d paper: %v", i, err)
		}
		if diff := diffFloats(want.Level, got.Level, cmmfTol); diff != "" {
			t.Errorf("instance %d: levels (-paper +CMMF):\n%s", i, diff)
		}
		if fmt.Sprint(want.Round) != fmt.Sprint(got.Round) {
			t.Errorf("instance %d: rounds %v, paper %v", i, got.Round, want.Round)
		}
		if got.LPs > want.LPs {
			t.Errorf("instance %d: CMMF solved %d LPs, the paper's algorithm %d", i, got.LPs, want.LPs)
		}
		checkAlloc(t, p, got)
	}
}
