package xsize_test

import (
	"fmt"

	"github.com/capplan/capplan/binpack/xsize"
)

// A cluster of 100 nodes of 32 cores / 128 GiB, and four request classes
// (cpu in cores, memory in GiB) weighted by frequency. Two shapes: the
// small web/api requests share one, batch and cache share the other.
func ExamplePTAS() {
	p := &xsize.Problem{
		Dims:  []string{"cpu", "memory"},
		Scale: []float64{3200, 12800},
		Requests: []xsize.Request{
			{Size: []float64{0.5, 1}, Weight: 100, Label: "web"},
			{Size: []float64{1, 2}, Weight: 50, Label: "api"},
			{Size: []float64{4, 4}, Weight: 10, Label: "batch"},
			{Size: []float64{0.5, 16}, Weight: 20, Label: "cache"},
		},
		Nodes: [][]float64{{32, 128}},
		K:     2,
	}
	s, err := xsize.PTAS(p, xsize.PTASOptions{Eps: 0.5, MinEps: 0.25})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("shapes %v, ε %.2f, optimal %v\n", s.Shapes, s.Epsilon, s.Optimal)
	for i, r := range p.Requests {
		fmt.Printf("%-5s → %v\n", r.Label, s.Shapes[s.Assign[i]])
	}
	// Output:
	// shapes [[1 2] [4 16]], ε 0.25, optimal true
	// web   → [1 2]
	// api   → [1 2]
	// batch → [4 16]
	// cache → [4 16]
}
