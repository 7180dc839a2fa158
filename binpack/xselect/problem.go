package xselect

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by every error Validate and Solve return for an
// inconsistent Problem.
var ErrInvalid = errors.New("xselect: invalid problem")

const (
	// shareTol lets the shares sum to 1 up to floating-point rounding.
	shareTol = 1e-9
	// packTol is the relative slack (times the node capacity) the packer
	// allows when testing a fit, so exact fits such as 2×0.5 on 1.0 are
	// not lost to rounding.
	packTol = 1e-10
	// checkTol is Check's relative slack; it is larger than packTol so
	// that summation-order rounding can never make Check reject a packing
	// the packer accepted.
	checkTol = 1e-9
	// countTol absorbs rounding in λ·m at a breakpoint λ = j/m, so that
	// ⌊λ·m⌋ is j there and not j−1.
	countTol = 1e-9
)

// Node is one processing node.
type Node struct {
	Name string
	// Capacity holds one amount per dimension, in real units.
	Capacity []float64
}

// App is one application (owner of containers).
type App struct {
	Name string
	// Share is the target fraction σ_a > 0 of the packed normalised
	// volume; the shares of all applications sum to at most 1.
	Share float64
	// Mix[k] = m_{a,k} ≥ 0 is the forecast number of containers of shape
	// k per unit of the multiplier λ (only the proportions matter to the
	// owner; the scale sets what λ = 1 means).
	Mix []float64
	// Eligible lists the indices of the nodes the application may use;
	// nil means every node.
	Eligible []int
}

// Problem is an X-Select instance.
type Problem struct {
	Dims   []string
	Nodes  []Node
	Shapes [][]float64
	Apps   []App
}

// Container is one placed container: its shape index and owner (app index).
type Container struct {
	Shape, Owner int
}

// Reasons recorded in Unplaced.
const (
	// ReasonNoEligibleNode: no eligible node of the owner has the capacity
	// for the shape even when empty.
	ReasonNoEligibleNode = "no eligible node large enough"
	// ReasonNoRoom: some eligible node could hold the shape when empty, but
	// the packing found leaves no room for it.
	ReasonNoRoom = "no room left on eligible nodes"
)

// Unplaced is a container of the next multiplier step above Plan.Lambda that
// the final plan does not hold.
type Unplaced struct {
	Shape, Owner int
	Reason       string
}

// AppResult compares what an application received with its target.
type AppResult struct {
	// Required is Σ_k ⌊Lambda·m_{a,k}⌋, the containers of the required set.
	Required int
	// Packed counts the application's containers in the plan (required
	// plus top-up).
	Packed int
	// Volume is the packed normalised volume (see Solve).
	Volume float64
	// Achieved is Volume divided by the total packed normalised volume
	// (0 when nothing is packed); compare with Target.
	Achieved float64
	// Target is the application's Share.
	Target float64
}

// Plan is Solve's result.
type Plan struct {
	// Nodes[n] lists the containers placed on node n.
	Nodes [][]Container
	// Lambda is the largest multiplier found whose required set
	// {⌊Lambda·m_{a,k}⌋} is fully packed; it is a breakpoint j/m_{a,k}
	// (or 0), and every λ up to the next breakpoint needs the same set.
	Lambda float64
	// LambdaUpper is the fluid upper bound on λ (see LambdaUpper).
	LambdaUpper float64
	// Unplaced lists the containers needed to reach the next breakpoint
	// above Lambda that the plan (after top-up) does not hold.
	Unplaced []Unplaced
	// Apps holds the per-application outcome.
	Apps []AppResult
}

// Count returns the number of containers an application with mix count m
// needs at multiplier lambda: ⌊lambda·m⌋ (with countTol absorbing rounding
// at the breakpoints lambda = j/m).
func Count(lambda, m float64) int {
	if m <= 0 || lambda <= 0 {
		return 0
	}
	return int(math.Floor(lambda*m + countTol))
}

func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// Validate reports the first inconsistency of p as an error wrapping
// ErrInvalid: vector lengths that differ from len(Dims), negative or
// non-finite amounts, shares not in (0,1] or summing above 1, eligibility
// indices out of range or repeated. Cost O(size of p).
func (p *Problem) Validate() error {
	d := len(p.Dims)
	if d == 0 {
		return fmt.Errorf("%w: no dimensions", ErrInvalid)
	}
	for i, n := range p.Nodes {
		if len(n.Capacity) != d {
			return fmt.Errorf("%w: node %d has %d dimensions, want %d", ErrInvalid, i, len(n.Capacity), d)
		}
		for j, v := range n.Capacity {
			if !finiteNonNeg(v) {
				return fmt.Errorf("%w: node %d capacity[%d] = %v", ErrInvalid, i, j, v)
			}
		}
	}
	for k, s := range p.Shapes {
		if len(s) != d {
			return fmt.Errorf("%w: shape %d has %d dimensions, want %d", ErrInvalid, k, len(s), d)
		}
		for j, v := range s {
			if !finiteNonNeg(v) {
				return fmt.Errorf("%w: shape %d size[%d] = %v", ErrInvalid, k, j, v)
			}
		}
	}
	sum := 0.0
	for a, app := range p.Apps {
		if !(app.Share > 0 && app.Share <= 1) {
			return fmt.Errorf("%w: app %d share %v not in (0,1]", ErrInvalid, a, app.Share)
		}
		sum += app.Share
		if len(app.Mix) != len(p.Shapes) {
			return fmt.Errorf("%w: app %d mix has %d entries, want %d", ErrInvalid, a, len(app.Mix), len(p.Shapes))
		}
		for k, m := range app.Mix {
			if !finiteNonNeg(m) {
				return fmt.Errorf("%w: app %d mix[%d] = %v", ErrInvalid, a, k, m)
			}
		}
		seen := make(map[int]bool, len(app.Eligible))
		for _, n := range app.Eligible {
			if n < 0 || n >= len(p.Nodes) {
				return fmt.Errorf("%w: app %d eligible node %d out of range", ErrInvalid, a, n)
			}
			if seen[n] {
				return fmt.Errorf("%w: app %d eligible node %d repeated", ErrInvalid, a, n)
			}
			seen[n] = true
		}
	}
	if sum > 1+shareTol {
		return fmt.Errorf("%w: shares sum to %v > 1", ErrInvalid, sum)
	}
	return nil
}

// Check verifies plan against p from scratch: one container list per node,
// shape and owner indices in range, every container on an eligible node of
// its owner, and per node and dimension the summed shape sizes at most the
// capacity (up to a relative 1e-9). Cost O(containers·d + Σ|Eligible|).
func Check(p *Problem, plan *Plan) error {
	if len(plan.Nodes) != len(p.Nodes) {
		return fmt.Errorf("xselect: plan has %d nodes, problem %d", len(plan.Nodes), len(p.Nodes))
	}
	elig := make([]map[int]bool, len(p.Apps))
	for a, app := range p.Apps {
		if app.Eligible != nil {
			elig[a] = make(map[int]bool, len(app.Eligible))
			for _, n := range app.Eligible {
				elig[a][n] = true
			}
		}
	}
	d := len(p.Dims)
	for n, cs := range plan.Nodes {
		used := make([]float64, d)
		for i, c := range cs {
			if c.Shape < 0 || c.Shape >= len(p.Shapes) {
				return fmt.Errorf("xselect: node %d container %d: shape %d out of range", n, i, c.Shape)
			}
			if c.Owner < 0 || c.Owner >= len(p.Apps) {
				return fmt.Errorf("xselect: node %d container %d: owner %d out of range", n, i, c.Owner)
			}
			if elig[c.Owner] != nil && !elig[c.Owner][n] {
				return fmt.Errorf("xselect: node %d container %d: node not eligible for owner %d", n, i, c.Owner)
			}
			for j, v := range p.Shapes[c.Shape] {
				used[j] += v
			}
		}
		for j, u := range used {
			c := p.Nodes[n].Capacity[j]
			if u > c+checkTol*c {
				return fmt.Errorf("xselect: node %d dimension %d: used %v > capacity %v", n, j, u, c)
			}
		}
	}
	return nil
}
