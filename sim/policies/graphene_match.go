package policies

import (
	"math"
	"slices"

	"github.com/capplan/capplan/sim"
)

// Graphene's matcher (see graphene): for one machine, the candidates'
// scores, the deficit rule and the deficit updates.

// collect lists the runnable jobs and the representative of each group.
func (g *graphene) collect(s *sim.State) {
	g.jobs, g.heads = g.jobs[:0], g.heads[:0]
	for _, j := range s.RunnableJobs() {
		jv := s.Job(j)
		g.jobs = append(g.jobs, gJob{id: j, srpt: jv.SRPT(), n: float64(jv.NumTasks())})
		k := len(g.heads)
		for _, si := range jv.Groups() {
			h := gHead{g: sim.GroupRef{Job: j, Stage: si}, job: int32(len(g.jobs) - 1), user: jv.User()}
			g.head(s, &h)
			g.heads = append(g.heads, h)
		}
		// the job's first runnable task in its order scores 1
		var r0 int32 = math.MaxInt32
		for _, h := range g.heads[k:] {
			r0 = min(r0, jv.Rank(h.t.Task))
		}
		g.jobs[len(g.jobs)-1].r0 = r0
		for i := k; i < len(g.heads); i++ {
			g.heads[i].pri = g.pri(jv, &g.heads[i])
		}
	}
}

// head sets h's representative: the group's runnable task of least rank.
func (g *graphene) head(s *sim.State, h *gHead) {
	gv := s.Group(h.g)
	jv := s.Job(h.g.Job)
	h.t = gv.Head()
	h.pri = g.pri(jv, h)
	h.f = 1
	if g.p.Factor == "drf" {
		h.f = s.Dom(s.Task(h.t).Demand())
	}
}

// candidates lists the machines freed since the last Round and up to K
// FirstFit hits of each new group, in id order.
func (g *graphene) candidates(s *sim.State) {
	if len(g.seen) < s.NumMachines() {
		g.seen = make([]bool, s.NumMachines())
	}
	for _, m := range g.cands {
		g.seen[m] = false
	}
	g.cands = append(g.cands[:0], s.Dirty()...)
	for _, m := range g.cands {
		g.seen[m] = true
	}
	for _, gr := range s.NewRunnable() {
		if !s.IsActive(gr.Job) || s.Group(gr).Len() == 0 {
			continue
		}
		n := 0
		s.ForEachFit(s.Group(gr).Head(), func(m sim.MachineID) bool {
			if !g.seen[m] {
				g.seen[m] = true
				g.cands = append(g.cands, m)
			}
			n++
			return g.p.K == 0 || n < g.p.K
		})
	}
	slices.Sort(g.cands)
}

// live reports whether a head's group still has unblocked runnable tasks.
func (g *graphene) live(s *sim.State, h *gHead) bool {
	return s.IsActive(h.g.Job) && !s.Blocked(h.g) && s.Group(h.g).Len() > 0
}

// fillMachine places tasks on m until none fits.
func (g *graphene) fillMachine(s *sim.State, p *sim.Planner, m sim.MachineID) {
	mv := s.Machine(m)
	for {
		var sumScore, sumSRPT float64
		n := 0
		best := -1 // group of greatest deficit among the candidates
		g.stamp++
		for i := range g.heads {
			h := &g.heads[i]
			h.fits = false
			if !g.live(s, h) {
				continue
			}
			g.liveAt[h.user] = g.stamp // the user has work it may place
			if !s.Fits(h.t, m) {
				continue
			}
			h.fits = true
			h.score = float64(Align(s.Task(h.t).Demand(), mv.Free(), mv.Cap()) * h.pri)
			sumScore += h.score
			n++
			if best < 0 || g.def[h.user] > g.def[g.heads[best].user] ||
				g.def[h.user] == g.def[g.heads[best].user] && h.user < g.heads[best].user {
				best = i
			}
		}
		if n == 0 {
			return
		}
		for i := range g.jobs {
			sumSRPT += g.jobs[i].srpt
		}
		eta := 0.0
		if sumSRPT > 0 {
			eta = g.p.MEta * (sumScore / float64(n)) / (sumSRPT / float64(len(g.jobs)))
		}
		only := sim.NoUser
		if g.def[g.heads[best].user] >= g.p.Kappa*g.capUnit {
			only = g.heads[best].user
		}
		pick := -1
		var pickPerf float64
		for i := range g.heads {
			h := &g.heads[i]
			if !h.fits || only != sim.NoUser && h.user != only {
				continue
			}
			perf := h.score - float64(eta*g.jobs[h.job].srpt)
			if pick < 0 || perf > pickPerf || perf == pickPerf && g.before(h, &g.heads[pick]) {
				pick, pickPerf = i, perf
			}
		}
		h := &g.heads[pick]
		if p.Place(h.t, m) != nil {
			p.Block(h.g)
			continue
		}
		g.stats.placements++
		g.charge(h.user, h.f)
		jv := s.Job(h.g.Job) // placing never finishes a job
		g.jobs[h.job].srpt = jv.SRPT()
		if s.Group(h.g).Len() > 0 {
			g.head(s, h)
		}
	}
}

// pri is the head's priScore: 1 − (rank − r0)/N_j, where r0 is the least
// rank among the job's runnable heads at the start of the Round.
//
// Graphene's priScore is 1 − rank/N_j [SEED graphene §5.1], static per
// task. We measure its rank from the job's first runnable task instead
// [DERIVED, deliberately]: the order inside a job is unchanged (the same
// differences (rank_a − rank_b)/N_j), but across jobs the static score
// ranks a job's remaining tasks lower the further the job has come — a
// job 90% done scores at most 0.1 against 1 for a job that just arrived,
// the opposite of the srpt term, which m_η = 0.2 cannot outweigh. On the
// first 1,200 W-ALI jobs at load 0.8 the static score gives an average JCT
// 1.52× Tez's (0.66 as a ratio), the relative one 0.99×; on 1,000 W-FB jobs
// 1.04× and 0.90× (capplan simulate … --compare tez,graphene).
func (g *graphene) pri(jv sim.JobView, h *gHead) float64 {
	j := &g.jobs[h.job]
	return 1 - float64(jv.Rank(h.t.Task)-j.r0)/j.n
}

// charge updates the deficits for a task of factor f given to user u:
// D_h += f·(share_h − [h = u]) over the users h with work they may still
// place (an unblocked runnable group), share_h = w_h/Σ of their weights.
// Users without such work keep their deficit frozen: they could not be
// served, and credit they could not use would only grow (ALGORITHMS.md
// §3.4).
func (g *graphene) charge(u sim.UserID, f float64) {

	var sumW float64
	for h, at := range g.liveAt {
		if at == g.stamp {
			sumW += g.weight[h]
		}
	}
	for h, at := range g.liveAt {
		if at != g.stamp {
			continue
		}
		d := float64(f * g.weight[h] / sumW)
		if sim.UserID(h) == u {
			d -= f
		}
		g.def[h] += d
	}
}

// before breaks perf ties: lower ordinal, stage, task.
func (g *graphene) before(a, b *gHead) bool {
	if a.g.Job != b.g.Job {
		return a.g.Job < b.g.Job
	}
	if a.g.Stage != b.g.Stage {
		return a.g.Stage < b.g.Stage
	}
	return a.t.Task < b.t.Task
}
