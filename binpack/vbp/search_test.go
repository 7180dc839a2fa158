package vbp

import (
	"math/rand/v2"
	"testing"
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
		got := p.search(start, 1, rand.New(rand.NewPCG(uint64(c), 1)), 200000)
		if err := Check(inst, got); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if len(got) > len(start) {
			t.Fatalf("case %d: search gave %d bins from %d", c, len(got), len(start))
		}
	}
}
