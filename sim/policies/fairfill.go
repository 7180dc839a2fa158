package policies

import (
	"github.com/capplan/capplan/sim"
)

// fairFill is weighted progressive filling (Ghodsi et al., NSDI'11; the
// Capacity Scheduler's queue choice): repeatedly take the entity of least
// weighted dominant share Dom(U_e)/w_e (ties: id), compared exactly, and
// place its next task — jobs by arrival, groups in intra order, skipping
// blocked groups. A group whose head fits nowhere is blocked; an entity
// with nothing placeable left, or whose next task would exceed its cap,
// drops out for the Round. Used by drf (entities = users or jobs) and
// capacity (entities = queues = users).
type fairFill struct {
	byJob bool // entities are jobs (weight 1) instead of users
	place Placement
	// capOK, when set, says whether entity e may take demand r next.
	capOK func(s *sim.State, e int32, r sim.Vec) bool
	// allow, when set, says whether group g may place its head now
	// (carbyne's must-start limits); placed is told of every placement.
	allow  func(g sim.GroupRef) bool
	placed func(g sim.GroupRef)

	ents  []fairEnt
	heap  []int32 // indices into ents
	jobs  [][]sim.JobID
	index []int32 // entity → index in ents, −1
}

type fairEnt struct {
	id     int32
	weight int64
	jobs   []sim.JobID // runnable jobs in ordinal order
	cursor int         // first job that may still have unblocked groups
}

func (f *fairFill) usage(s *sim.State, e *fairEnt) sim.Vec {
	if f.byJob {
		return s.Job(sim.JobID(e.id)).Usage()
	}
	return s.User(sim.UserID(e.id)).Usage()
}

func (f *fairFill) less(s *sim.State, a, b int32) bool {
	ea, eb := &f.ents[a], &f.ents[b]
	if c := sim.CompareShares(f.usage(s, ea), ea.weight, f.usage(s, eb), eb.weight, s.C()); c != 0 {
		return c < 0
	}
	return ea.id < eb.id
}

// collect groups the runnable jobs by entity.
func (f *fairFill) collect(s *sim.State) {
	for i := range f.ents {
		f.ents[i].jobs = f.ents[i].jobs[:0]
	}
	f.ents = f.ents[:0]
	if !f.byJob {
		if len(f.index) < s.NumUsers() {
			f.index = make([]int32, s.NumUsers())
		}
		for i := range f.index {
			f.index[i] = -1
		}
	}
	for _, j := range s.RunnableJobs() {
		if f.byJob {
			f.ents = append(f.ents, fairEnt{id: int32(j), weight: 1, jobs: []sim.JobID{j}})
			continue
		}
		u := s.Job(j).User()
		k := f.index[u]
		if k < 0 {
			k = int32(len(f.ents))
			f.index[u] = k
			if int(k) < cap(f.ents) {
				f.ents = f.ents[:k+1]
				f.ents[k].id, f.ents[k].weight, f.ents[k].cursor = int32(u), s.User(u).Weight(), 0
			} else {
				f.ents = append(f.ents, fairEnt{id: int32(u), weight: s.User(u).Weight()})
			}
		}
		f.ents[k].jobs = append(f.ents[k].jobs, j)
	}
}

// round runs progressive filling until no entity can place.
func (f *fairFill) round(s *sim.State, p *sim.Planner) {
	f.collect(s)
	f.heap = f.heap[:0]
	for i := range f.ents {
		f.heap = append(f.heap, int32(i))
		f.up(s, len(f.heap)-1)
	}
	for len(f.heap) > 0 {
		e := f.heap[0]
		if f.next(s, p, &f.ents[e]) {
			f.down(s, 0) // its share grew
			continue
		}
		last := len(f.heap) - 1
		f.heap[0] = f.heap[last]
		f.heap = f.heap[:last]
		if last > 0 {
			f.down(s, 0)
		}
	}
}

// next places entity e's next placeable task and reports whether it did.
func (f *fairFill) next(s *sim.State, p *sim.Planner, e *fairEnt) bool {
	for ; e.cursor < len(e.jobs); e.cursor++ {
		j := e.jobs[e.cursor]
		if !s.IsActive(j) {
			continue
		}
		for _, si := range s.Job(j).Groups() {
			g := sim.GroupRef{Job: j, Stage: si}
			if s.Blocked(g) || f.allow != nil && !f.allow(g) {
				continue
			}
			t := s.Group(g).Head()
			if f.capOK != nil && !f.capOK(s, e.id, s.Task(t).Demand()) {
				return false // the next task would exceed the cap
			}
			m := f.place.Choose(s, t)
			if m == sim.NoMachine || p.Place(t, m) != nil {
				p.Block(g)
				return f.next(s, p, e) // groups changed: rescan this job
			}
			if f.placed != nil {
				f.placed(g)
			}
			return true
		}
	}
	return false
}

func (f *fairFill) up(s *sim.State, i int) {
	h := f.heap
	for i > 0 {
		q := (i - 1) / 2
		if !f.less(s, h[i], h[q]) {
			break
		}
		h[i], h[q] = h[q], h[i]
		i = q
	}
}

func (f *fairFill) down(s *sim.State, i int) {
	h := f.heap
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && f.less(s, h[c+1], h[c]) {
			c++
		}
		if !f.less(s, h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
