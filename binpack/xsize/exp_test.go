//go:build xsizeexp

package xsize

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestExpPTAS(t *testing.T) {
	D, _ := strconv.Atoi(os.Getenv("XD"))
	n, _ := strconv.Atoi(os.Getenv("XN"))
	K, _ := strconv.Atoi(os.Getenv("XK"))
	for seed := uint64(1); seed <= 5; seed++ {
		p := realisticMix(seed, D, n, K)
		start := time.Now()
		var last Step
		s, err := PTAS(p, PTASOptions{Eps: 1, MinEps: 0.1, Budget: 60 * time.Second, Progress: func(st Step) { last = st }})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("seed %d: cost %.6f lb %.6f ratio %.5f eps %.3f method %s total %v last %+v\n", seed, s.Cost, s.LowerBound, s.Ratio(), s.Epsilon, s.Method, time.Since(start), last)
	}
}
