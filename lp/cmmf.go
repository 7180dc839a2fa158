package lp

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/flow"
)

// CMMFResult is a weighted CMMF allocation.
type CMMFResult struct {
	// Amount[u] is x_u, the machines user u receives (fractional).
	Amount []float64
	// Level[u] is x_u / w_u.
	Level []float64
	// Round[u] is the 1-based progressive-filling round in which u froze.
	// Users without types or with demand 0 freeze at 0 in round 1.
	Round []int
	// Alloc[u][i] is the share of type p.Users[u].Types[i] given to u:
	// Σ_u Alloc ≤ c_t per type and Σ_i Alloc[u][i] = Amount[u], both to
	// the LP backend's tolerance.
	Alloc [][]float64
	// Rounds is the number of rounds (max Round), LPs the number of LPs
	// solved.
	Rounds, LPs int
}

// raiseStep caps how far above M_r a tested user's level may go in a
// saturation LP, relative to M_r. A cap makes the LP spread the rise over
// the tested users instead of giving all of it to one of them; any
// positive value is correct.
const raiseStep = 1e-6

// CMMF computes the weighted constrained max-min fair allocation of p by
// progressive filling over iterative LPs (Ghodsi et al., "Choosy", EuroSys
// 2013, §5.1, Algorithm 1), with weights, demand caps and coalesced machine
// types (see cmmfLP for the LP), and a saturation test that needs a few LPs
// per round instead of one per active user. The result is the unique
// leximin-optimal vector of levels x_u/w_u subject to x_u ≤ d_u.
//
// Each round r:
//
//  1. The round LP maximises the common level M of the active users, with
//     every frozen user at its floor: M_r.
//  2. Certificates from that LP: an active user whose level exceeds
//     M_r(1+satTol) in its solution is non-blocked; with duals, one whose
//     level row has a dual below −dualTol is blocked (Nace & Pióro, IEEE
//     Comm. Surveys & Tutorials 10(4), 2008: a non-zero optimal dual means
//     the row is tight in every optimal solution).
//  3. Saturation LPs for the rest, R: with M fixed at M_r (every active
//     user at level ≥ M_r, frozen users at their floors, the
//     already-certified users free to rise), maximise Σ_{k∈R} z_k, each
//     z_k capped at M_r(1+raiseStep). Users of R above M_r(1+satTol) are
//     certified non-blocked and leave R; repeat until an LP certifies no
//     one. The users then left in R are blocked.
//  4. The blocked users freeze at M_r (at exactly d_u when M_r is their
//     demand level); the non-blocked ones form the next round's active set.
//
// Correctness. Let P_r be the set of allocations with every active user at
// level ≥ M_r and every frozen user at its floor (step 3 without the caps),
// and call k non-blocked if some point of P_r has z_k > M_r: the paper's
// saturation test. (i) A certified user is non-blocked: the LP's point is
// in P_r. (ii) When an LP finds z_k = M_r for every k ∈ R at its optimum
// x*, all of R is blocked: if some k ∈ R had a point x' ∈ P_r with
// z_k > M_r, then, P_r being convex and every z_j ≥ M_r on it, the point
// (1−θ)x* + θx' would for small θ > 0 stay below the caps and raise Σ_R z
// above its optimum. So one LP settles all of R at once, where the paper
// spends one LP per user.
// (iii) The non-blocked users can rise simultaneously: averaging, over the
// non-blocked users, a point of P_r that raises each (the paper's
// convex-combination argument) gives a point of P_r raising them all, so
// M_{r+1} > M_r and freezing exactly the blocked users at M_r is
// progressive filling, whose outcome is the leximin optimum (Choosy §5.1;
// weights rescale the levels, and a demand cap is a bound on z_k, so a
// user at its demand is blocked). Each LP of step 3 but the last certifies
// at least one user, so a round takes at most |R|+2 LPs, typically 2 or 3.
//
// p must satisfy p.Validate (the error wraps flow.ErrInvalid otherwise).
// Errors from the solver are returned wrapped; since every LP solved is
// feasible and bounded, ErrInfeasible or ErrUnbounded from it mean
// numerical failure. Tolerances are relative to M_r (see satTol).
func CMMF(p *flow.Problem, s Solver) (*CMMFResult, error) {
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
	prev := 0.0 // M_{r−1}
	for r := 1; len(active) > 0; r++ {
		// Step 1: the round LP.
		sol, err := c.solveRound(s)
		if err != nil {
			return nil, fmt.Errorf("lp: CMMF round %d: %w", r, err)
		}
		last = sol
		// Levels rise strictly between rounds; rounding must not undo it.
		mr := math.Max(sol.X[c.M], prev)
		if mr <= 0 {
			return nil, fmt.Errorf("%w: lp: CMMF round %d: level %g", ErrNumeric, r, mr)
		}

		// Step 2: certificates from the round LP.
		var up, test, blocked []int
		for _, k := range active {
			switch {
			case c.level(sol, k) > mr*(1+satTol):
				up = append(up, k)
			case sol.Dual != nil && sol.Dual[c.lvl[k]] < -dualTol:
				blocked = append(blocked, k)
			default:
				test = append(test, k)
			}
		}

		// Step 3: saturation LPs until one certifies no one.
		for len(test) > 0 {
			sol, err := c.solveRaise(s, mr, test, raiseStep*mr)
			if err != nil {
				return nil, fmt.Errorf("lp: CMMF round %d saturation: %w", r, err)
			}
			last = sol
			still := test[:0:0]
			for _, k := range test {
				if c.level(sol, k) > mr*(1+satTol) {
					up = append(up, k)
				} else {
					still = append(still, k)
				}
			}
			if len(still) == len(test) {
				blocked = append(blocked, still...)
				break
			}
			test = still
		}

		// Step 4: freeze the blocked users.
		if len(blocked) == 0 {
			return nil, fmt.Errorf("%w: lp: CMMF round %d: no user blocked at level %g", ErrNumeric, r, mr)
		}
		for _, k := range blocked {
			c.freeze(k, mr)
			round[k] = r
		}
		active, prev = up, mr
	}
	return c.result(round, last), nil
}
