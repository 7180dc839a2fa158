package binpack

import "fmt"

// Cost selects how a container shape c is charged, in normalised units
// ĉ_d = c_d / scale_d, scale_d being the cluster's aggregate capacity in
// dimension d.
type Cost int

const (
	// SumCost charges ‖ĉ‖₁ = Σ_d ĉ_d, X-Flex's charging unit (Wolf et
	// al., Middleware 2014, §2.2).
	SumCost Cost = iota
	// MaxCost charges ‖ĉ‖∞ = max_d ĉ_d, the DRF-like notion of fit.
	MaxCost
)

// String returns "sum" or "max".
func (c Cost) String() string {
	switch c {
	case SumCost:
		return "sum"
	case MaxCost:
		return "max"
	}
	return fmt.Sprintf("Cost(%d)", int(c))
}

// ShapeCost returns the cost of shape under cost: Σ_d shape_d/scale_d
// (SumCost) or max_d shape_d/scale_d (MaxCost, 0 for no dimension),
// summed in dimension order so that every caller gets the same float. It
// panics if the lengths differ or cost is unknown. Cost O(len(shape)).
func ShapeCost(shape, scale []float64, cost Cost) float64 {
	if len(shape) != len(scale) {
		panic("binpack: ShapeCost: vectors of different length")
	}
	s := 0.0
	switch cost {
	case SumCost:
		for d, x := range shape {
			s += x / scale[d]
		}
	case MaxCost:
		for d, x := range shape {
			s = max(s, x/scale[d])
		}
	default:
		panic(fmt.Sprintf("binpack: ShapeCost: unknown cost %d", int(cost)))
	}
	return s
}

// Cheapest returns the index of the cheapest shape in shapes that
// dominates need, costs[j] being shape j's cost (ties go to the lower
// index), or -1 when no shape holds need. Cost O(len(shapes)·len(need)).
func Cheapest(need []float64, shapes [][]float64, costs []float64) int {
	return CheapestAllowed(need, shapes, costs, nil)
}

// CheapestAllowed is Cheapest among the shapes j with allowed(j) (all when
// allowed is nil): a request may be limited to the shapes that fit a
// machine its application may use. Cost O(len(shapes)·len(need)) plus the
// calls of allowed.
func CheapestAllowed(need []float64, shapes [][]float64, costs []float64, allowed func(j int) bool) int {
	best := -1
	for j, c := range shapes {
		if (best < 0 || costs[j] < costs[best]) && Dominates(c, need) && (allowed == nil || allowed(j)) {
			best = j
		}
	}
	return best
}
