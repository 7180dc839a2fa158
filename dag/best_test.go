package dag

import (
	"testing"
)

// TestBestHandBuilt: Best reaches the optimum of the hand-built DAGs and
// says so.
func TestBestHandBuilt(t *testing.T) {
	for _, in := range handBuilt(t) {
		r, err := Best(in.d, in.machines, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "best", in, r.Schedule)
		if r.Makespan != in.opt || !r.Optimal || r.Gap != 0 {
			t.Errorf("%s: best %d (%s), opt %d, gap %v", in.name, r.Makespan, r.Method, in.opt, r.Gap)
		}
	}
}

// TestBestTiny: Best on random tiny instances is feasible, never below the
// brute-force optimum, and deterministic given the seed.
func TestBestTiny(t *testing.T) {
	rng := newTestRand(13)
	opt := 0
	for trial := 0; trial < 100; trial++ {
		in := randomTiny(t, rng, 7)
		want := bruteOpt(in.d, in.machines)
		r, err := Best(in.d, in.machines, Options{Seed: 5, Iterations: 200})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "best", in, r.Schedule)
		if r.Makespan < want || r.Bounds.Best > want {
			t.Fatalf("trial %d: best %d, bound %d, optimum %d", trial, r.Makespan, r.Bounds.Best, want)
		}
		if r.Makespan == want {
			opt++
		}
		again, _ := Best(in.d, in.machines, Options{Seed: 5, Iterations: 200})
		if again.Makespan != r.Makespan || again.Method != r.Method {
			t.Fatalf("trial %d: not deterministic: %d (%s) then %d (%s)", trial, r.Makespan, r.Method, again.Makespan, again.Method)
		}
	}
	if opt < 95 {
		t.Errorf("Best optimal on %d/100 tiny instances", opt)
	}
}
