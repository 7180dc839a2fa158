package lp_test

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/lp"
)

// Maximise 3x + 2y subject to x + y ≤ 4, x + 3y ≤ 7 and 0 ≤ x ≤ 3.
func ExampleModel() {
	var m lp.Model
	x := m.AddVar(0, 3)
	y := m.AddVar(0, math.Inf(1))
	m.AddConstraint([]lp.Term{{Var: x, Coef: 1}, {Var: y, Coef: 1}}, lp.LE, 4)
	m.AddConstraint([]lp.Term{{Var: x, Coef: 1}, {Var: y, Coef: 3}}, lp.LE, 7)
	m.SetObjective([]lp.Term{{Var: x, Coef: 3}, {Var: y, Coef: 2}}, true)
	sol, err := lp.Default().Solve(&m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("objective %.4g at x=%.4g, y=%.4g\n", sol.Objective, sol.X[x], sol.X[y])
	// Output:
	// objective 11 at x=3, y=1
}

// Choosy (EuroSys 2013) Figure 5: nine machines, u1 on {m1, m2}, u2 on
// {m2..m5}, u3 on {m5..m9}.
func ExampleCMMF() {
	one := func(n int) []int64 {
		c := make([]int64, n)
		for i := range c {
			c[i] = 1
		}
		return c
	}
	p := &flow.Problem{Types: one(9), Users: []flow.User{
		{Weight: 1, Demand: flow.Unbounded, Types: []int{0, 1}},
		{Weight: 1, Demand: flow.Unbounded, Types: []int{1, 2, 3, 4}},
		{Weight: 1, Demand: flow.Unbounded, Types: []int{4, 5, 6, 7, 8}},
	}}
	res, err := lp.CMMF(p, lp.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	for u := range p.Users {
		fmt.Printf("u%d: %.4g machines, frozen in round %d\n", u+1, res.Amount[u], res.Round[u])
	}
	// Output:
	// u1: 2 machines, frozen in round 1
	// u2: 3 machines, frozen in round 2
	// u3: 4 machines, frozen in round 3
}
