package vbp

import (
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/binpack/internal/work"
)

// TestSearchKeepsPackingsValid runs the tabu search from first-fit packings
// of random instances (some with negative sizes, as in the Triplet set):
// the result must pass Check and never use more bins than its start.
func TestSearchKeepsPackingsValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := 0; c < 60; c++ {
		inst := randomInstance(rng, 20+rng.IntN(60), 1+rng.IntN(4), 100)
		if c%3 == 0 {
			for _, it := range inst.Items {
				if rng.IntN(4) == 0 {
					it.Size[rng.IntN(len(it.Size))] = -rng.Int64N(30)
				}
			}
		}
		p, err := newProblem(inst)
		if err != nil {
			t.Fatal(err)
		}
		start := p.ffd(keySum)
		w := work.New(200000, 0)
		got := p.search(start, 1, rand.New(rand.NewPCG(uint64(c), 1)), w, 200000)
		if err := Check(inst, got); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if len(got) > len(start) {
			t.Fatalf("case %d: search gave %d bins from %d", c, len(got), len(start))
		}
	}
}

// TestPackIntoAgainstBruteForce checks the exact attempt on small random
// instances: with the optimum's bin count it finds a valid packing, with
// one bin fewer it proves that none exists.
func TestPackIntoAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for c := 0; c < 200; c++ {
		inst := randomInstance(rng, 1+rng.IntN(8), 1+rng.IntN(3), 20)
		opt := bruteForce(inst)
		p, err := newProblem(inst)
		if err != nil {
			t.Fatal(err)
		}
		pk, r, _ := p.packInto(opt, 1<<20)
		if r != exactFound {
			t.Fatalf("case %d: packInto(%d) = %d, want found", c, opt, r)
		}
		if err := Check(inst, pk); err != nil || len(pk) > opt {
			t.Fatalf("case %d: packing of %d bins for optimum %d: %v", c, len(pk), opt, err)
		}
		if _, r, _ := p.packInto(opt-1, 1<<20); r != exactInfeasible {
			t.Fatalf("case %d: packInto(%d) = %d, want infeasible", c, opt-1, r)
		}
	}
	// A node limit of 1 cannot decide a non-trivial case.
	inst := randomInstance(rng, 8, 2, 20)
	p, _ := newProblem(inst)
	if _, r, _ := p.packInto(bruteForce(inst)-1, 1); r != exactUnknown && r != exactInfeasible {
		t.Errorf("node limit 1: result %d", r)
	}
}
