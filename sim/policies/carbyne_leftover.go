package policies

import (
	"cmp"
	"slices"

	"github.com/capplan/capplan/sim"
)

// srtf is the leftover step: jobs by (remaining work, dominant share,
// ordinal), each placing its best-aligned runnable task on its best
// machine while any fits.
func (c *carbyne) srtf(s *sim.State, p *sim.Planner) {
	c.order = c.order[:0]
	for _, j := range s.RunnableJobs() {
		jv := s.Job(j)
		c.order = append(c.order, keyed2{jv.Work(), s.Dom(jv.Usage()), j})
	}
	sortKeyed2(c.order)
	for _, k := range c.order {
		for c.leftoverOne(s, p, k.id) {
		}
	}
}

// leftoverOne places job j's best-aligned runnable head on its machine,
// blocking groups that fit nowhere, and reports whether it placed one.
func (c *carbyne) leftoverOne(s *sim.State, p *sim.Planner, j sim.JobID) bool {
	if !s.IsActive(j) {
		return false
	}
	c.groups = append(c.groups[:0], s.Job(j).Groups()...)
	var bt sim.TaskRef
	bm := sim.NoMachine
	var best float64
	for _, si := range c.groups {
		g := sim.GroupRef{Job: j, Stage: si}
		if s.Blocked(g) {
			continue
		}
		t := s.Group(g).Head()
		m := c.p.Place.Choose(s, t)
		if m == sim.NoMachine {
			p.Block(g)
			continue
		}
		mv := s.Machine(m)
		if a := Align(s.Task(t).Demand(), mv.Free(), mv.Cap()); bm == sim.NoMachine || a > best {
			bt, bm, best = t, m, a
		}
	}
	if bm == sim.NoMachine {
		return false
	}
	if p.Place(bt, bm) != nil {
		p.Block(sim.GroupRef{Job: j, Stage: s.Task(bt).Stage()})
	} else {
		c.stats.leftover++
	}
	return true
}

func sortKeyed2(a []keyed2) {
	slices.SortFunc(a, func(x, y keyed2) int {
		if c := cmp.Compare(x.work, y.work); c != 0 {
			return c
		}
		if c := cmp.Compare(x.dom, y.dom); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
}
