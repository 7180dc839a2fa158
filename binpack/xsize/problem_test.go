package xsize

import (
	"errors"
	"math"
	"testing"
)

func validProblem() *Problem {
	return &Problem{
		Dims:  []string{"cpu", "memory"},
		Scale: []float64{64000, 256},
		Requests: []Request{
			{Size: []float64{1000, 4}, Weight: 10, Label: "web"},
			{Size: []float64{4000, 16}, Weight: 2, Label: "db"},
		},
		Nodes: [][]float64{{32000, 128}},
		K:     1,
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(p *Problem)
		field  string // InputError.Field; "" means a NoFitError; "ok" means valid
		index  int
		dim    int
	}{
		{"valid", func(p *Problem) {}, "ok", 0, 0},
		{"zero-gpu request is fine", func(p *Problem) {
			p.Dims, p.Scale = append(p.Dims, "gpu"), append(p.Scale, 8)
			p.Nodes = [][]float64{{32000, 128, 8}}
			p.Requests[0].Size = append(p.Requests[0].Size, 0)
			p.Requests[1].Size = append(p.Requests[1].Size, 1)
		}, "ok", 0, 0},
		{"no dimensions", func(p *Problem) { p.Scale, p.Dims = nil, nil }, "Scale", -1, -1},
		{"names mismatch", func(p *Problem) { p.Dims = []string{"cpu"} }, "Dims", -1, -1},
		{"zero scale", func(p *Problem) { p.Scale[1] = 0 }, "Scale", -1, 1},
		{"K zero", func(p *Problem) { p.K = 0 }, "K", -1, -1},
		{"unknown cost", func(p *Problem) { p.Cost = 7 }, "Cost", -1, -1},
		{"no requests", func(p *Problem) { p.Requests = nil }, "Requests", -1, -1},
		{"no nodes", func(p *Problem) { p.Nodes = nil }, "Nodes", -1, -1},
		{"short size", func(p *Problem) { p.Requests[1].Size = []float64{1} }, "Requests", 1, -1},
		{"negative size", func(p *Problem) { p.Requests[1].Size[0] = -1 }, "Requests", 1, 0},
		{"NaN size", func(p *Problem) { p.Requests[0].Size[1] = math.NaN() }, "Requests", 0, 1},
		{"all-zero size", func(p *Problem) { p.Requests[0].Size = []float64{0, 0} }, "Requests", 0, -1},
		{"zero weight", func(p *Problem) { p.Requests[1].Weight = 0 }, "Requests", 1, -1},
		{"node too short", func(p *Problem) { p.Nodes[0] = []float64{1} }, "Nodes", 0, -1},
		// Request 1 needs 4000 milli-cores > 3000 on the only node type.
		{"request fits no node", func(p *Problem) { p.Nodes[0][0] = 3000 }, "", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := validProblem()
			tc.modify(p)
			err := p.Validate()
			if tc.field == "ok" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate() = %v, want an error wrapping ErrInvalid", err)
			}
			if tc.field == "" {
				var nf *NoFitError
				if !errors.As(err, &nf) || nf.Request != tc.index || nf.Dim != tc.dim {
					t.Fatalf("Validate() = %#v, want NoFitError{Request: %d, Dim: %d}", err, tc.index, tc.dim)
				}
				if nf.DimName != p.Dims[tc.dim] || len(nf.Shortfalls) != 1 {
					t.Fatalf("NoFitError %+v: want dimension %q and one shortfall", nf, p.Dims[tc.dim])
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != tc.field || ie.Index != tc.index || ie.Dim != tc.dim {
				t.Fatalf("Validate() = %#v, want InputError{%s %d %d}", err, tc.field, tc.index, tc.dim)
			}
		})
	}
}

func TestNoFitErrorClosestNode(t *testing.T) {
	// Two node types: the request (10 cpu, 10 mem, 1 gpu) is short on
	// cpu and mem against type 0 (2 shortfalls) but only on gpu against
	// type 1, so Dim names the gpu.
	p := &Problem{Dims: []string{"cpu", "memory", "gpu"}, Scale: []float64{1, 1, 1}, K: 1,
		Requests: []Request{{Size: []float64{10, 10, 1}, Weight: 1}},
		Nodes:    [][]float64{{8, 8, 4}, {16, 16, 0}}}
	var nf *NoFitError
	if err := p.Validate(); !errors.As(err, &nf) {
		t.Fatalf("Validate() = %v, want *NoFitError", err)
	}
	if nf.Dim != 2 || nf.DimName != "gpu" || len(nf.Shortfalls) != 3 {
		t.Errorf("got %+v, want Dim 2 (gpu) and 3 shortfalls", nf)
	}
}

func TestParseCost(t *testing.T) {
	for _, c := range []Cost{SumCost, MaxCost} {
		got, err := ParseCost(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCost(%q) = %v, %v", c.String(), got, err)
		}
	}
	if _, err := ParseCost("median"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseCost(median) error = %v, want ErrInvalid", err)
	}
}

// TestHugeK: a K far beyond the number of request classes solves as K =
// classes, at once and with the same cost. On main, K = 10^9 made the
// PTAS allocate tables of K rows and die out of memory.
func TestHugeK(t *testing.T) {
	p := &Problem{
		Dims: []string{"cpu", "mem"}, Scale: []float64{1, 1}, K: 3, Cost: SumCost,
		Nodes: [][]float64{{8, 8}},
		Requests: []Request{
			{Size: []float64{1, 2}, Weight: 3},
			{Size: []float64{2, 1}, Weight: 1},
			{Size: []float64{4, 4}, Weight: 2},
		},
	}
	want, err := PTAS(p, PTASOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Each class its own shape: 3·(1+2) + 1·(2+1) + 2·(4+4) = 28.
	if want.Cost != 28 {
		t.Fatalf("cost with K = 3 classes: %v, want 28", want.Cost)
	}
	huge := *p
	huge.K = 1_000_000_000
	got, err := PTAS(&huge, PTASOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cost != want.Cost || len(got.Shapes) > 3 {
		t.Fatalf("K = 10^9: cost %v with %d shapes, want %v with at most 3", got.Cost, len(got.Shapes), want.Cost)
	}
}
