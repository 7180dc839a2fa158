package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/sim"
)

// FB generates W-FB (SIMULATE.md §2.3), a Facebook-like MapReduce workload:
// "7000 jobs and 650,000 tasks spanning six hours" [SEED carbyne §5.1].
//
//   - Maps per job are uniform within Facebook's size bins [RECALLED:
//     Zaharia et al., Delay Scheduling, EuroSys'10, Table 3] (fbBins), all
//     counts scaled by one factor s solved analytically so that
//     E[tasks/job] = MeanTasks (92.9 = 650,000/7,000).
//   - Bins 1–2 are map-only; other jobs get, with probability 1/2, a
//     barrier reduce stage of max(1, round(maps/8)) tasks [DERIVED].
//   - Task durations are Pareto with α = 1.9 [SEED choosy §6.2, Fig. 7],
//     x_m = 10 s for maps and 30 s for reduces [DERIVED].
//   - Demands per stage [DERIVED]: map cpu 1, memory 1 or 2 GiB, disk
//     40 MB/s, no network [SEED graphene §6.1]; reduce cpu 1 or 2, memory
//     2, 4 or 8 GiB, disk 20 MB/s, network 100 or 200 Mb/s.
//   - Machines: 20 cores, 128 GiB, 10 Gb/s [SEED carbyne §5.1], disk
//     1 GB/s [DERIVED].
//   - Arrivals are Poisson [DERIVED]: Jobs over Horizon, or at a target
//     Load of the cluster (see Poisson).
//   - Users: job i belongs to one of Users users, drawn uniformly.
//
// Job i's shape is drawn from its own PCG stream (seed ⊕ mix(i)), so the
// shapes do not depend on arrivals and a first pass can measure the
// workload before the run.
type FB struct {
	p       FBParams
	conv    *sim.DAGConversion
	s       float64 // count scale
	arr     *Poisson
	next    int
	scratch fbShape
}

// FBParams size W-FB.
type FBParams struct {
	// Jobs is the number of jobs (default 7000).
	Jobs int
	// Horizon is the arrival span in seconds when Load is 0 (default 6 h).
	Horizon float64
	// Users is the number of users (default 20).
	Users int
	// MeanTasks is the target E[tasks/job] (default 92.9).
	MeanTasks float64
	// Load, when positive, sets the Poisson rate so that the offered work
	// is Load × the capacity of Machines machines.
	Load float64
	// Machines is the cluster size; 0 sizes it for load 0.8 over Horizon:
	// M = ⌈max_r Σ d·r_r / (0.8·horizon·cap_r)⌉.
	Machines int
	Seed     uint64
}

// fbBins is Facebook's job size distribution: maps per job (inclusive
// ranges) and the share of jobs in each bin.
var fbBins = []struct {
	lo, hi int
	p      float64
}{
	{1, 1, .39}, {2, 2, .16}, {3, 20, .14}, {21, 60, .09}, {61, 150, .06},
	{151, 300, .06}, {301, 500, .04}, {501, 1500, .04}, {1501, 4800, .03},
}

// FB resources and machine capacity, in base units (cores, bytes, bytes/s,
// bits/s).
var (
	FBResources = []string{"cpu", "memory", "disk", "network"}
	FBMachine   = []float64{20, 128 << 30, 1e9, 10e9}
)

const (
	fbAlpha     = 1.9
	fbMapXm     = 10.0 // seconds
	fbReduceXm  = 30.0
	gib         = 1 << 30
	streamShape = 0x7368617065 // "shape"
	streamArr   = 0x617272     // "arr"
)

func (p *FBParams) defaults() {
	if p.Jobs == 0 {
		p.Jobs = 7000
	}
	if p.Horizon == 0 {
		p.Horizon = 6 * 3600
	}
	if p.Users == 0 {
		p.Users = 20
	}
	if p.MeanTasks == 0 {
		p.MeanTasks = 650000.0 / 7000
	}
}

// fbShape is one job's drawn shape.
type fbShape struct {
	maps, reduces  int
	mapDur, redDur []float64 // seconds
	mapMem         float64
	redCPU, redMem float64
	redNet         float64
	user           int
}

// FBQuanta returns the quanta of FB's values: whole cores, MiB, bytes/s
// and bits/s.
func FBQuanta() sim.Quanta {
	b := sim.NewQuantaBuilder(len(FBResources))
	for _, v := range []float64{1, 2, 20} {
		b.Add(0, v)
	}
	for _, v := range []float64{1 * gib, 2 * gib, 4 * gib, 8 * gib, 128 * gib} {
		b.Add(1, v)
	}
	for _, v := range []float64{20e6, 40e6, 1e9} {
		b.Add(2, v)
	}
	for _, v := range []float64{0, 100e6, 200e6, 10e9} {
		b.Add(3, v)
	}
	return b.Quanta()
}

// NewFB returns the generator; tickSeconds is the simulator tick.
func NewFB(p FBParams, tickSeconds float64) (*FB, error) {
	p.defaults()
	if p.Jobs < 1 || p.Users < 1 || p.Horizon <= 0 || p.MeanTasks < 1 || p.Load < 0 || p.Machines < 0 {
		return nil, fmt.Errorf("workloads: fb: invalid parameters %+v", p)
	}
	if p.Machines > datasets.MaxNodes {
		return nil, fmt.Errorf("fb: machines=%d: more than the %d machines of the largest cluster capplan reads", p.Machines, datasets.MaxNodes)
	}
	g := &FB{p: p, conv: &sim.DAGConversion{Resources: FBResources, Quanta: FBQuanta(), TickSeconds: tickSeconds}}
	g.s = fbScale(p.MeanTasks)
	if g.p.Machines == 0 {
		g.p.Machines = g.defaultMachines()
	}
	rate := float64(p.Jobs) / p.Horizon // jobs per second
	if p.Load > 0 {
		rate = p.Load / g.meanJobLoad()
	}
	g.arr = NewPoisson(p.Seed, rate, tickSeconds)
	return g, nil
}

// Params returns the parameters with defaults filled in (Machines
// included).
func (g *FB) Params() FBParams { return g.p }

// Scale returns the count factor s.
func (g *FB) Scale() float64 { return g.s }

// Cluster returns the generator's cluster: Machines machines of FBMachine.
func (g *FB) Cluster() *sim.Cluster {
	return Uniform(FBResources, g.conv.Quanta, FBMachine, g.p.Machines, "fb")
}

// Users returns the generator's users, u00…, of weight 1.
func (g *FB) Users() []sim.User { return numberedUsers(g.p.Users) }

// Next implements sim.JobSource.
func (g *FB) Next() (sim.Job, bool) {
	if g.next >= g.p.Jobs {
		return sim.Job{}, false
	}
	i := g.next
	g.next++
	sh := g.shape(i)
	return g.job(i, sh, g.arr.Next()), true
}

// scaled applies the count factor: max(1, round(s·n)).
func scaled(s float64, n int) int { return max(1, int(math.Round(s*float64(n)))) }

// fbScale solves E[tasks/job](s) = target by bisection, the expectation
// computed exactly over every map count of every bin (uniform within the
// bin) with the reduce rule; E is non-decreasing in s.
func fbScale(target float64) float64 {
	mean := func(s float64) float64 {
		var e float64
		for b, bin := range fbBins {
			var sum float64
			for m := bin.lo; m <= bin.hi; m++ {
				maps := scaled(s, m)
				sum += float64(maps)
				if b >= 2 {
					sum += 0.5 * float64(max(1, int(math.Round(float64(maps)/8))))
				}
			}
			e += bin.p * sum / float64(bin.hi-bin.lo+1)
		}
		return e
	}
	lo, hi := 1e-6, 100.0
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if mean(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// shape draws job i's shape from its own stream.
func (g *FB) shape(i int) *fbShape {
	rng := rand.New(rand.NewPCG(g.p.Seed^mixIndex(i), streamShape))
	sh := &g.scratch
	sh.drawTasks(rng, g.s)
	sh.mapMem = float64(1+rng.IntN(2)) * gib
	sh.redCPU = float64(1 + rng.IntN(2))
	sh.redMem = float64(int(2)<<rng.IntN(3)) * gib
	sh.redNet = float64(1+rng.IntN(2)) * 100e6
	sh.user = rng.IntN(g.p.Users)
	return sh
}

// drawTasks draws the W-FB part of a shape that FB and GoogleLike share,
// from rng in this order: the size bin, the maps (scaled by s), whether
// the job has reduces, then the map and reduce durations.
func (sh *fbShape) drawTasks(rng *rand.Rand, s float64) {
	u := rng.Float64()
	b := len(fbBins) - 1
	for k, bin := range fbBins {
		if u < bin.p {
			b = k
			break
		}
		u -= bin.p
	}
	bin := fbBins[b]
	sh.maps = scaled(s, bin.lo+rng.IntN(bin.hi-bin.lo+1))
	sh.reduces = 0
	if b >= 2 && rng.IntN(2) == 0 {
		sh.reduces = max(1, int(math.Round(float64(sh.maps)/8)))
	}
	sh.mapDur = pareto(rng, sh.mapDur[:0], sh.maps, fbMapXm)
	sh.redDur = pareto(rng, sh.redDur[:0], sh.reduces, fbReduceXm)
}

// pareto appends n Pareto(α = fbAlpha, x_m) draws: x_m·U^(−1/α).
func pareto(rng *rand.Rand, out []float64, n int, xm float64) []float64 {
	for k := 0; k < n; k++ {
		out = append(out, xm*math.Pow(1-rng.Float64(), -1/fbAlpha))
	}
	return out
}

// job builds job i from its shape.
func (g *FB) job(i int, sh *fbShape, arrival sim.Tick) sim.Job {
	q := g.conv.Quanta
	dem := func(v ...float64) sim.Vec {
		out := make(sim.Vec, len(v))
		for d, x := range v {
			out[d] = q.Demand(d, x)
		}
		return out
	}
	maps := sim.Stage{Name: "map", Tasks: int32(sh.maps), Durations: make([]sim.Tick, sh.maps), Demand: dem(1, sh.mapMem, 40e6, 0)}
	for k, d := range sh.mapDur {
		maps.Durations[k] = g.conv.Ticks(d)
	}
	job := sim.Job{Name: fmt.Sprintf("fb-%05d", i), User: sim.UserID(sh.user), Arrival: arrival, Stages: []sim.Stage{maps}}
	if sh.reduces > 0 {
		red := sim.Stage{Name: "reduce", Tasks: int32(sh.reduces), Durations: make([]sim.Tick, sh.reduces),
			Demand: dem(sh.redCPU, sh.redMem, 20e6, sh.redNet)}
		for k, d := range sh.redDur {
			red.Durations[k] = g.conv.Ticks(d)
		}
		job.Stages = append(job.Stages, red)
		job.Links = []sim.Link{{From: 0, To: 1, Kind: sim.Barrier}}
	}
	return job
}

// work returns job i's resource-seconds per dimension (Σ d·r).
func (g *FB) work(sh *fbShape) [4]float64 {
	var w [4]float64
	for _, d := range sh.mapDur {
		w[0] += d
		w[1] += d * sh.mapMem
		w[2] += d * 40e6
	}
	for _, d := range sh.redDur {
		w[0] += d * sh.redCPU
		w[1] += d * sh.redMem
		w[2] += d * 20e6
		w[3] += d * sh.redNet
	}
	return w
}

// defaultMachines sizes the cluster for load 0.8 over the horizon.
func (g *FB) defaultMachines() int {
	var total [4]float64
	for i := 0; i < g.p.Jobs; i++ {
		w := g.work(g.shape(i))
		for d := range total {
			total[d] += w[d]
		}
	}
	m := 1.0
	for d := range total {
		m = max(m, total[d]/(0.8*g.p.Horizon*FBMachine[d]))
	}
	return int(math.Ceil(m))
}

// meanJobLoad returns E_j[max_r Σ_{t∈j} d_t·r_{t,r}/C_r] in seconds of the
// whole cluster, over the workload's own jobs.
func (g *FB) meanJobLoad() float64 {
	var sum float64
	for i := 0; i < g.p.Jobs; i++ {
		w := g.work(g.shape(i))
		x := 0.0
		for d := range w {
			x = max(x, w[d]/(float64(g.p.Machines)*FBMachine[d]))
		}
		sum += x
	}
	return sum / float64(g.p.Jobs)
}
