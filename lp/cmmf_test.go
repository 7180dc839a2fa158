package lp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/flow"
)

// cmmfTol is the relative tolerance of CMMF levels against exact answers:
// the bar the LP result must meet against the exact flow solver.
const cmmfTol = 1e-9

// machines returns Types for a cluster of n single-machine types (the
// paper's examples list machines, not types).
func machines(n int) []int64 {
	c := make([]int64, n)
	for i := range c {
		c[i] = 1
	}
	return c
}

// span returns the 0-based type indices of machines m_a..m_b (1-based).
func span(a, b int) []int {
	var s []int
	for m := a; m <= b; m++ {
		s = append(s, m-1)
	}
	return s
}

func user(types ...int) flow.User { return flow.User{Weight: 1, Demand: flow.Unbounded, Types: types} }

// cmmfCase is a CMMF instance with a hand-computed answer.
type cmmfCase struct {
	name   string
	p      flow.Problem
	amount []float64
	round  []int
}

var cmmfCases = []cmmfCase{
	{
		// Choosy Figure 1: u1 and u2 together reach only {m1, m3, m4}:
		// 1.5 each, round 1. That uses up m3 and m4, so u3 reaches only
		// {m2, m6, m7}: 3, less than the 7/2 it would share with u4 on
		// {m2, m5..m10}; u3 freezes at 3 in round 2 and u4 takes the
		// remaining 4 in round 3.
		name: "choosy figure 1",
		p: flow.Problem{Types: machines(10), Users: []flow.User{
			user(0, 3),           // c1 = {m1, m4}
			user(2, 3),           // c2 = {m3, m4}
			user(1, 2, 3, 5, 6),  // c3 = {m2, m3, m4, m6, m7}
			user(span(5, 10)...), // c4 = {m5..m10}
		}},
		amount: []float64{1.5, 1.5, 3, 4},
		round:  []int{1, 1, 2, 3},
	},
	{
		// Choosy Figure 3: u1 on {m1, m2, m3} gets all 3 (blocked at 3 in
		// round 1, since 3 < 10/2); u2 gets the other 7 (round 2).
		name: "choosy figure 3",
		p: flow.Problem{Types: machines(10), Users: []flow.User{
			user(span(1, 3)...),
			user(span(1, 10)...),
		}},
		amount: []float64{3, 7},
		round:  []int{1, 2},
	},
	{
		// Choosy §5 example: c1 = {m1, m2}, c2 = {m2..m5}. M1 = 2 with u1
		// blocked (its two machines are all it can use); u2 then has 3.
		name: "choosy section 5",
		p: flow.Problem{Types: machines(5), Users: []flow.User{
			user(span(1, 2)...),
			user(span(2, 5)...),
		}},
		amount: []float64{2, 3},
		round:  []int{1, 2},
	},
	{
		// Choosy Figure 5: c1 = {m1, m2}, c2 = {m2..m5}, c3 = {m5..m9}.
		// M1 = 2 (u1 blocked), M2 = 3 (u2 blocked: {m2..m5} minus what u1
		// needs), M3 = 4 (u3 takes {m6..m9}).
		name: "choosy figure 5",
		p: flow.Problem{Types: machines(9), Users: []flow.User{
			user(span(1, 2)...),
			user(span(2, 5)...),
			user(span(5, 9)...),
		}},
		amount: []float64{2, 3, 4},
		round:  []int{1, 2, 3},
	},
	{
		// Figure 5 with identical machines coalesced into types {m1},
		// {m2}, {m3, m4}, {m5}, {m6..m9}: the same answer.
		name: "choosy figure 5 coalesced",
		p: flow.Problem{Types: []int64{1, 1, 2, 1, 4}, Users: []flow.User{
			user(0, 1),
			user(1, 2, 3),
			user(3, 4),
		}},
		amount: []float64{2, 3, 4},
		round:  []int{1, 2, 3},
	},
	{
		// Weights 1 and 2 on one type of 9: levels equal, 9/3 = 3, so
		// amounts 3 and 6, both in round 1.
		name: "weighted",
		p: flow.Problem{Types: []int64{9}, Users: []flow.User{
			{Weight: 1, Demand: flow.Unbounded, Types: []int{0}},
			{Weight: 2, Demand: flow.Unbounded, Types: []int{0}},
		}},
		amount: []float64{3, 6},
		round:  []int{1, 1},
	},
	{
		// Demands: 10 machines, u1 wants 2 (reached at level 2 < 10/3,
		// round 1), u2 and u3 share the other 8: 4 each (round 2). u4 has
		// no types and u5 demand 0: both 0, round 1.
		name: "demand caps and empty users",
		p: flow.Problem{Types: []int64{10}, Users: []flow.User{
			{Weight: 1, Demand: 2, Types: []int{0}},
			{Weight: 1, Demand: flow.Unbounded, Types: []int{0}},
			{Weight: 1, Demand: 7, Types: []int{0}},
			{Weight: 3, Demand: flow.Unbounded},
			{Weight: 1, Demand: 0, Types: []int{0}},
		}},
		amount: []float64{2, 4, 4, 0, 0},
		round:  []int{1, 2, 2, 1, 1},
	},
	{
		// Weight 3 user capped at demand 3 (level 1) against a weight 1
		// user on 6 machines: at level 1.5 the first would need 4.5 > 3,
		// so it freezes at level 1 (round 1) and the other gets 3
		// (level 3, round 2).
		name: "weighted demand",
		p: flow.Problem{Types: []int64{6}, Users: []flow.User{
			{Weight: 3, Demand: 3, Types: []int{0}},
			{Weight: 1, Demand: flow.Unbounded, Types: []int{0}},
		}},
		amount: []float64{3, 3},
		round:  []int{1, 2},
	},
	{
		name:   "no users",
		p:      flow.Problem{Types: []int64{3}},
		amount: []float64{},
		round:  []int{},
	},
}

// cmmfAlgorithms are the drivers under test.
var cmmfAlgorithms = []struct {
	name string
	f    func(*flow.Problem, Solver) (*CMMFResult, error)
}{
	{"CMMF", CMMF},
	{"CMMFPaper", CMMFPaper},
}

func TestCMMFExamples(t *testing.T) {
	eachBackend(t, func(t *testing.T, s Solver) {
		for _, alg := range cmmfAlgorithms {
			for _, tc := range cmmfCases {
				t.Run(alg.name+"/"+tc.name, func(t *testing.T) {
					res, err := alg.f(&tc.p, s)
					if err != nil {
						t.Fatal(err)
					}
					if diff := diffFloats(tc.amount, res.Amount, cmmfTol); diff != "" {
						t.Errorf("amounts (-want +got):\n%s", diff)
					}
					if fmt.Sprint(tc.round) != fmt.Sprint(res.Round) {
						t.Errorf("rounds = %v, want %v", res.Round, tc.round)
					}
					checkAlloc(t, &tc.p, res)
				})
			}
		}
	})
}

func TestCMMFInvalid(t *testing.T) {
	p := &flow.Problem{Types: []int64{1}, Users: []flow.User{{Weight: 0, Types: []int{0}}}}
	for _, alg := range cmmfAlgorithms {
		if _, err := alg.f(p, Simplex{}); !errors.Is(err, flow.ErrInvalid) {
			t.Errorf("%s: err = %v, want flow.ErrInvalid", alg.name, err)
		}
	}
}

// diffFloats lists the entries of got that differ from want by more than
// tol relative (to max(1, |want|)), as "-want +got" lines.
func diffFloats(want, got []float64, tol float64) string {
	if len(want) != len(got) {
		return fmt.Sprintf("-len %d\n+len %d\n", len(want), len(got))
	}
	var s string
	for i := range want {
		if math.Abs(want[i]-got[i]) > tol*math.Max(1, math.Abs(want[i])) {
			s += fmt.Sprintf("[%d] -%v +%v\n", i, want[i], got[i])
		}
	}
	return s
}

// checkAlloc checks that res is a feasible allocation of p consistent with
// its own amounts and levels: Σ_u Alloc ≤ c_t, Σ Alloc[u] = Amount[u] ≤ d_u,
// Level = Amount/w, all non-negative.
func checkAlloc(t *testing.T, p *flow.Problem, res *CMMFResult) {
	t.Helper()
	used := make([]float64, len(p.Types))
	for u, usr := range p.Users {
		if len(res.Alloc[u]) != len(usr.Types) {
			t.Fatalf("user %d: %d allocations for %d types", u, len(res.Alloc[u]), len(usr.Types))
		}
		var sum float64
		for i, a := range res.Alloc[u] {
			if a < 0 {
				t.Errorf("user %d: negative allocation %v", u, a)
			}
			sum += a
			used[usr.Types[i]] += a
		}
		scale := math.Max(1, res.Amount[u])
		if math.Abs(sum-res.Amount[u]) > cmmfTol*scale {
			t.Errorf("user %d: allocations sum to %v, amount %v", u, sum, res.Amount[u])
		}
		if usr.Demand != flow.Unbounded && res.Amount[u] > float64(usr.Demand)*(1+cmmfTol) {
			t.Errorf("user %d: amount %v above demand %d", u, res.Amount[u], usr.Demand)
		}
		if math.Abs(res.Level[u]*float64(usr.Weight)-res.Amount[u]) > cmmfTol*scale {
			t.Errorf("user %d: level %v · weight %d ≠ amount %v", u, res.Level[u], usr.Weight, res.Amount[u])
		}
	}
	for ty, c := range p.Types {
		if used[ty] > float64(c)*(1+cmmfTol) {
			t.Errorf("type %d: %v allocated of %d", ty, used[ty], c)
		}
	}
}

// randomProblem draws a seeded CMMF instance: types with 1..maxCount
// machines; users eligible on 7–100% of the types (at least one), weights
// 1–4, and a demand cap with probability 0.3, up to twice a fair share.
func randomProblem(rng *rand.Rand, users, types int, maxCount int64) *flow.Problem {
	p := &flow.Problem{Types: make([]int64, types), Users: make([]flow.User, users)}
	var total int64
	for t := range p.Types {
		p.Types[t] = 1 + rng.Int64N(maxCount)
		total += p.Types[t]
	}
	for u := range p.Users {
		frac := 0.07 + 0.93*rng.Float64()
		k := max(1, int(math.Round(frac*float64(types))))
		perm := rng.Perm(types)[:k]
		ts := make([]int, types)
		for _, t := range perm {
			ts[t] = 1
		}
		var eligible []int
		for t, in := range ts {
			if in == 1 {
				eligible = append(eligible, t)
			}
		}
		demand := flow.Unbounded
		if rng.Float64() < 0.3 {
			demand = 1 + rng.Int64N(max(1, 2*total/int64(users)))
		}
		p.Users[u] = flow.User{Weight: 1 + rng.Int64N(4), Demand: demand, Types: eligible}
	}
	return p
}
