package policies

import (
	"slices"

	"github.com/capplan/capplan/sim"
)

// ChoosyParams are the parameters of choosy.
type ChoosyParams struct {
	Intra sim.Intra
}

func (p *ChoosyParams) bind(b *binder) { b.intra(&p.Intra) }

// choosy is Ghodsi et al.'s online approximation of constrained max-min
// fairness [SEED choosy §6; SIMULATE.md §3.5]: "whenever a resource frees
// up, assign it to the user with the lowest current allocation whose
// constraints the resource satisfies". A user's allocation x_u is its
// weighted dominant share Dom(U_u)/w_u, compared exactly; with one
// resource of unit demands (slot mode) that is its slots over its weight,
// and with several resources the paper's multi-resource variant [§8].
//
// Each Round:
//
//  1. The machines freed since the last Round, and the free machines that
//     can hold the head of a group that became runnable (up to as many as
//     the group has tasks), go most-constrained first,
//     by (number of users with runnable work eligible for the machine's
//     class, class, id) [DERIVED]: a machine few users can use is handed
//     out before one everybody wants. Each repeatedly goes to the user of
//     least x_u/w_u (ties: id) whose next task — its first unblocked
//     runnable group, jobs in arrival order, groups in intra order, whose
//     head the machine admits and holds — fits, until none fits.
//  2. Work that arrived (new runnable groups) is then placed by progressive
//     filling over users, least x_u/w_u first, each task on its first
//     fitting machine: idle machines nobody wanted go to the lowest
//     eligible user, which is step 1's rule for machines already free.
//
// Choosy never migrates or preempts; it is work-conserving.
type choosy struct {
	intra sim.Intra
	fill  fairFill

	byUser  [][]sim.JobID // runnable jobs of each user, in ordinal order
	users   []sim.UserID  // users with runnable work (byUser non-empty)
	order   []sim.UserID  // those still placing, by (x_u/w_u, id)
	stamp   []int32       // per class: last user counted (+1)
	contend []int32       // per class: users with runnable work eligible for it
	free    []sim.MachineID
	classes []sim.ClassID
	seen    []uint32 // per machine: round it was listed in free
	round   uint32
}

func init() {
	register(typed("choosy", "constrained max-min fairness online: each freed machine goes to the lowest-share user it admits (Choosy)",
		ChoosyParams{}, (*ChoosyParams).bind, func(p ChoosyParams) sim.Policy {
			return &choosy{intra: p.Intra, fill: fairFill{place: Placement{Rule: PlaceFirst, K: DefaultK}}}
		}))
}

func (c *choosy) Name() string { return "choosy" }

func (c *choosy) Traits() sim.Traits { return sim.Traits{Intra: c.intra, WorkConserving: true} }

func (c *choosy) Round(s *sim.State, p *sim.Planner) {
	placed := c.offerFreed(s, p)
	if len(s.NewRunnable()) > 0 || placed {
		c.fill.round(s, p)
	}
}

// offerFreed hands out the machines freed since the last Round (step 1)
// and reports whether a placement may have exposed a group head of another
// demand (a stage with per-task demands), which step 2 must then revisit.
func (c *choosy) offerFreed(s *sim.State, p *sim.Planner) bool {
	if len(s.RunnableJobs()) == 0 || len(s.Dirty()) == 0 && len(s.NewRunnable()) == 0 {
		return false
	}
	c.collect(s)
	multi := len(s.Classes()) > 1
	if multi {
		c.countContention(s)
	}
	c.listFree(s)
	if len(c.free) == 0 {
		return false
	}
	if !multi {
		slices.Sort(c.free)
	} else {
		slices.SortStableFunc(c.free, func(a, b sim.MachineID) int {
			ca, cb := s.ClassOf(a), s.ClassOf(b)
			if x, y := c.contend[ca], c.contend[cb]; x != y {
				return int(x - y)
			}
			if ca != cb {
				return int(ca - cb)
			}
			return int(a - b)
		})
	}
	exposed := false
	for _, m := range c.free {
		for len(c.order) > 0 {
			i, t := c.lowestFitting(s, m)
			if i < 0 {
				break
			}
			if p.Place(t, m) != nil {
				break
			}
			if st := s.Job(t.Job).Spec().Stages; st[s.Job(t.Job).StageOf(t.Task)].Demands != nil {
				exposed = true
			}
			c.reposition(s, i)
		}
	}
	return exposed
}

// listFree lists the candidate machines of step 1: the dirty machines with
// room, and for every new group up to Len() machines that hold its head,
// taken from its eligible classes in order of increasing contention (then
// class id), so that new work is offered the machines fewest other users
// can use.
func (c *choosy) listFree(s *sim.State) {
	if len(c.seen) < s.NumMachines() {
		c.seen = make([]uint32, s.NumMachines())
	}
	c.round++
	c.free = c.free[:0]
	add := func(m sim.MachineID) {
		if c.seen[m] != c.round {
			c.seen[m] = c.round
			c.free = append(c.free, m)
		}
	}
	for _, m := range s.Dirty() {
		if mv := s.Machine(m); mv.FreeSlots() > 0 && mv.ReservedFor() == sim.NoUser {
			add(m)
		}
	}
	for _, g := range s.NewRunnable() {
		if !s.IsActive(g.Job) {
			continue
		}
		gv := s.Group(g)
		n := gv.Len()
		if n == 0 {
			continue
		}
		c.classes = append(c.classes[:0], gv.Eligible().List()...)
		if len(c.contend) > 0 {
			slices.SortStableFunc(c.classes, func(a, b sim.ClassID) int { return int(c.contend[a] - c.contend[b]) })
		}
		dem := gv.HeadDemand()
		for _, cl := range c.classes {
			if n == 0 {
				break
			}
			s.Index().ForEachFit(cl, dem, func(m sim.MachineID) bool {
				add(m)
				n--
				return n > 0
			})
		}
	}
}

// collect lists the users with runnable work and sorts them by share.
func (c *choosy) collect(s *sim.State) {
	U := s.NumUsers()
	if len(c.byUser) < U {
		c.byUser = make([][]sim.JobID, U)
	}
	for _, u := range c.users {
		c.byUser[u] = c.byUser[u][:0]
	}
	c.users = c.users[:0]
	for _, j := range s.RunnableJobs() {
		u := s.Job(j).User()
		if len(c.byUser[u]) == 0 {
			c.users = append(c.users, u)
		}
		c.byUser[u] = append(c.byUser[u], j)
	}
	c.order = append(c.order[:0], c.users...)
	C := s.C()
	slices.SortFunc(c.order, func(a, b sim.UserID) int { return shareCmp(s, C, a, b) })
}

// shareCmp orders users by Dom(U_u)/w_u exactly, ties by id.
func shareCmp(s *sim.State, C sim.Vec, a, b sim.UserID) int {
	ua, ub := s.User(a), s.User(b)
	if x := sim.CompareShares(ua.Usage(), ua.Weight(), ub.Usage(), ub.Weight(), C); x != 0 {
		return x
	}
	return int(a - b)
}

// reposition moves order[i], whose share just grew, to its place.
func (c *choosy) reposition(s *sim.State, i int) {
	C := s.C()
	u := c.order[i]
	if !c.hasRunnable(s, u) {
		c.order = slices.Delete(c.order, i, i+1)
		return
	}
	for i+1 < len(c.order) && shareCmp(s, C, c.order[i+1], u) < 0 {
		c.order[i] = c.order[i+1]
		i++
	}
	c.order[i] = u
}

func (c *choosy) hasRunnable(s *sim.State, u sim.UserID) bool {
	for _, j := range c.byUser[u] {
		if s.IsActive(j) && s.Job(j).Runnable() > 0 {
			return true
		}
	}
	return false
}

// lowestFitting returns the position in order of the lowest-share user
// with a runnable group head that machine m admits and holds, and that
// head; −1 when there is none.
func (c *choosy) lowestFitting(s *sim.State, m sim.MachineID) (int, sim.TaskRef) {
	cl := s.ClassOf(m)
	for i, u := range c.order {
		for _, j := range c.byUser[u] {
			if !s.IsActive(j) {
				continue
			}
			jv := s.Job(j)
			if !jv.Eligible().Has(cl) {
				continue
			}
			for _, si := range jv.Groups() {
				g := sim.GroupRef{Job: j, Stage: si}
				if s.Blocked(g) || !jv.Stage(si).Eligible().Has(cl) {
					continue
				}
				if t := s.Group(g).Head(); s.Fits(t, m) {
					return i, t
				}
			}
		}
	}
	return -1, sim.TaskRef{}
}

// countContention counts, per class, the users with runnable work whose
// jobs the class admits.
func (c *choosy) countContention(s *sim.State) {
	n := len(s.Classes())
	if len(c.contend) < n {
		c.contend, c.stamp = make([]int32, n), make([]int32, n)
	}
	clear(c.contend)
	clear(c.stamp)
	for _, u := range c.order {
		for _, j := range c.byUser[u] {
			for _, cl := range s.Job(j).Eligible().List() {
				if c.stamp[cl] != int32(u)+1 {
					c.stamp[cl] = int32(u) + 1
					c.contend[cl]++
				}
			}
		}
	}
}
