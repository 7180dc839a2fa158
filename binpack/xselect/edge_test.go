package xselect

import "testing"

// TestDegenerate: empty node, app and shape lists and zero-size shapes
// solve without panicking and pass Check.
func TestDegenerate(t *testing.T) {
	for name, p := range map[string]*Problem{
		"no nodes":  {Dims: []string{"cpu"}, Shapes: [][]float64{{1}}, Apps: []App{{Share: 1, Mix: []float64{1}}}},
		"no apps":   {Dims: []string{"cpu"}, Nodes: []Node{{Capacity: []float64{1}}}, Shapes: [][]float64{{1}}},
		"no shapes": {Dims: []string{"cpu"}, Nodes: []Node{{Capacity: []float64{1}}}, Apps: []App{{Share: 1, Mix: []float64{}}}},
		"zero mix":  {Dims: []string{"cpu"}, Nodes: []Node{{Capacity: []float64{1}}}, Shapes: [][]float64{{1}}, Apps: []App{{Share: 1, Mix: []float64{0}}}},
		"zero node": {Dims: []string{"cpu", "mem"}, Nodes: []Node{{Capacity: []float64{0, 0}}, {Capacity: []float64{2, 0}}}, Shapes: [][]float64{{1, 0}, {0, 0}}, Apps: []App{{Share: 1, Mix: []float64{1, 1}}}},
	} {
		for _, opt := range []Options{{}, {From: make([][]Container, len(p.Nodes)), Mutable: 0.5}} {
			plan, err := Solve(p, opt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := Check(p, plan); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			t.Logf("%s: %v", name, plan)
		}
	}
}
