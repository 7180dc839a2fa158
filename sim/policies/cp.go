package policies

import "github.com/capplan/capplan/sim"

// CPParams are the parameters of cp.
type CPParams struct {
	Place Placement
}

func (p *CPParams) bind(b *binder) { b.placement(&p.Place) }

// cp is critical path first across jobs (SIMULATE.md §3.1; Graphene's
// CPSched, §2.2): repeatedly take the runnable group whose head has the
// largest bottom level blevel (the longest estimated path from it to a
// sink, itself included; ties: job ordinal, then stage), and place its
// head on the best-aligned machine (align, K = all). A head that fits
// nowhere blocks its group. On one job this is dag's "cp" list scheduler
// (the parallel SGS with the CP rule) exactly. Work-conserving.
type cp struct {
	place Placement
	heap  []sim.GroupRef
	keys  []int64
}

func init() {
	register(typed("cp", "critical path first: the runnable task with the longest path to its job's end, best-aligned machine",
		CPParams{Place: Placement{Rule: PlaceAlign, K: 0}}, (*CPParams).bind,
		func(p CPParams) sim.Policy { return &cp{place: p.Place} }))
}

func (c *cp) Name() string { return "cp" }

func (c *cp) Traits() sim.Traits { return sim.Traits{Intra: sim.IntraCP, WorkConserving: true} }

func (c *cp) Round(s *sim.State, p *sim.Planner) {
	c.heap, c.keys = c.heap[:0], c.keys[:0]
	for _, j := range s.RunnableJobs() {
		for _, si := range s.Job(j).Groups() {
			c.push(s, sim.GroupRef{Job: j, Stage: si})
		}
	}
	for len(c.heap) > 0 {
		g := c.pop()
		gv := s.Group(g)
		t := gv.Head()
		m := c.place.Choose(s, t)
		if m == sim.NoMachine || p.Place(t, m) != nil {
			p.Block(g)
			continue
		}
		if s.IsActive(g.Job) && gv.Len() > 0 {
			c.push(s, g)
		}
	}
}

// less orders groups by (head key = −blevel, job, stage).
func (c *cp) less(i, k int) bool {
	if c.keys[i] != c.keys[k] {
		return c.keys[i] < c.keys[k]
	}
	a, b := c.heap[i], c.heap[k]
	if a.Job != b.Job {
		return a.Job < b.Job
	}
	return a.Stage < b.Stage
}

func (c *cp) swap(i, k int) {
	c.heap[i], c.heap[k] = c.heap[k], c.heap[i]
	c.keys[i], c.keys[k] = c.keys[k], c.keys[i]
}

func (c *cp) push(s *sim.State, g sim.GroupRef) {
	c.heap = append(c.heap, g)
	c.keys = append(c.keys, s.Task(s.Group(g).Head()).Key())
	for i := len(c.heap) - 1; i > 0; {
		q := (i - 1) / 2
		if !c.less(i, q) {
			break
		}
		c.swap(i, q)
		i = q
	}
}

func (c *cp) pop() sim.GroupRef {
	top := c.heap[0]
	n := len(c.heap) - 1
	c.swap(0, n)
	c.heap, c.keys = c.heap[:n], c.keys[:n]
	for i := 0; ; {
		k := 2*i + 1
		if k >= n {
			break
		}
		if k+1 < n && c.less(k+1, k) {
			k++
		}
		if !c.less(k, i) {
			break
		}
		c.swap(i, k)
		i = k
	}
	return top
}
