package pipeline

import (
	"testing"

	"github.com/capplan/capplan/binpack/xsize"
)

func TestCheckCatalog(t *testing.T) {
	p := &xsize.Problem{
		Dims: []string{"cpu", "memory"}, Scale: []float64{100, 100}, K: 2,
		Nodes:    [][]float64{{8, 32}},
		Requests: []xsize.Request{{Size: []float64{2, 4}, Weight: 1}, {Size: []float64{4, 16}, Weight: 1}},
	}
	good := &xsize.Solution{Shapes: [][]float64{{2, 4}, {4, 16}}, Assign: []int{0, 1}}
	if err := checkCatalog(p, good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]*xsize.Solution{
		"request does not fit": {Shapes: [][]float64{{2, 4}, {4, 8}}, Assign: []int{0, 1}},
		"shape fits no node":   {Shapes: [][]float64{{2, 4}, {16, 16}}, Assign: []int{0, 1}},
		"too many shapes":      {Shapes: [][]float64{{2, 4}, {4, 16}, {8, 32}}, Assign: []int{0, 1}},
		"assignment missing":   {Shapes: [][]float64{{4, 16}}, Assign: []int{0}},
	} {
		if err := checkCatalog(p, bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
