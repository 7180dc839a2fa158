package policies

import (
	"fmt"

	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/sim"
)

// solve runs the exact integral CMMF solver; a failure is a bug (the
// problems built here always satisfy its contract).
func (c *cmmf) solve(prob *flow.Problem) *flow.Result {
	res, err := flow.Integral(prob)
	if err != nil {
		panic(fmt.Sprintf("policies: %s: CMMF solve: %v", c.Name(), err))
	}
	c.stats.solves++
	c.stats.maxFlows += int64(res.MaxFlows)
	return res
}

// restricted moves the cluster to the restricted offline allocation: the
// free slots of each type go where the leximin optimum over
// x_u = held_u + (new slots of u) sends them.
func (c *cmmf) restricted(s *sim.State, p *sim.Planner) {
	v := &c.v
	K := len(v.free)
	typeOf := make([]int, K)
	var prob flow.Problem
	var classOfType []sim.ClassID
	for cl, f := range v.free {
		typeOf[cl] = -1
		if f > 0 {
			typeOf[cl] = len(prob.Types)
			classOfType = append(classOfType, sim.ClassID(cl))
			prob.Types = append(prob.Types, f)
		}
	}
	if len(prob.Types) == 0 {
		return
	}
	free := len(prob.Types)
	held := make([]int64, len(v.users))
	for i, u := range v.users {
		held[i] = int64(s.User(u).Running())
		var ts []int
		for _, cl := range v.elig[i] {
			if t := typeOf[cl]; t >= 0 {
				ts = append(ts, t)
			}
		}
		if held[i] > 0 { // the user's running tasks: a type only it may use
			ts = append(ts, len(prob.Types))
			prob.Types = append(prob.Types, held[i])
		}
		prob.Users = append(prob.Users, flow.User{Weight: s.User(u).Weight(), Demand: held[i] + v.runnable[i], Types: ts})
	}
	res := c.solve(&prob)
	for i, u := range v.users {
		want := res.Amount[i].Num - held[i] // new slots; the private type holds the rest
		for k, t := range prob.Users[i].Types {
			if t >= free || want == 0 {
				break
			}
			n := min(res.Alloc[i][k].Num, want)
			want -= n
			placeOn(s, p, u, classOfType[t], n, false)
		}
	}
	fillLeftover(s, p)
}

// reshuffle moves the cluster to the CMMF allocation of all slots:
// with migrate, running tasks are floors and the surplus migrates; without,
// the surplus is suspended.
func (c *cmmf) reshuffle(s *sim.State, p *sim.Planner, migrate bool) {
	v := &c.v
	var prob flow.Problem
	typeOf := make([]int, len(v.total))
	var classOfType []int
	for cl, n := range v.total {
		typeOf[cl] = -1
		if n > 0 {
			typeOf[cl] = len(prob.Types)
			classOfType = append(classOfType, cl)
			prob.Types = append(prob.Types, n)
		}
	}
	if migrate {
		prob.Floors = make([]int64, len(v.users))
	}
	for i, u := range v.users {
		var ts []int
		for _, cl := range v.elig[i] {
			if t := typeOf[cl]; t >= 0 {
				ts = append(ts, t)
			}
		}
		prob.Users = append(prob.Users, flow.User{Weight: s.User(u).Weight(), Demand: v.running[i] + v.runnable[i], Types: ts})
		if migrate {
			prob.Floors[i] = v.running[i]
		}
	}
	res := c.solve(&prob)
	target := keepTargets(res, &prob, v, classOfType)
	if migrate {
		c.migrateTo(s, p, target)
	} else {
		c.preemptTo(s, p, target)
	}
	fillLeftover(s, p)
}

// keepTargets splits every user's CMMF total over the types so that as
// many of its tasks as possible stay where they run: a max flow that first
// routes each user's running tasks on their own types (arcs capped at the
// current counts), then, with the other eligible arcs opened, augments to
// the totals. It returns target[i][class].
func keepTargets(res *flow.Result, prob *flow.Problem, v *cmmfView, classOfType []int) [][]int64 {
	n, T := len(prob.Users), len(prob.Types)
	g := flow.NewGraph(2 + n + T)
	const src, sink = 0, 1
	type arcs struct{ keep, more []int }
	ua := make([]arcs, n)
	for i := range prob.Users {
		g.AddArc(src, 2+i, res.Amount[i].Num)
		for _, t := range prob.Users[i].Types {
			ua[i].keep = append(ua[i].keep, g.AddArc(2+i, 2+n+t, v.on[i][classOfType[t]]))
			ua[i].more = append(ua[i].more, g.AddArc(2+i, 2+n+t, 0))
		}
	}
	for t, c := range prob.Types {
		g.AddArc(2+n+t, sink, c)
	}
	g.MaxFlow(src, sink)
	for i := range ua {
		for _, a := range ua[i].more {
			g.SetCap(a, flow.Inf)
		}
	}
	g.MaxFlow(src, sink)
	target := make([][]int64, n)
	for i := range prob.Users {
		target[i] = make([]int64, len(v.total))
		var sum int64
		for k, t := range prob.Users[i].Types {
			y := g.Flow(ua[i].keep[k]) + g.Flow(ua[i].more[k])
			target[i][classOfType[t]] = y
			sum += y
		}
		if sum != res.Amount[i].Num {
			panic(fmt.Sprintf("policies: CMMF targets: user %d routed %d of %d slots", i, sum, res.Amount[i].Num))
		}
	}
	return target
}
