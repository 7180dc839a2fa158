package policies

import (
	"errors"

	"github.com/capplan/capplan/sim"
)

// DRFAMParams are the parameters of drf-am.
type DRFAMParams struct {
	// AMShare caps the containers AMs may hold together, as a fraction
	// of all containers [RECALLED: Hadoop Fair Scheduler maxAMShare, 0.5].
	AMShare float64
	// Order is the order in which jobs with an AM place their tasks:
	// "drf", least dominant share first (YARN's FairScheduler with its
	// drf policy), or "fifo", by arrival (YARN's CapacityScheduler, whose
	// queues order applications FIFO and measure them by dominant
	// resource).
	Order string
	Intra sim.Intra
}

func (p *DRFAMParams) bind(b *binder) {
	b.number("amshare", &p.AMShare, 0, 1, "most of the containers the jobs' AMs may hold together (fraction)")
	b.choice("order", &p.Order, []string{"drf", "fifo"}, "the jobs' order: drf (least dominant share first) or fifo (by arrival, as YARN's CapacityScheduler)")
	b.intra(&p.Intra)
}

// drfAM is YARN's DRF with job-level application masters, X-Flex's
// comparator [SEED xflex §3; SIMULATE.md §2.3 W-XFLEX]: "DRF schedules at
// the job level, more containers were needed for the AMs". Each active job
// first takes a free container for its AM, which it holds, unused and
// uncharged, until it finishes (jobs in arrival order, while the AMs hold
// at most amshare of the containers, so that tasks always keep some);
// then jobs with an AM fill the other containers by progressive filling
// of their dominant shares (entity = job, weight 1), or with order=fifo
// each in turn by arrival, each task on its first fitting container. In
// container mode the shares are charged by container size.
type drfAM struct {
	p     DRFAMParams
	am    map[sim.JobID]sim.MachineID
	held  []bool
	nHeld int
	jobs  []sim.JobID
}

func init() {
	register(typed("drf-am", "DRF over jobs in which every job first holds a container for its application master (YARN; X-Flex's comparator)",
		DRFAMParams{AMShare: 0.5, Order: "drf"}, (*DRFAMParams).bind, func(p DRFAMParams) sim.Policy { return &drfAM{p: p, am: map[sim.JobID]sim.MachineID{}} }))
}

func (d *drfAM) Name() string { return "drf-am" }

func (d *drfAM) Traits() sim.Traits { return sim.Traits{Intra: d.p.Intra} }

// CheckCluster reports whether an AM can hold a container and leave one
// for tasks.
func (d *drfAM) CheckCluster(c *sim.Cluster, _ []sim.User) error {
	if len(c.Machines) < 2 {
		return errors.New("drf-am needs at least two machines (containers): one for an AM, one for its tasks")
	}
	return nil
}

// JobArrived implements sim.Observer.
func (d *drfAM) JobArrived(*sim.State, sim.JobID) {}

// TaskStarted implements sim.Observer.
func (d *drfAM) TaskStarted(*sim.State, sim.TaskRef, sim.MachineID) {}

// TaskEnded implements sim.Observer.
func (d *drfAM) TaskEnded(*sim.State, sim.TaskRef, sim.MachineID, sim.EndKind) {}

// JobFinished implements sim.Observer: the job's AM container is free
// again.
func (d *drfAM) JobFinished(_ *sim.State, j sim.JobID) {
	if m, ok := d.am[j]; ok {
		d.held[m] = false
		d.nHeld--
		delete(d.am, j)
	}
}

// AMHolders returns, per container, the user whose job's AM holds it now
// (NoUser when none), for X-Sight's snapshots.
func (d *drfAM) AMHolders(s *sim.State) []sim.UserID {
	out := make([]sim.UserID, s.NumMachines())
	for i := range out {
		out[i] = sim.NoUser
	}
	for _, j := range s.ActiveJobs() {
		if m, ok := d.am[j]; ok {
			out[m] = s.Job(j).User()
		}
	}
	return out
}

func (d *drfAM) Round(s *sim.State, p *sim.Planner) {
	if d.held == nil {
		d.held = make([]bool, s.NumMachines())
	}
	limit := min(max(1, int(d.p.AMShare*float64(s.NumMachines()))), s.NumMachines()-1)
	for _, j := range s.ActiveJobs() { // AMs first, in arrival order
		if _, ok := d.am[j]; ok || d.nHeld >= limit {
			continue
		}
		m := d.freeContainer(s)
		if m == sim.NoMachine {
			break
		}
		d.am[j], d.held[m] = m, true
		d.nHeld++
	}
	d.jobs = d.jobs[:0]
	for _, j := range s.RunnableJobs() {
		if _, ok := d.am[j]; ok {
			d.jobs = append(d.jobs, j)
		}
	}
	C := s.C()
	fifo := d.p.Order == "fifo"
	less := func(a, b sim.JobID) bool {
		if fifo {
			if ta, tb := s.Job(a).Arrival(), s.Job(b).Arrival(); ta != tb {
				return ta < tb
			}
		} else if c := sim.CompareShares(s.Job(a).Usage(), 1, s.Job(b).Usage(), 1, C); c != 0 {
			return c < 0
		}
		return a < b
	}
	for len(d.jobs) > 0 { // progressive filling: the least share places next
		k := 0
		for i := range d.jobs {
			if less(d.jobs[i], d.jobs[k]) {
				k = i
			}
		}
		j := d.jobs[k]
		if !d.placeNext(s, p, j) {
			d.jobs = append(d.jobs[:k], d.jobs[k+1:]...)
		}
	}
}

// freeContainer returns the lowest idle container no AM holds.
func (d *drfAM) freeContainer(s *sim.State) sim.MachineID {
	for m := 0; m < s.NumMachines(); m++ {
		if mv := s.Machine(sim.MachineID(m)); !d.held[m] && mv.Running() == 0 && mv.ReservedFor() == sim.NoUser {
			return sim.MachineID(m)
		}
	}
	return sim.NoMachine
}

// placeNext places job j's next task on its first fitting container no
// AM holds, and reports whether it did.
func (d *drfAM) placeNext(s *sim.State, p *sim.Planner, j sim.JobID) bool {
	if !s.IsActive(j) {
		return false
	}
	for _, si := range s.Job(j).Groups() {
		g := sim.GroupRef{Job: j, Stage: si}
		if s.Blocked(g) {
			continue
		}
		t := s.Group(g).Head()
		m := sim.NoMachine
		s.ForEachFit(t, func(c sim.MachineID) bool {
			if d.held[c] {
				return true
			}
			m = c
			return false
		})
		if m != sim.NoMachine && p.Place(t, m) == nil {
			return true
		}
		p.Block(g)
	}
	return false
}
