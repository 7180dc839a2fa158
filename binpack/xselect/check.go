package xselect

import (
	"fmt"
	"slices"

	"github.com/capplan/capplan/binpack"
)

// checker holds the rule tables Check needs, built from the Problem alone
// (it shares no code with the packer, so that it can vouch for it).
type checker struct {
	p    *Problem
	elig []map[int]bool // nil: every node
	colo [][]int        // colo[a]: the apps a needs on its nodes
	exl  []map[int]bool // exl[a]: the apps a excludes
}

func newChecker(p *Problem) *checker {
	c := &checker{p: p, elig: make([]map[int]bool, len(p.Apps)), colo: make([][]int, len(p.Apps)), exl: make([]map[int]bool, len(p.Apps))}
	for a, app := range p.Apps {
		if app.Eligible != nil {
			c.elig[a] = make(map[int]bool, len(app.Eligible))
			for _, n := range app.Eligible {
				c.elig[a][n] = true
			}
		}
		c.exl[a] = map[int]bool{}
	}
	for _, pr := range p.Colocate {
		c.colo[pr[0]] = append(c.colo[pr[0]], pr[1])
	}
	for _, pr := range p.Exlocate {
		c.exl[pr[0]][pr[1]] = true
		c.exl[pr[1]][pr[0]] = true
	}
	return c
}

// node reports the first rule the container list cs breaks on node n:
// shape or owner out of range, an owner not eligible on n, a dimension
// over capacity (up to a relative checkTol), an owner above its
// MaxPerNode, an exlocated pair, or an owner whose colocation partner is
// absent. It returns nil for a valid node. Cost O(|cs|·(d + rules)).
func (c *checker) node(n int, cs []Container) error {
	p := c.p
	used := make([]float64, len(p.Dims))
	count := map[int]int{}
	for i, x := range cs {
		if x.Shape < 0 || x.Shape >= len(p.Shapes) {
			return fmt.Errorf("%w: node %d container %d: shape %d out of range", ErrViolation, n, i, x.Shape)
		}
		if x.Owner < 0 || x.Owner >= len(p.Apps) {
			return fmt.Errorf("%w: node %d container %d: owner %d out of range", ErrViolation, n, i, x.Owner)
		}
		if c.elig[x.Owner] != nil && !c.elig[x.Owner][n] {
			return fmt.Errorf("%w: node %d container %d: node not eligible for owner %d", ErrViolation, n, i, x.Owner)
		}
		for j, v := range p.Shapes[x.Shape] {
			used[j] += v
		}
		count[x.Owner]++
	}
	limit := make([]float64, len(used)) // the capacity with Check's slack
	for j, cp := range p.Nodes[n].Capacity {
		limit[j] = cp + checkTol*cp
	}
	if short := binpack.Shortfalls(limit, used); short != nil {
		j := short[0].Dim
		return fmt.Errorf("%w: node %d dimension %d: used %v > capacity %v", ErrViolation, n, j, used[j], p.Nodes[n].Capacity[j])
	}
	owners := make([]int, 0, len(count))
	for a := range count {
		owners = append(owners, a)
	}
	slices.Sort(owners) // report the same violation every time
	for _, a := range owners {
		if m := p.Apps[a].MaxPerNode; m > 0 && count[a] > m {
			return fmt.Errorf("%w: node %d holds %d containers of app %d, MaxPerNode %d", ErrViolation, n, count[a], a, m)
		}
		for _, b := range owners {
			if c.exl[a][b] {
				return fmt.Errorf("%w: node %d hosts exlocated apps %d and %d", ErrViolation, n, a, b)
			}
		}
		for _, b := range c.colo[a] {
			if count[b] == 0 {
				return fmt.Errorf("%w: node %d hosts app %d without its colocated app %d", ErrViolation, n, a, b)
			}
		}
	}
	return nil
}

// Check verifies plan against p from scratch and independently of the
// packer: p is valid (else the Validate error), one container list per
// node, shape and owner indices in range, every container on an eligible
// node of its owner, per node and dimension the summed shape sizes at most
// the capacity (up to a relative 1e-9), at most MaxPerNode containers of
// an application per node, no node hosting both applications of an
// Exlocate pair, and every node hosting a of a Colocate pair {a, b} also
// hosting b. Violations wrap ErrViolation. It does not check that the
// required set of plan.Lambda is present. Cost O(size of p + containers·
// (d + rules per app)).
func Check(p *Problem, plan *Plan) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if len(plan.Nodes) != len(p.Nodes) {
		return fmt.Errorf("%w: plan has %d nodes, problem %d", ErrViolation, len(plan.Nodes), len(p.Nodes))
	}
	c := newChecker(p)
	for n, cs := range plan.Nodes {
		if err := c.node(n, cs); err != nil {
			return err
		}
	}
	return nil
}

// CheckIncremental checks plan like Check and also that at most
// MutableNodes(len(p.Nodes), mutable) nodes differ from from (multiset compare).
// When plan.Changed is not nil it must list exactly the differing nodes,
// ascending. from must have one list per node. Cost that of Check plus
// O(C log C) for the C containers of plan and from.
func CheckIncremental(p *Problem, from [][]Container, plan *Plan, mutable float64) error {
	if err := Check(p, plan); err != nil {
		return err
	}
	if len(from) != len(p.Nodes) {
		return fmt.Errorf("%w: previous plan has %d nodes, problem %d", ErrViolation, len(from), len(p.Nodes))
	}
	var changed []int
	for n := range p.Nodes {
		if !sameMultiset(from[n], plan.Nodes[n]) {
			changed = append(changed, n)
		}
	}
	if limit := MutableNodes(len(p.Nodes), mutable); len(changed) > limit {
		return fmt.Errorf("%w: %d nodes changed, at most %d may", ErrViolation, len(changed), limit)
	}
	if plan.Changed != nil && !slices.Equal(plan.Changed, changed) {
		return fmt.Errorf("%w: plan.Changed = %v, but the nodes that differ are %v", ErrViolation, plan.Changed, changed)
	}
	return nil
}

// sameMultiset reports whether x and y hold the same containers, ignoring
// order. Cost O((|x|+|y|) log).
func sameMultiset(x, y []Container) bool {
	if len(x) != len(y) {
		return false
	}
	less := func(a, b Container) int {
		if a.Owner != b.Owner {
			return a.Owner - b.Owner
		}
		return a.Shape - b.Shape
	}
	xs, ys := slices.Clone(x), slices.Clone(y)
	slices.SortFunc(xs, less)
	slices.SortFunc(ys, less)
	return slices.Equal(xs, ys)
}
