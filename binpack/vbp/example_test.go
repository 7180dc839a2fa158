package vbp_test

import (
	"fmt"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
)

func ExampleSolve() {
	// Two dimensions (cpu, mem) with capacity 10 each; six items whose
	// pairs (6,4)+(4,6) fill a bin exactly, so 3 bins are optimal.
	in := "2\n10 10\n2\n6 4 3\n4 6 3\n"
	inst, err := vbp.Parse("example.vbp", strings.NewReader(in))
	if err != nil {
		panic(err)
	}
	res, err := vbp.Solve(inst, vbp.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Bins, "bins, lower bound", res.LowerBound.Best)
	// Output: 3 bins, lower bound 3
}
