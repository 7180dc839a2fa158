package flow

import (
	"math/rand/v2"
)

// machines returns the type indices of single machines m_a..m_b (1-based,
// inclusive) in the paper's examples, where every machine is its own type.
func machines(ids ...int) []int {
	out := make([]int, len(ids))
	for i, m := range ids {
		out[i] = m - 1
	}
	return out
}

func span(a, b int) []int {
	var out []int
	for m := a; m <= b; m++ {
		out = append(out, m-1)
	}
	return out
}

func ones(n int) []int64 {
	c := make([]int64, n)
	for i := range c {
		c[i] = 1
	}
	return c
}

func unweighted(types ...[]int) []User {
	us := make([]User, len(types))
	for i, ts := range types {
		us[i] = User{Weight: 1, Demand: Unbounded, Types: ts}
	}
	return us
}

// paperCase is a known-answer instance from the Choosy paper (Ghodsi et
// al., EuroSys'13), each machine its own type.
type paperCase struct {
	name     string
	p        Problem
	want     []Rat // divisible amounts
	rounds   []int // divisible saturation rounds, if the paper shows them
	integral []int64
}

var paperCases = []paperCase{
	{
		// Figure 1: c1={m1,m4}, c2={m3,m4}, c3={m2,m3,m4,m6,m7},
		// c4={m5..m10}. u1,u2 split m1,m3,m4 (1.5 each); u3 keeps m2,m6,m7;
		// u4 the remaining four (§4.2).
		name: "figure1",
		p: Problem{Types: ones(10), Users: unweighted(
			machines(1, 4), machines(3, 4), machines(2, 3, 4, 6, 7), span(5, 10))},
		want:     []Rat{NewRat(3, 2), NewRat(3, 2), Int(3), Int(4)},
		rounds:   []int{1, 1, 2, 3},
		integral: []int64{2, 1, 3, 4}, // Figure 4 (or 1,2,3,4: same sorted vector)
	},
	{
		// Figure 3: u1 on m1..m3, u2 on all ten: 3 and 7.
		name:     "figure3",
		p:        Problem{Types: ones(10), Users: unweighted(span(1, 3), span(1, 10))},
		want:     []Rat{Int(3), Int(7)},
		rounds:   []int{1, 2},
		integral: []int64{3, 7},
	},
	{
		// §5: five machines, c1={m1,m2}, c2={m2..m5}: M1=2, then u2 gets 3.
		name:     "section5",
		p:        Problem{Types: ones(5), Users: unweighted(span(1, 2), span(2, 5))},
		want:     []Rat{Int(2), Int(3)},
		rounds:   []int{1, 2},
		integral: []int64{2, 3},
	},
	{
		// Figure 5: nine machines, c1={m1,m2}, c2={m2..m5}, c3={m5..m9}:
		// round 1 all at 2, round 2 u2,u3 at 3, round 3 u3 at 4.
		name:     "figure5",
		p:        Problem{Types: ones(9), Users: unweighted(span(1, 2), span(2, 5), span(5, 9))},
		want:     []Rat{Int(2), Int(3), Int(4)},
		rounds:   []int{1, 2, 3},
		integral: []int64{2, 3, 4},
	},
	{
		// Coalesced: the Figure 3 instance as two types (3 machines both
		// may use, 7 only u2 may use).
		name:     "figure3-types",
		p:        Problem{Types: []int64{3, 7}, Users: unweighted([]int{0}, []int{0, 1})},
		want:     []Rat{Int(3), Int(7)},
		rounds:   []int{1, 2},
		integral: []int64{3, 7},
	},
	{
		// Weighted, with a demand cap: 10 shared machines, weights 1,2,2;
		// u3 wants at most 2. Levels: u3 capped at 1 (2 machines), then u1,u2
		// split 8 machines 1:2 → 8/3 and 16/3.
		name: "weighted-capped",
		p: Problem{Types: []int64{10}, Users: []User{
			{Weight: 1, Demand: Unbounded, Types: []int{0}},
			{Weight: 2, Demand: Unbounded, Types: []int{0}},
			{Weight: 2, Demand: 2, Types: []int{0}},
		}},
		want:   []Rat{NewRat(8, 3), NewRat(16, 3), Int(2)},
		rounds: []int{2, 2, 1},
		// integral leximin: levels (x1, x2/2): 3,5 → (3, 2.5); 2,6 → (2, 3):
		// sorted (1,2.5,3) beats (1,2,3).
		integral: []int64{3, 5, 2},
	},
	{
		// ALGORITHMS.md §5.5 counterexample to box rounding: weights
		// (3,1,4,3); users 2–4 share one type with 2 machines; user 1 has no
		// type. Leximin gives the weight-4 user nothing.
		name: "box-rounding-counterexample",
		p: Problem{Types: []int64{2}, Users: []User{
			{Weight: 3, Demand: Unbounded},
			{Weight: 1, Demand: Unbounded, Types: []int{0}},
			{Weight: 4, Demand: Unbounded, Types: []int{0}},
			{Weight: 3, Demand: Unbounded, Types: []int{0}},
		}},
		want:     []Rat{Int(0), NewRat(1, 4), Int(1), NewRat(3, 4)},
		rounds:   []int{0, 1, 1, 1},
		integral: []int64{0, 1, 0, 1},
	},
}

// randomProblem draws a small instance: nu users, nt types with counts in
// [1,maxCount], weights in [1,maxW] and, with probability 1/3, a demand.
func randomProblem(rng *rand.Rand, nu, nt int, maxCount, maxW int64) *Problem {
	p := &Problem{Types: make([]int64, nt), Users: make([]User, nu)}
	for t := range p.Types {
		p.Types[t] = 1 + rng.Int64N(maxCount)
	}
	for u := range p.Users {
		var ts []int
		for t := 0; t < nt; t++ {
			if rng.IntN(2) == 0 {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 && rng.IntN(4) > 0 {
			ts = []int{rng.IntN(nt)}
		}
		d := Unbounded
		if rng.IntN(3) == 0 {
			d = rng.Int64N(maxCount*int64(nt)/2 + 2)
		}
		p.Users[u] = User{Weight: 1 + rng.Int64N(maxW), Demand: d, Types: ts}
	}
	return p
}
