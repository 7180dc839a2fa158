package policies

import (
	"github.com/capplan/capplan/sim"
)

// CarbyneParams are the parameters of carbyne.
type CarbyneParams struct {
	// Altruism is P(Altruism) ∈ [0, 1]: the probability that a job yields
	// what it does not need in a Round (Carbyne §3.4.2). 0 is job-level
	// DRF exactly; 1 (the default) yields whenever possible.
	Altruism float64
	// Leftover orders the redistribution of the leftover: "srtf" (least
	// remaining work first, then alignment within the job) or "pack" (one
	// Tetris pass, f = 0: alignment blended with remaining work). The
	// paper: "their order can be reversed" (§4.2).
	Leftover string
	Intra    sim.Intra
	Place    Placement
}

func (p *CarbyneParams) bind(b *binder) {
	b.number("altruism", &p.Altruism, 0, 1, "P(Altruism): probability a job yields its unneeded share in a round (0 = drf entity=job)")
	b.choice("leftover", &p.Leftover, []string{"srtf", "pack"}, "leftover redistribution: srtf (least remaining work first) or pack (tetris)")
	b.intra(&p.Intra)
	b.placement(&p.Place)
}

// carbyne is Carbyne's altruistic multi-resource scheduler [SEED carbyne
// Pseudocode 1, §3.3–§4.2; ALGORITHMS.md §4; SIMULATE.md §3.3]. Every
// Round (job arrivals and completions, task completions):
//
//  1. Shares: closed-form DRF over the jobs with running or runnable
//     tasks (waterFill) gives each job its share A_k; L_DRF = C − Σ A_k.
//  2. Intra-job: each job with runnable tasks draws u ← Rand() and, when
//     u < P, packs its remaining DAG on A_k forward (its completion time
//     T_k) and in reverse; the tasks whose latest start is now form its
//     must-start set, the rest of its share L_k is given up (stagePack).
//     Packs are memoised (see mustStart). Jobs with u ≥ P ask for every
//     runnable task.
//  3. DEFAULT asks: job-level DRF progressive filling (drf entity=job,
//     same intra and place) over the must-start tasks only.
//  4. Leftover L = L_DRF + Σ L_k, i.e. the free capacity: jobs in SRTF
//     order (least remaining work first, then lowest dominant share, then
//     ordinal: "finally fairness"), each placing its best-aligned runnable
//     task on its best machine while any fits; or one Tetris pass.
//
// At P = 0 step 2 keeps every runnable task, step 3 is a drf entity=job
// Round and step 4 finds nothing: Carbyne reduces to DRF (§3.4.2), which a
// test checks on whole runs. Step 4 leaves nothing that fits, so Carbyne
// is work-conserving. The paper's second leftover goal, packing (§3.3.4),
// comes after SRTF: since the SRTF pass lets every job place while any of
// its tasks fits, nothing fits after it, and a Tetris pass there would
// place nothing; so leftover=srtf runs SRTF alone and leftover=pack runs
// the Tetris pass alone (after which SRTF would find nothing).
type carbyne struct {
	p      CarbyneParams
	fill   fairFill
	tet    *tetris
	jobs   []*cJob // by JobID
	round  []sim.JobID
	wf     waterFill
	wfJobs []sim.JobID // job of each waterFill entry
	pk     stagePack
	pool   sim.Vec
	order  []keyed2
	groups []int32

	stats struct{ packs, hits, altruistic, leftover int64 }
}

// cJob is what carbyne keeps per active job: its stages' demands and
// counters maintained from the Observer calls, the DRF demand cached by
// job version, and the memoised pack.
type cJob struct {
	st       []cStage
	packable bool       // no explicit task edges
	runEnd   []sim.Tick // estimated end of each running task
	pendVal  []sim.Tick // estimate each pending task adds to its stage's sum
	// DRF demand: Σ demand of running ∪ runnable tasks, and their count
	dVer uint64
	D    sim.Vec
	n    int64
	wf   int // index in waterFill this Round, −1
	plan lsPlan
	// this Round
	all      bool // every runnable task may start
	mustLeft []int64
}

// cStage is one stage's demand and counters.
type cStage struct {
	r         sim.Vec // one task's demand (per-task demands: their mean, rounded up)
	pendN     int64   // tasks not started (non-dummy)
	pendSum   int64   // Σ of their estimates
	runN      int64
	runEndSum int64 // Σ estimated ends of running tasks (absolute ticks)
}

type keyed2 struct {
	work, dom float64
	id        sim.JobID
}

func init() {
	def := CarbyneParams{Altruism: 1, Leftover: "srtf", Place: Placement{Rule: PlaceAlign, K: DefaultK}}
	register(typed("carbyne", "altruistic: DRF shares, jobs yield what keeps their completion time, leftover to least remaining work (Carbyne)",
		def, (*CarbyneParams).bind, func(p CarbyneParams) sim.Policy { return newCarbyne(p) }))
}

func newCarbyne(p CarbyneParams) *carbyne {
	c := &carbyne{p: p}
	c.fill = fairFill{byJob: true, place: p.Place}
	if p.Altruism > 0 {
		c.fill.allow = c.allow
		c.fill.placed = c.placed
	}
	if p.Leftover == "pack" {
		c.tet = newTetris("tetris", TetrisParams{F: 0, M: 0.2, Intra: p.Intra, K: p.Place.K})
	}
	return c
}

func (c *carbyne) Name() string { return "carbyne" }

func (c *carbyne) Traits() sim.Traits { return sim.Traits{Intra: c.p.Intra, WorkConserving: true} }

// PolicyStats reports the packs run and the memo hits (SIMULATE.md §6:
// "report their cache hit rate"), the job-Rounds in which a job yielded
// part of its share, and the placements of the leftover step.
func (c *carbyne) PolicyStats() map[string]int64 {
	return map[string]int64{"packs": c.stats.packs, "cacheHits": c.stats.hits,
		"altruisticJobRounds": c.stats.altruistic, "leftoverPlacements": c.stats.leftover}
}

func (c *carbyne) Round(s *sim.State, p *sim.Planner) {
	if len(s.RunnableJobs()) == 0 {
		return
	}
	yielded := false
	if c.p.Altruism > 0 {
		yielded = c.intraJob(s)
	}
	c.fill.round(s, p)
	if !yielded {
		return // step 3 was a whole DRF Round: nothing fits any more
	}
	if c.tet != nil {
		c.tet.Round(s, p)
		return
	}
	c.srtf(s, p)
}

func (c *carbyne) allow(g sim.GroupRef) bool {
	j := c.jobs[g.Job]
	return j.all || j.mustLeft[g.Stage] > 0
}

func (c *carbyne) placed(g sim.GroupRef) {
	if j := c.jobs[g.Job]; !j.all {
		j.mustLeft[g.Stage]--
	}
}

// intraJob runs steps 1 and 2 and reports whether some job yielded.
func (c *carbyne) intraJob(s *sim.State) bool {
	c.round = append(c.round[:0], s.RunnableJobs()...)
	any := false
	for _, j := range c.round {
		cj := c.jobs[j]
		cj.all = true
		if !cj.packable {
			continue
		}
		// u ← Rand(); altruistic when u < P (no draw at P = 1)
		if c.p.Altruism >= 1 || s.Rand().Float64() < c.p.Altruism {
			cj.all = false
			any = true
		}
	}
	if !any {
		return false
	}
	c.shares(s)
	yielded := false
	for _, j := range c.round {
		cj := c.jobs[j]
		if cj.all {
			continue
		}
		c.mustStart(s, j, cj)
		jv := s.Job(j)
		var must int64
		for _, si := range jv.Groups() {
			m := min(max(0, cj.plan.due(si, s.Now())), int64(jv.Stage(si).Runnable()))
			cj.mustLeft[si] = m
			must += m
		}
		if must < int64(jv.Runnable()) {
			yielded = true
			c.stats.altruistic++
		}
	}
	return yielded
}

// shares runs the water-filling over the active jobs with running or
// runnable tasks; each job's demand is cached by its version.
func (c *carbyne) shares(s *sim.State) {
	active := s.ActiveJobs()
	c.wfJobs = c.wfJobs[:0]
	for _, j := range active {
		cj := c.jobs[j]
		cj.wf = -1
		jv := s.Job(j)
		if cj.dVer != jv.Version() || cj.D == nil {
			c.demand(s, jv, cj)
		}
		if cj.n > 0 {
			cj.wf = len(c.wfJobs)
			c.wfJobs = append(c.wfJobs, j)
		}
	}
	c.wf.reset(s.C(), len(c.wfJobs))
	for i, j := range c.wfJobs {
		copy(c.wf.jobs[i].D, c.jobs[j].D)
	}
	c.wf.solve()
}

// demand sets D_k and n_k: the demand and count of the job's running and
// runnable tasks.
func (c *carbyne) demand(s *sim.State, jv sim.JobView, cj *cJob) {
	if cj.D == nil {
		cj.D = make(sim.Vec, len(s.C()))
	}
	copy(cj.D, jv.Usage())
	cj.n = int64(jv.Running())
	spec := jv.Spec()
	for _, si := range jv.Groups() {
		g := s.Group(sim.GroupRef{Job: jv.ID(), Stage: si})
		st := &spec.Stages[si]
		if st.Demands == nil {
			k := int64(g.Len())
			for d, x := range st.Demand {
				cj.D[d] += k * x
			}
		} else {
			for _, t := range g.Tasks() {
				for d, x := range jv.Task(t).Demand() {
					cj.D[d] += x
				}
			}
		}
		cj.n += int64(g.Len())
	}
	cj.dVer = jv.Version()
}

// mustStart makes sure job j has a latest-start plan for its current
// share (see lsPlan), packing on its exact share when the plan is stale.
func (c *carbyne) mustStart(s *sim.State, j sim.JobID, cj *cJob) {
	x := c.wf.tasks(cj.wf, cj.n)
	if !cj.plan.stale(x) {
		c.stats.hits++
		return
	}
	c.stats.packs++
	if len(c.pool) != len(s.C()) {
		c.pool = make(sim.Vec, len(s.C()))
	}
	c.wf.pool(cj.wf, c.pool)
	c.packInput(s, s.Job(j), cj)
	c.pk.pack(c.pool)
	cj.plan.set(&c.pk, s.Now(), x)
}

// packInput describes the job's stages at now for the pack.
func (c *carbyne) packInput(s *sim.State, jv sim.JobView, cj *cJob) {
	now := s.Now()
	S := len(cj.st)
	c.pk.reset(S)
	for si := range cj.st {
		cs := &cj.st[si]
		sv := jv.Stage(int32(si))
		ps := &c.pk.st[si]
		*ps = packStage{r: cs.r, pend: cs.pendN, runN: cs.runN, total: int64(sv.Tasks()),
			fin: int64(sv.Tasks() - sv.Unfinished()), dur: 1,
			bPar: sv.BarrierParents(), bChild: sv.BarrierChildren(), oPar: sv.OneToOneParents(), oChild: sv.OneToOneChildren()}
		if cs.pendN > 0 {
			ps.dur = max(1, sim.Tick((cs.pendSum+cs.pendN-1)/cs.pendN))
		}
		if cs.runN > 0 {
			ps.runEnd = max(1, sim.Tick((cs.runEndSum+cs.runN-1)/cs.runN)-now)
		}
	}
}
