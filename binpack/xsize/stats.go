package xsize

import (
	"fmt"

	"github.com/capplan/capplan/binpack"
)

// ShapeStats summarises one shape of a Solution.
type ShapeStats struct {
	Shape    int       // index into Solution.Shapes
	Requests int       // number of Problem.Requests entries assigned
	Weight   float64   // Σ w of those requests
	Cost     float64   // Σ w·cost(shape), normalised units
	Waste    []float64 // per dimension, real units: Σ w·(shape_d − request_d)
}

// Stats returns per-shape counts, weights, costs and waste (allocated minus
// requested, weighted by frequency) of s. It panics if s.Assign does not
// index p.Requests into s.Shapes (a programmer error: s belongs to p).
func Stats(p *Problem, s *Solution) []ShapeStats {
	if len(s.Assign) != len(p.Requests) {
		panic(fmt.Sprintf("xsize: Stats: %d assignments for %d requests", len(s.Assign), len(p.Requests)))
	}
	out := make([]ShapeStats, len(s.Shapes))
	for j, c := range s.Shapes {
		out[j] = ShapeStats{Shape: j, Waste: make([]float64, len(c))}
	}
	for r, j := range s.Assign {
		req := p.Requests[r]
		st := &out[j]
		st.Requests++
		st.Weight += req.Weight
		for d, x := range s.Shapes[j] {
			st.Waste[d] += req.Weight * (x - req.Size[d])
		}
	}
	for j, c := range s.Shapes {
		out[j].Cost = out[j].Weight * binpack.ShapeCost(c, p.Scale, p.Cost)
	}
	return out
}

// TotalWaste sums the per-shape waste of stats, per dimension.
func TotalWaste(stats []ShapeStats) []float64 {
	var t []float64
	for _, st := range stats {
		if t == nil {
			t = make([]float64, len(st.Waste))
		}
		for d, x := range st.Waste {
			t[d] += x
		}
	}
	return t
}
