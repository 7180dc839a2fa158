package vbp_test

import (
	"fmt"

	"github.com/capplan/capplan/binpack/vbp"
)

func ExampleSolve() {
	// Two dimensions (cpu, mem) with capacity 10 each; six items whose
	// pairs (6,4)+(4,6) fill a bin exactly, so 3 bins are optimal.
	inst := &vbp.Instance{Name: "example", Capacity: []int64{10, 10},
		Items: []vbp.Item{{Size: []int64{6, 4}, Count: 3}, {Size: []int64{4, 6}, Count: 3}}}
	res, err := vbp.Solve(inst, vbp.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Bins, "bins, lower bound", res.LowerBound.Best)
	// Output: 3 bins, lower bound 3
}
