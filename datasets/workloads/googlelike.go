package workloads

import (
	"fmt"
	"math/rand/v2"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/sim"
)

// GoogleLike generates the GoogleLike workload (SIMULATE.md §2.3), after
// Choosy's simulations [SEED choosy §7.1]: the cluster of
// datasets.GoogleLike (21 constraint attributes, machine types), one user
// per job, jobs shaped like W-FB (size bins, reduce rule, Pareto α = 1.9
// durations) with their durations scaled so the slots are loaded at 0.8
// over the horizon [DERIVED], each job constrained by
// datasets.GoogleJobSelector, Poisson arrivals. The only resource is
// "slots": each node has Slots of them and each task takes one.
type GoogleLike struct {
	p        GoogleParams
	cluster  *sim.Cluster
	users    []sim.User
	selector []sim.Constraint
	s        float64 // count scale (W-FB's)
	dscale   float64 // duration scale
	arr      *Poisson
	tick     float64
	next     int
	scratch  fbShape
}

// GoogleParams size GoogleLike.
type GoogleParams struct {
	// Jobs (300), Machines (1000), Types (20), Slots per node (1),
	// Horizon in seconds (3600).
	Jobs, Machines, Types, Slots int
	Horizon                      float64
	// Load, when positive, sets the Poisson rate for this slot load
	// instead of Jobs over Horizon.
	Load float64
	Seed uint64
}

func (p *GoogleParams) defaults() {
	if p.Jobs == 0 {
		p.Jobs = 300
	}
	if p.Machines == 0 {
		p.Machines = 1000
	}
	if p.Types == 0 {
		p.Types = 20
	}
	if p.Slots == 0 {
		p.Slots = 1
	}
	if p.Horizon == 0 {
		p.Horizon = 3600
	}
}

// googleSlotLoad is the slot load the durations are scaled to.
const googleSlotLoad = 0.8

// NewGoogleLike builds the cluster, users and job constraints, and scales
// durations from a first pass over the job shapes.
func NewGoogleLike(p GoogleParams, tickSeconds float64) (*GoogleLike, error) {
	p.defaults()
	if p.Jobs < 1 || p.Types < 1 || p.Machines < p.Types || p.Machines > datasets.MaxNodes || p.Slots < 1 || p.Horizon <= 0 || p.Load < 0 {
		return nil, fmt.Errorf("workloads: googlelike: invalid parameters %+v", p)
	}
	c, d := datasets.GoogleLike(datasets.GoogleParams{Users: p.Jobs, Types: p.Types, Machines: p.Machines}, int64(p.Seed))
	g := &GoogleLike{p: p, tick: tickSeconds, s: fbScale(650000.0 / 7000)}
	g.cluster = &sim.Cluster{Resources: []string{"slots"}, Quanta: []float64{1}}
	for _, n := range c.Nodes() {
		g.cluster.Machines = append(g.cluster.Machines, sim.Machine{Name: n.Name, Cap: sim.Vec{int64(p.Slots)}, Labels: n.Labels,
			Node: -1, Owner: sim.NoUser})
	}
	weights, err := datasets.IntegerWeights(d.Applications)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x6a6f6273)) // "jobs"
	for i, a := range d.Applications {
		g.users = append(g.users, sim.User{Name: a.Name, Weight: weights[i]})
		sel, _ := datasets.GoogleJobSelector(rng, c)
		g.selector = append(g.selector, sim.Constraint{Selector: sel})
	}
	var work float64 // Σ task seconds before scaling
	for i := 0; i < p.Jobs; i++ {
		sh := g.shape(i)
		for _, x := range sh.mapDur {
			work += x
		}
		for _, x := range sh.redDur {
			work += x
		}
	}
	slots := float64(p.Machines * p.Slots)
	g.dscale = googleSlotLoad * slots * p.Horizon / work
	rate := float64(p.Jobs) / p.Horizon
	if p.Load > 0 {
		// each job's load is its slot-seconds over the slots; the mean is
		// googleSlotLoad·Horizon/Jobs after scaling
		rate = p.Load / (googleSlotLoad * p.Horizon / float64(p.Jobs))
	}
	g.arr = NewPoisson(p.Seed, rate, tickSeconds)
	return g, nil
}

// Params returns the parameters with defaults filled in.
func (g *GoogleLike) Params() GoogleParams { return g.p }

// Cluster returns the slot cluster.
func (g *GoogleLike) Cluster() *sim.Cluster { return g.cluster }

// Users returns one user per job.
func (g *GoogleLike) Users() []sim.User { return g.users }

// shape draws job i's W-FB shape from its own stream.
func (g *GoogleLike) shape(i int) *fbShape {
	rng := rand.New(rand.NewPCG(g.p.Seed^mixIndex(i), streamShape))
	sh := &g.scratch
	sh.drawTasks(rng, g.s)
	return sh
}

// Next implements sim.JobSource.
func (g *GoogleLike) Next() (sim.Job, bool) {
	if g.next >= g.p.Jobs {
		return sim.Job{}, false
	}
	i := g.next
	g.next++
	sh := g.shape(i)
	conv := sim.DAGConversion{TickSeconds: g.tick}
	mk := func(name string, durs []float64) sim.Stage {
		st := sim.Stage{Name: name, Tasks: int32(len(durs)), Durations: make([]sim.Tick, len(durs)), Demand: sim.Vec{1}}
		for k, d := range durs {
			st.Durations[k] = conv.Ticks(d * g.dscale)
		}
		return st
	}
	job := sim.Job{Name: fmt.Sprintf("g-%04d", i), User: sim.UserID(i), Arrival: g.arr.Next(),
		Stages: []sim.Stage{mk("map", sh.mapDur)}, Constraint: g.selector[i]}
	if sh.reduces > 0 {
		job.Stages = append(job.Stages, mk("reduce", sh.redDur))
		job.Links = []sim.Link{{From: 0, To: 1, Kind: sim.Barrier}}
	}
	return job, true
}
