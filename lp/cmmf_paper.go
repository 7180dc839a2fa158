package lp

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/flow"
)

// CMMFPaper computes the same allocation as CMMF with the saturation test of
// Choosy's Algorithm 1 taken literally (Ghodsi et al., EuroSys 2013, §5.1,
// procedure SATURATED): after each round's LP gives M_r, every active user u
// gets its own LP, which keeps all other active users at level ≥ M_r and
// the frozen ones at their floors and maximises u's level; u is saturated
// (frozen at M_r) when that maximum does not exceed M_r(1+satTol). It
// solves 1+|A_r| LPs in round r, Θ(n²) in all when users freeze one at a
// time, and serves as the reference for CMMF and as its benchmark
// baseline. Weights, demand caps and coalesced types are as in CMMF; so
// are the contract and the errors.
func CMMFPaper(p *flow.Problem, s Solver) (*CMMFResult, error) {
	c, err := cmmfStart(p)
	if err != nil {
		return nil, err
	}
	round := make([]int, len(c.users))
	active := make([]int, len(c.users))
	for k := range active {
		active[k] = k
	}
	var last *Solution
	prev := 0.0
	for r := 1; len(active) > 0; r++ {
		// (M_r, x) := LP(C, r, M_1..M_{r−1}, S_1..S_{r−1})
		sol, err := c.solveRound(s)
		if err != nil {
			return nil, fmt.Errorf("lp: CMMFPaper round %d: %w", r, err)
		}
		last = sol
		mr := math.Max(sol.X[c.M], prev)
		if mr <= 0 {
			return nil, fmt.Errorf("%w: lp: CMMFPaper round %d: level %g", ErrNumeric, r, mr)
		}
		// S_r := SATURATED(r, M_1..M_r, S_1..S_{r−1})
		var sat, next []int
		for _, k := range active {
			sol, err := c.solveRaise(s, mr, []int{k}, math.Inf(1))
			if err != nil {
				return nil, fmt.Errorf("lp: CMMFPaper round %d, user %d: %w", r, c.users[k], err)
			}
			last = sol
			if c.level(sol, k) > mr*(1+satTol) {
				next = append(next, k)
			} else {
				sat = append(sat, k)
			}
		}
		if len(sat) == 0 {
			return nil, fmt.Errorf("%w: lp: CMMFPaper round %d: no user saturated at level %g", ErrNumeric, r, mr)
		}
		for _, k := range sat {
			c.freeze(k, mr)
			round[k] = r
		}
		active, prev = next, mr
	}
	return c.result(round, last), nil
}
