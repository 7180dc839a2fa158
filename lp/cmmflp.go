package lp

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/flow"
)

// Tolerances of the CMMF drivers. Levels are in machines per unit of
// weight; every positive level of an instance is at least 1/Σw (a set of
// types holds at least one machine, a demand is at least one machine), and
// each tolerance is relative to the current level M_r > 0.
const (
	// satTol: a user is certified non-blocked when an LP exhibits a point
	// where its level exceeds M_r·(1+satTol) while no one else is below
	// their floor. It sits well above the LP backends' rounding (below
	// 1e-11 relative on these integer-data LPs, see TestCMMFRandom) and
	// well below raiseStep, the rise a saturation LP offers; it assumes
	// that distinct vertex levels of an instance differ by more than
	// satTol relative (their denominators are sums and products of
	// weights, far below 1e9 for the instances this package targets).
	satTol = 1e-9
	// dualTol: with duals, a level row of the round LP whose dual is
	// below −dualTol certifies a blocked user (Nace & Pióro 2008). Those
	// duals are ≤ 0 and, since M > 0 is basic, their magnitudes sum to 1
	// (M's column: cost 1, −1 in each level row), so a genuine non-zero
	// dual is orders of magnitude above dualTol.
	dualTol = 1e-9
	// snapTol: a level within snapTol (relative) of a user's demand level
	// d_u/w_u is that demand level, and the user gets exactly d_u.
	snapTol = 1e-9
)

// cmmfLP is the LP over coalesced machine types shared by CMMF and
// CMMFPaper (Choosy §5.1, "Coalescing Identical Machines", with levels
// weighted and demands capped). Over the modelled users k (those with at
// least one type and a non-zero demand) it has
//
//	variables  0 ≤ f_{k,t} ≤ e_{k,t} for t ∈ N(k)   machines of type t given to k
//	                                    (e the user's type cap, +∞ without)
//	           0 ≤ z_k ≤ d_k/w_k          k's level (no cap for Unbounded)
//	           M ≥ 0                      the common level of the round
//	rows       Σ_k f_{k,t} ≤ c_t                 capacity of type t
//	           Σ_t f_{k,t} − w_k·z_k = 0         link
//	           z_k − M ≥ 0  (rhs −∞ when frozen) level
//
// A frozen user k has z_k ≥ ℓ_k instead of a level row. Rounds and
// saturation tests only change bounds, right-hand sides and the objective,
// so a backend with warm starts re-solves from the previous basis.
type cmmfLP struct {
	p     *flow.Problem
	m     Model
	users []int   // problem index of modelled user k
	f     [][]Var // f[k][i]: type p.Users[users[k]].Types[i]
	z     []Var
	hi    []float64 // d_k/w_k, or +Inf
	lvl   []Row
	M     Var
	// frozen[k] and floor[k] (= ℓ_k) describe the current state.
	frozen []bool
	floor  []float64
	// lps counts the solves.
	lps int
}

func newCMMFLP(p *flow.Problem) *cmmfLP {
	c := &cmmfLP{p: p}
	perType := make([][]Term, len(p.Types))
	for u, usr := range p.Users {
		if len(usr.Types) == 0 || usr.Demand == 0 {
			continue
		}
		c.users = append(c.users, u)
		fs := make([]Var, len(usr.Types))
		for i, t := range usr.Types {
			ub := math.Inf(1)
			if usr.TypeCaps != nil && usr.TypeCaps[i] != flow.Unbounded {
				ub = float64(usr.TypeCaps[i])
			}
			fs[i] = c.m.AddVar(0, ub)
			perType[t] = append(perType[t], Term{fs[i], 1})
		}
		c.f = append(c.f, fs)
		hi := math.Inf(1)
		if usr.Demand != flow.Unbounded {
			hi = float64(usr.Demand) / float64(usr.Weight)
		}
		c.hi = append(c.hi, hi)
		c.z = append(c.z, c.m.AddVar(0, hi))
	}
	c.M = c.m.AddVar(0, math.Inf(1))
	for t, terms := range perType {
		if len(terms) > 0 {
			c.m.AddConstraint(terms, LE, float64(p.Types[t]))
		}
	}
	for k, u := range c.users {
		terms := make([]Term, 0, len(c.f[k])+1)
		for _, v := range c.f[k] {
			terms = append(terms, Term{v, 1})
		}
		terms = append(terms, Term{c.z[k], -float64(p.Users[u].Weight)})
		c.m.AddConstraint(terms, EQ, 0)
	}
	c.lvl = make([]Row, len(c.users))
	for k := range c.users {
		c.lvl[k] = c.m.AddConstraint([]Term{{c.z[k], 1}, {c.M, -1}}, GE, 0)
	}
	c.frozen = make([]bool, len(c.users))
	c.floor = make([]float64, len(c.users))
	return c
}

// freeze fixes user k's level at ℓ: its level row goes and z_k ≥ ℓ
// stays. ℓ is an LP value, so the floors may sit above the exact levels by
// the LP's rounding, about 1e-12 relative at worst; later LPs stay
// feasible within the backends' tolerances (1e-9).
func (c *cmmfLP) freeze(k int, level float64) {
	c.frozen[k] = true
	c.floor[k] = level
	c.m.SetRHS(c.lvl[k], math.Inf(-1))
	c.m.SetBounds(c.z[k], math.Min(level, c.hi[k]), c.hi[k])
}

// solveRound solves the round LP, max M with every active user at level
// ≥ M and every frozen one at its floor, and returns the solution.
func (c *cmmfLP) solveRound(s Solver) (*Solution, error) {
	for k := range c.users {
		if !c.frozen[k] {
			c.m.SetBounds(c.z[k], 0, c.hi[k])
		}
	}
	c.m.SetBounds(c.M, 0, math.Inf(1))
	c.m.SetObjective([]Term{{c.M, 1}}, true)
	return c.solve(s)
}

// solveRaise solves a saturation LP at level mr: M is fixed at mr, every
// active user keeps level ≥ M, and the objective maximises Σ_{k ∈ test}
// z_k, where each tested z_k is also capped at mr+step (step may be +Inf).
func (c *cmmfLP) solveRaise(s Solver, mr float64, test []int, step float64) (*Solution, error) {
	c.m.SetBounds(c.M, mr, mr)
	obj := make([]Term, len(test))
	for i, k := range test {
		obj[i] = Term{c.z[k], 1}
		c.m.SetBounds(c.z[k], 0, math.Min(c.hi[k], mr+step))
	}
	c.m.SetObjective(obj, true)
	sol, err := c.solve(s)
	for _, k := range test {
		c.m.SetBounds(c.z[k], 0, c.hi[k])
	}
	return sol, err
}

func (c *cmmfLP) solve(s Solver) (*Solution, error) {
	c.lps++
	return s.Solve(&c.m)
}

// level returns z_k in sol.
func (c *cmmfLP) level(sol *Solution, k int) float64 { return sol.X[c.z[k]] }

// result assembles the CMMFResult from the floors, the rounds and the last
// LP solution (whose allocation realises the floors: the final vector is
// Pareto-optimal, so no user can sit above its floor).
func (c *cmmfLP) result(round []int, last *Solution) *CMMFResult {
	p := c.p
	res := &CMMFResult{
		Amount: make([]float64, len(p.Users)),
		Level:  make([]float64, len(p.Users)),
		Round:  make([]int, len(p.Users)),
		Alloc:  make([][]float64, len(p.Users)),
		LPs:    c.lps,
	}
	for u, usr := range p.Users {
		res.Alloc[u] = make([]float64, len(usr.Types))
		res.Round[u] = 1 // users without types or demand: level 0 in round 1
	}
	for k, u := range c.users {
		w := float64(p.Users[u].Weight)
		lvl := c.floor[k]
		amount := lvl * w
		if !math.IsInf(c.hi[k], 1) && math.Abs(lvl-c.hi[k]) <= snapTol*c.hi[k] {
			amount, lvl = float64(p.Users[u].Demand), c.hi[k]
		}
		res.Amount[u], res.Level[u], res.Round[u] = amount, lvl, round[k]
		if last != nil {
			for i, v := range c.f[k] {
				res.Alloc[u][i] = math.Max(0, last.X[v])
			}
		}
	}
	for _, r := range res.Round {
		res.Rounds = max(res.Rounds, r)
	}
	return res
}

// cmmfStart validates p and builds its LP.
func cmmfStart(p *flow.Problem) (*cmmfLP, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("lp: CMMF: %w", err)
	}
	return newCMMFLP(p), nil
}
