package xselect

import (
	"fmt"
	"math"
)

func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// Validate reports the first inconsistency of p as an error wrapping
// ErrInvalid: vector lengths that differ from len(Dims), negative or
// non-finite amounts, shares not in (0,1] or summing above 1, eligibility
// indices out of range or repeated, a negative MaxPerNode, and Colocate or
// Exlocate pairs with an index out of range or a == b. Cost O(size of p).
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
		if app.MaxPerNode < 0 {
			return fmt.Errorf("%w: app %d MaxPerNode %d < 0", ErrInvalid, a, app.MaxPerNode)
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
	for _, rule := range []struct {
		what  string
		pairs [][2]int
	}{{"Colocate", p.Colocate}, {"Exlocate", p.Exlocate}} {
		what := rule.what
		for i, pr := range rule.pairs {
			for _, a := range pr {
				if a < 0 || a >= len(p.Apps) {
					return fmt.Errorf("%w: %s[%d] = %v: app %d out of range", ErrInvalid, what, i, pr, a)
				}
			}
			if pr[0] == pr[1] {
				return fmt.Errorf("%w: %s[%d] = %v pairs an app with itself", ErrInvalid, what, i, pr)
			}
		}
	}
	return nil
}

// validateOptions checks the incremental-mode options against p (assumed
// valid): From has one list per node with shapes and owners in range, and
// Mutable is in [0,1].
func validateOptions(p *Problem, opt *Options) error {
	if !(opt.Mutable >= 0 && opt.Mutable <= 1) {
		return fmt.Errorf("%w: Mutable %v not in [0,1]", ErrInvalid, opt.Mutable)
	}
	if opt.From == nil {
		return nil
	}
	if len(opt.From) != len(p.Nodes) {
		return fmt.Errorf("%w: From has %d nodes, problem %d", ErrInvalid, len(opt.From), len(p.Nodes))
	}
	for n, cs := range opt.From {
		for i, c := range cs {
			if c.Shape < 0 || c.Shape >= len(p.Shapes) {
				return fmt.Errorf("%w: From node %d container %d: shape %d out of range", ErrInvalid, n, i, c.Shape)
			}
			if c.Owner < 0 || c.Owner >= len(p.Apps) {
				return fmt.Errorf("%w: From node %d container %d: owner %d out of range", ErrInvalid, n, i, c.Owner)
			}
		}
	}
	return nil
}
