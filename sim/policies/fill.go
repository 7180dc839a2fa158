package policies

import "github.com/capplan/capplan/sim"

// filler places the runnable tasks of jobs in a given order: each job's
// groups in intra order, each group's tasks while they fit, blocking a
// group whose head fits nowhere (SIMULATE.md §3.0). It keeps its scratch
// space between Rounds, so a Round allocates nothing in steady state.
type filler struct {
	place  Placement
	groups []int32
}

// fillJob places job j's runnable tasks while they fit and reports
// whether it placed any.
func (f *filler) fillJob(s *sim.State, p *sim.Planner, j sim.JobID) bool {
	jv := s.Job(j)
	f.groups = append(f.groups[:0], jv.Groups()...)
	placed := false
	for _, si := range f.groups {
		g := sim.GroupRef{Job: j, Stage: si}
		if s.Blocked(g) {
			continue
		}
		gv := s.Group(g)
		for gv.Len() > 0 {
			t := gv.Head()
			m := f.place.Choose(s, t)
			if m == sim.NoMachine {
				p.Block(g)
				break
			}
			if p.Place(t, m) != nil {
				p.Block(g)
				break
			}
			placed = true
			if !s.IsActive(j) {
				return true
			}
		}
	}
	return placed
}

// hasRunnable reports whether active job j still has unblocked runnable
// groups.
func hasRunnable(s *sim.State, j sim.JobID) bool {
	if !s.IsActive(j) {
		return false
	}
	for _, si := range s.Job(j).Groups() {
		if !s.Blocked(sim.GroupRef{Job: j, Stage: si}) {
			return true
		}
	}
	return false
}
