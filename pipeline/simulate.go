package pipeline

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// SimulateOptions are the inputs of Simulate: everything a cell depends
// on, plus how to run it.
type SimulateOptions struct {
	// ClusterPath, DemandPath and WorkloadPath are input files ("" when
	// absent). WorkloadPath may be a Workload document (YAML or JSON), an
	// Alibaba v2018 batch_task CSV (.csv) or a PSPLIB project (.sm).
	ClusterPath, DemandPath, WorkloadPath string
	// Workload names a generated workload instead: fb, googlelike or
	// xflex.
	Workload string
	// PackingPath is an ownership PackingPlan (`capplan pack --shapes`):
	// the nodes are cut into its containers (container mode, SIMULATE.md
	// §1.4). W-XFLEX uses its embedded plan when none is given.
	PackingPath string
	// XSight records X-Flex's views in container mode (SIMULATE.md §4.2):
	// the use of every application's containers over time, the pairwise
	// sharing imbalances, and node snapshots at Snapshots (seconds; nil:
	// 100, 200 and 300 s).
	XSight    bool
	Snapshots []float64
	// AgainstPath is a packing plan whose allocation per resource the
	// document records beside the simulated one (the utilisation figures
	// draw it).
	AgainstPath string
	// Ownership records, in container mode, every application's share
	// held over time against the share of the containers it owns, while
	// it has work waiting (plan.SimOwnership: the simulated check of
	// `capplan plan`).
	Ownership bool
	// Files holds input contents by path: a path found here (ClusterPath,
	// DemandPath, WorkloadPath, PackingPath) is not read from disk, and the
	// document records it as a file (base name and digest).
	Files map[string][]byte
	// WorkloadParams tune the workload (--wparam): see WorkloadParamDocs.
	WorkloadParams map[string]string
	// Example runs the embedded example (cluster, demand and workload).
	Example bool
	// Policies are run in this order, each on identical inputs; the first
	// is --policy and the rest --compare.
	Policies []string
	// PolicyParams are per-policy parameters (--param P.k=v).
	PolicyParams map[string]map[string]string
	// Baseline, when set, pairs every run with this policy's run (it is
	// added to Policies when missing).
	Baseline string
	Seed     uint64
	// Load, when positive, sets Poisson arrivals at this offered load.
	Load float64
	// Noise is σ of the lognormal duration noise; NoiseMedian draws
	// factors of median 1.
	Noise       float64
	NoiseMedian bool
	// Misestimate shows policies truth × (1+X), X ~ U[a, b], per task or
	// per stage, while tasks run with the truth (--misestimate a:b[:stage]).
	Misestimate sim.Misestimate
	// TickSeconds is the simulator tick (0: 1 ms).
	TickSeconds float64
	// Overbook lets placements exceed capacity by a factor ≥ 1 in the
	// named resources (Graphene §7.2 overbooks network and disk).
	Overbook map[string]float64
	// Until stops the runs at this time in seconds (0: none).
	Until float64
	// Check asserts the simulator's invariants after every Round.
	Check bool
	// Alone also runs every job alone on the cluster, under the same
	// policy and seed, for its slowdown.
	Alone bool
	// Gantt names jobs whose task runs the document keeps (for the Gantt
	// figure); "first" keeps the first job.
	Gantt []string
	// Workers bounds the runs in parallel (0: GOMAXPROCS).
	Workers int
	// Generator names the tool in the document header.
	Generator string
	// Flags are recorded in the document header.
	Flags map[string]string
	// Rejected, when set, is called with the jobs rejected before any run.
	Rejected func([]sim.Rejection)
	// Progress, when set, is called from the run goroutines with the jobs
	// each newly finished (its calls may be concurrent).
	Progress func(jobs int)
}

// DefaultTickSeconds is the simulator tick: 1 ms (SIMULATE.md §1.1).
const DefaultTickSeconds = 0.001

// ErrNoJobs is returned when every job of the workload was rejected.
var ErrNoJobs = errors.New("pipeline: no job can run on the cluster")

// Simulate runs one cell per policy (SIMULATE.md §0): the same cluster,
// users, jobs, seed and noise for each, one goroutine per cell, results in
// policy order, so the document is the same whatever the worker count.
// With a baseline every run gets its paired comparison. The returned set
// holds one run per policy; SimulationSet.Result(0) is the single-policy
// document.
func Simulate(o SimulateOptions) (*plan.SimulationSet, error) {
	if o.TickSeconds == 0 {
		o.TickSeconds = DefaultTickSeconds
	}
	names := slices.Clone(o.Policies)
	if o.Baseline != "" && !slices.Contains(names, o.Baseline) {
		names = append(names, o.Baseline)
	}
	if len(names) == 0 {
		return nil, errors.New("pipeline: no policy to simulate")
	}
	for _, n := range names {
		if _, err := policies.New(n, o.PolicyParams[n]); err != nil {
			return nil, err
		}
	}
	w, err := loadWorkload(&o)
	if err != nil {
		return nil, err
	}
	var offline *plan.SimOffline
	if o.AgainstPath != "" {
		if offline, err = w.offline(o.AgainstPath); err != nil {
			return nil, err
		}
	}
	if o.XSight && !w.cluster.ContainerMode() {
		return nil, fmt.Errorf("pipeline: --view xsight needs container mode: --packing plan.json, or --workload xflex")
	}
	if o.Ownership && !w.cluster.ContainerMode() {
		return nil, fmt.Errorf("pipeline: the ownership check needs container mode: a packing plan")
	}
	o.PolicyParams = withDefaults(o.PolicyParams, w.policyDefaults)
	makers := make([]func() (sim.Policy, error), len(names))
	for i, n := range names {
		if _, err := policies.New(n, o.PolicyParams[n]); err != nil {
			return nil, err
		}
		makers[i] = func() (sim.Policy, error) { return policies.New(n, o.PolicyParams[n]) }
	}
	for i, n := range names {
		pol, _ := makers[i]()
		if cc, ok := pol.(clusterChecker); ok {
			if err := cc.CheckCluster(w.cluster, w.users); err != nil {
				return nil, fmt.Errorf("pipeline: policy %s on workload %s: %w", n, w.name, err)
			}
		}
	}
	if w.jobs != nil {
		rej, err := sim.Admit(sim.Config{Cluster: w.cluster, Users: w.users}, w.jobs)
		if err != nil {
			return nil, err
		}
		w.rejected = append(w.rejected, rej...)
		if len(w.rejected) > 0 && o.Rejected != nil {
			o.Rejected(w.rejected)
		}
		if len(w.rejected) == len(w.jobs)+w.expandRejected {
			return nil, fmt.Errorf("%w: all %d jobs of %s were rejected (first: %s: %s)", ErrNoJobs, len(w.rejected), w.name,
				w.rejected[0].Job, w.rejected[0].Reason)
		}
	}
	prb := make([]*probes, len(names))
	results := make([]*sim.Result, len(names))
	traces := make([]*sim.Trace, len(names))
	alone := make([][]sim.Tick, len(names))
	errs := make([]error, len(names))
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			prb[i] = newProbes(&o, w, names)
			results[i], traces[i], errs[i] = runCell(&o, w, makers[i], prb[i])
			if errs[i] == nil {
				prb[i].finish(results[i])
			}
			if errs[i] == nil && o.Alone {
				alone[i], errs[i] = runAlone(&o, w, makers[i], results[i])
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("pipeline: policy %s: %w", names[i], err)
		}
	}
	set := buildSet(&o, w, names, results, traces, alone)
	fillProbes(set, names, prb)
	set.Offline = offline
	return set, nil
}

// withDefaults returns the policy parameters with a workload's defaults
// added where the user set none (a copy: the caller's maps are kept).
func withDefaults(params, defaults map[string]map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, pol := range sortedKeysOf(params) {
		out[pol] = map[string]string{}
		for _, k := range sortedKeysOf(params[pol]) {
			out[pol][k] = params[pol][k]
		}
	}
	for _, pol := range sortedKeysOf(defaults) {
		if out[pol] == nil {
			out[pol] = map[string]string{}
		}
		for _, k := range sortedKeysOf(defaults[pol]) {
			if _, set := out[pol][k]; !set {
				out[pol][k] = defaults[pol][k]
			}
		}
	}
	return out
}

// clusterChecker is implemented by policies that run only on some
// clusters (the CMMF comparators need slot mode; xschedule containers).
type clusterChecker interface {
	CheckCluster(c *sim.Cluster, users []sim.User) error
}

// runCell runs one policy over a fresh source of the workload.
func runCell(o *SimulateOptions, w *workload, mk func() (sim.Policy, error), prb *probes) (*sim.Result, *sim.Trace, error) {
	pol, err := mk()
	if err != nil {
		return nil, nil, err
	}
	cfg := w.config(o, pol)
	prb.attach(pol)
	cfg.Observers = append(cfg.Observers, prb.observers()...)
	var tr *sim.Trace
	if len(o.Gantt) > 0 {
		keep := ganttFilter(o.Gantt, w)
		tr = &sim.Trace{Jobs: keep}
		cfg.Observers = append(cfg.Observers, tr)
	}
	if o.Progress != nil {
		last := 0
		cfg.ProgressEvery = 1 << 14
		cfg.Progress = func(_ sim.Tick, finished int) {
			o.Progress(finished - last)
			last = finished
		}
		defer func() { o.Progress(w.numJobs - last) }()
	}
	res, err := sim.Run(cfg, policies.Prepare(pol, w.source(), w.cluster, w.users, o.TickSeconds, o.Workers))
	return res, tr, err
}

// ganttFilter returns the job filter of the Gantt option.
func ganttFilter(names []string, w *workload) func(string) bool {
	set := map[string]bool{}
	for _, n := range names {
		if n == "first" && w.firstJob != "" {
			n = w.firstJob
		}
		set[n] = true
	}
	return func(name string) bool { return set[name] }
}

// runAlone runs every finished job of res alone under a fresh policy, with
// the actual durations it had in the full run, and returns the JCTs by
// job ordinal (−1 when unfinished).
func runAlone(o *SimulateOptions, w *workload, mk func() (sim.Policy, error), res *sim.Result) ([]sim.Tick, error) {
	if w.jobs == nil {
		return nil, errors.New("--alone needs a workload held in memory (not a generated one)")
	}
	sorted := sim.NewSliceSource(w.jobs)
	var ordered []sim.Job
	for j, ok := sorted.Next(); ok; j, ok = sorted.Next() {
		ordered = append(ordered, j)
	}
	byName := map[string]int{}
	for i := range ordered {
		byName[ordered[i].Name] = i
	}
	out := make([]sim.Tick, len(res.Jobs))
	for k, rec := range res.Jobs {
		out[k] = -1
		i, ok := byName[rec.Name]
		if !ok || rec.Finish < 0 {
			continue
		}
		pol, err := mk()
		if err != nil {
			return nil, err
		}
		cfg := w.config(o, pol)
		cfg.OrdinalOffset = sim.JobID(i)
		cfg.JainWindows = nil
		r, err := sim.Run(cfg, policies.Prepare(pol, sim.NewSliceSource([]sim.Job{ordered[i]}), w.cluster, w.users, o.TickSeconds, 1))
		if err != nil {
			return nil, fmt.Errorf("job %s alone: %w", rec.Name, err)
		}
		out[k] = r.Jobs[0].JCT()
	}
	return out, nil
}

// ParseParams parses "P.k=v" policy parameters into per-policy maps.
func ParseParams(args []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		pol, k, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || pol == "" || k == "" {
			return nil, fmt.Errorf("invalid --param %q: want POLICY.KEY=VALUE, such as capacity.max=0.5", a)
		}
		if out[pol] == nil {
			out[pol] = map[string]string{}
		}
		out[pol][k] = val
	}
	return out, nil
}
