package policies

import (
	"math"

	"github.com/capplan/capplan/sim"
)

// GrapheneParams are the parameters of graphene.
type GrapheneParams struct {
	// MEta is m_η: η = m_η·mean(pScore·priScore)/mean(srpt) (§7.4: 0.2).
	MEta float64
	// Kappa is κ < 1: when the most deprived group's deficit reaches
	// κ·C, only its tasks are considered (the seed gives no value: 0.1).
	Kappa float64
	// Factor is f_t: "drf" (the task's dominant share, C = 1) or "slot"
	// (1 per task, C = the cluster's task slots).
	Factor string
	// RP is the remote penalty on pScore (§5.1, §7.4: 0.8); inert, the
	// simulator has no data locality.
	RP float64
	K  int
}

func (p *GrapheneParams) bind(b *binder) {
	b.number("m_eta", &p.MEta, 0, math.MaxFloat64, "SRPT weight: η = m_eta·mean(pScore·priScore)/mean(srpt)")
	b.number("kappa", &p.Kappa, 0, 1, "unfairness bound κ: the most deprived group alone is served once its deficit reaches κ·C")
	b.choice("factor", &p.Factor, []string{"drf", "slot"}, "deficit unit: drf (dominant share of the task) or slot")
	b.number("rp", &p.RP, 0, 1, "remote penalty on pScore (inert: no data locality)")
	b.countOrAll("k", &p.K, "FirstFit hits per new group taken as candidate machines")
}

// graphene is Graphene's online inter-job scheduler [SEED graphene §5.1,
// §6.2, §7.4; ALGORITHMS.md §3.4; SIMULATE.md §3.4]. Each job arrives with
// its preferred order (OrderBuilder: dag.Graphene's offline schedule, or
// Tez's breadth-first order for flat jobs); a task's priScore is
// 1 − (rank − r0_j)/N_j, r0_j being the least rank the job can run now
// (see pri). For each candidate machine m (machines freed since the last
// Round, FirstFit hits of new groups, then the FirstFit machine of every
// group that still fits somewhere, so the policy is work-conserving):
//
//	loop:
//	  Cand ← the runnable groups whose representative (least rank) fits m   (bundling)
//	  pScore_t = align(t, m)·(rp if remote: never here);  srpt_j = JobView.SRPT
//	  η = m_η·mean_Cand(pScore·priScore)/mean_jobs(srpt);  perf_t = pScore_t·priScore_t − η·srpt_j
//	  g* = the fairness group (user) of greatest deficit D_g among Cand (ties: id)
//	  pool = D_g* ≥ κ·C ? Cand ∩ g* : Cand
//	  place t = argmax_pool (perf; ordinal, stage, task) on m
//	  D_h += f_t·(share_h − [h = g(t)]) for every group h with work it may place
//
// Shares are the users' weights renormalised, at every placement, over the
// groups with work they may place; the others' deficits stay frozen
// (ALGORITHMS.md §3.4).
// The representative of a group is its head: its runnable task of least
// rank (IntraRank keeps every group in rank order).
type graphene struct {
	p      GrapheneParams
	orders *OrderBuilder

	def     []float64 // deficit per user
	weight  []float64 // per user
	liveAt  []uint64  // per user: the stamp of the last scan that found it work
	stamp   uint64
	capUnit float64 // C of κ·C: 1 (drf) or the slots
	maxDef  float64 // the largest deficit seen after any Round (tests)

	cands []sim.MachineID
	seen  []bool
	heads []gHead
	jobs  []gJob
	jobIx []int32 // JobID → index in jobs this Round, −1

	stats struct{ placements int64 }
}

type gJob struct {
	id   sim.JobID
	srpt float64
	n    float64 // tasks
	r0   int32   // least rank of its runnable heads this Round
}

type gHead struct {
	g     sim.GroupRef
	job   int32 // index in jobs
	user  sim.UserID
	t     sim.TaskRef
	pri   float64
	fits  bool
	score float64 // pScore·priScore
	f     float64 // deficit factor of t
}

func init() {
	register(typed("graphene", "Graphene online: preferred order × packing − η·srpt, bounded unfairness by deficit counters",
		GrapheneParams{MEta: 0.2, Kappa: 0.1, Factor: "drf", RP: 0.8, K: DefaultK}, (*GrapheneParams).bind,
		func(p GrapheneParams) sim.Policy { return &graphene{p: p} }))
}

func (g *graphene) Name() string { return "graphene" }

func (g *graphene) Traits() sim.Traits { return sim.Traits{Intra: sim.IntraRank, WorkConserving: true} }

// PrepareSource implements SourcePreparer: the jobs of src arrive with
// their preferred orders, built ahead in parallel.
func (g *graphene) PrepareSource(src sim.JobSource, c *sim.Cluster, users []sim.User, tickSeconds float64, workers int) sim.JobSource {
	caps := make([]sim.Vec, len(c.Machines))
	for i := range c.Machines {
		caps[i] = c.Machines[i].Cap
	}
	w := make([]int64, len(users))
	for i := range users {
		w[i] = users[i].Weight
	}
	g.orders = NewOrderBuilder(caps, w, c.Resources, tickSeconds, workers)
	return PrepareOrders(src, g.orders)
}

// PolicyStats reports the offline builds (their time is not simulated).
func (g *graphene) PolicyStats() map[string]int64 {
	if g.orders == nil {
		return nil
	}
	st := g.orders.Stats()
	return map[string]int64{"orderBuilds": st.Builds, "cacheHits": st.Hits, "orderBypassed": st.Bypassed,
		"orderBuildsFailed": st.Failed}
}

var _ SourcePreparer = (*graphene)(nil)

var _ sim.RankPolicy = (*graphene)(nil)

// JobRank gives a job that arrives without ranks (its source was not
// wrapped by PrepareSource) its preferred order at the arrival: the same
// order, from the same builder, so both ways give the same run.
func (g *graphene) JobRank(s *sim.State, j *sim.Job) []int32 {
	if g.orders == nil {
		caps := make([]sim.Vec, s.NumMachines())
		for m := range caps {
			caps[m] = s.Machine(sim.MachineID(m)).Cap()
		}
		w := make([]int64, s.NumUsers())
		for u := range w {
			w[u] = s.User(sim.UserID(u)).Weight()
		}
		g.orders = NewOrderBuilder(caps, w, s.Resources(), s.TickSeconds(), 0)
	}
	job := *j // Rank sets the copy's Rank
	return g.orders.Rank(&job)
}

func (g *graphene) Round(s *sim.State, p *sim.Planner) {
	if len(s.RunnableJobs()) == 0 {
		return
	}
	g.setup(s)
	g.collect(s)
	g.candidates(s)
	for _, m := range g.cands {
		g.fillMachine(s, p, m)
	}
	for { // work conservation, as tetris
		progress := false
		for i := range g.heads {
			h := &g.heads[i]
			if !g.live(s, h) {
				continue
			}
			m := s.FirstFit(h.t)
			if m == sim.NoMachine {
				p.Block(h.g)
				continue
			}
			g.fillMachine(s, p, m)
			progress = true
		}
		if !progress {
			break
		}
	}
	for _, d := range g.def {
		g.maxDef = max(g.maxDef, d)
	}
}

// setup sizes the per-user state.
func (g *graphene) setup(s *sim.State) {
	U := s.NumUsers()
	if len(g.def) < U {
		g.def = append(g.def, make([]float64, U-len(g.def))...)
		g.liveAt = append(g.liveAt, make([]uint64, U-len(g.liveAt))...)
		g.weight = make([]float64, U)
		for u := range g.weight {
			g.weight[u] = float64(s.User(sim.UserID(u)).Weight())
		}
	}
	if g.capUnit == 0 {
		g.capUnit = 1
		if g.p.Factor == "slot" {
			g.capUnit = float64(g.slots(s))
		}
	}
}

// slots returns the cluster's task slots: each machine's slot limit, or
// one per machine without a limit.
func (g *graphene) slots(s *sim.State) int64 {
	var n int64
	for m := 0; m < s.NumMachines(); m++ {
		if k := s.Machine(sim.MachineID(m)).FreeSlots(); k > 0 && k < math.MaxInt32 {
			n += k
		} else {
			n++
		}
	}
	return max(1, n)
}
