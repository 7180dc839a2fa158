//go:build xsizeexp

package xsize

import (
	"fmt"
	"testing"
	"time"
)

func TestExpLocal(t *testing.T) {
	p := realisticMix(1, 3, 5000, 16)
	in, _ := newInstance(p)
	start := time.Now()
	seed, _ := in.seedShapes()
	ss, _ := in.finalize(seed, "")
	fmt.Printf("seed cost %.6f in %v\n", ss.Cost, time.Since(start))
	start = time.Now()
	s, err := LocalSearch(p, LocalOptions{Seed: 1, Budget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("local cost %.6f lb %.6f ratio %.4f in %v classes %d\n", s.Cost, s.LowerBound, s.Ratio(), time.Since(start), in.n())
}
