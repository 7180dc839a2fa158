package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// simulateOptions are the flags of `capplan simulate`.
type simulateOptions struct {
	io *ioStreams

	Cluster, Demand, WorkloadFile, Workload string
	WParams                                 []string
	Example                                 bool
	Policy                                  string
	Compare                                 []string
	Baseline                                string
	Params                                  []string
	Seed                                    uint64
	Load, Noise                             float64
	NoiseMode                               string
	Misestimate                             string
	Tick                                    string
	Overbook                                []string
	Until                                   float64
	Check, Alone, Stats                     bool
	Gantt                                   []string
	SVG                                     string
	Packing, View, Snapshot, Against        string
	Workers                                 int
	output                                  outputOptions

	tickSeconds float64
	overbook    map[string]float64
	params      map[string]map[string]string
	wparams     map[string]string
	snapshots   []float64
	misestimate sim.Misestimate
}

func newSimulateCmd(io *ioStreams, runF func(*simulateOptions) error) *cobra.Command {
	opts := &simulateOptions{io: io}
	cmd := &cobra.Command{
		Use:   "simulate {-c <cluster> -w <workload> | --workload fb|googlelike|xflex|openb | --example} --policy <policy> [flags]",
		Short: "Replay job DAGs on a cluster under online scheduling policies, side by side",
		Long: `Simulate jobs arriving on a cluster, event by event, under an online policy, and
report each job's completion time (JCT) against its lower bound, the policy's
average, median and 95th-percentile JCT, makespan, utilisation per resource and
Jain's fairness index; --compare runs several policies on identical inputs (in
parallel) and --baseline pairs every job with its run under that policy (factor
of improvement FI = JCT(baseline)/JCT(policy), share of jobs slowed).

Workloads: -w takes a capplan Workload (YAML or JSON, with -c and optionally -d
for users' weights and selectors), an Alibaba v2018 batch_task CSV (W-ALI: 100
machines of 96 cores; trace arrivals, or Poisson with --load), or a PSPLIB .sm
project, or a directory of PSPLIB projects (W-PSP: one job per project, on
machines of their largest capacities); --workload fb is Facebook-like MapReduce (7000 jobs over 6 h, sized for
load 0.8) and googlelike Choosy's constrained slots workload, both generated
from --seed and streamed. --wparam tunes them (fb: jobs, machines, users,
horizon, meantasks; googlelike: jobs, machines, types, slots, horizon; alibaba:
arrivals, compress, machines, mindepth; psplib directory: jobs, machines,
users). --workload xflex is X-Flex's experiment (six nodes, applications flex, fair and fifo owning 26 containers each, 93
MapReduce jobs; meangap, duration, sigma, order) and --workload openb replays the
Alibaba GPU trace v2023 pod by pod (dir, pods, nodes, pending, copies), GPUs
fitted device by device.

--packing plan.json (from capplan pack --shapes) runs on the plan's
containers, each owned by an application (container mode): xschedule needs it,
and --view xsight then records X-Flex's views (container use per application,
pairwise sharing, node snapshots at --snapshot times) into the document, the
workbook and the figures. --against plan.json draws an offline plan's
allocation on the utilisation figures.

Policies: ` + strings.Join(policies.Names(), ", ") + `; --param POLICY.KEY=VALUE sets
their parameters (for example capacity.max=0.5, tetris.f=0.5, drf.entity=job).

Actual durations are estimate × lognormal noise (--noise σ), drawn per task from
--seed, so every policy sees the same actual durations; --misestimate a:b shows policies truth × (1+X) with
X ~ U[a,b] (per task, or per stage) while tasks run with the truth. Output is deterministic:
the same inputs and flags give the same bytes on any machine and any number of
workers.`,
		Example: `  capplan simulate --example --compare fifo,drf,sjf,tetris,cp --baseline drf --svg figs/
  capplan simulate -c cluster.yaml -d demand.yaml -w workload.yaml --policy drf --json
  capplan simulate --workload fb --wparam jobs=2000 --compare fifo,drf,tetris --load 0.9 -o sim.xlsx
  capplan simulate -w ../shared/datasets/alibaba-v2018/batch_task_dag_sample_hliangzhao.csv --policy capacity --param capacity.intra=cp --tick 1s
  capplan simulate --workload googlelike --policy choosy --compare cmmf-restricted,drf
  # xf/plan.json: capplan example --xflex xf, then capplan shapes and capplan pack on it (README, X-Flex)
  capplan simulate --workload xflex --packing xf/plan.json --policy xschedule --compare drf-am --view xsight --svg out/`,
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return simulateRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Cluster, "cluster", "c", "", "cluster inventory `file` (capplan Cluster or kubectl node list)")
	f.StringVarP(&opts.Demand, "demand", "d", "", "demand `file`: the users (applications) with weights and selectors")
	f.StringVarP(&opts.WorkloadFile, "workload-file", "w", "", "workload `file`: Workload YAML/JSON, batch_task .csv, PSPLIB .sm, or a directory of .sm projects (W-PSP)")
	f.StringVar(&opts.Workload, "workload", "", "generated workload: `fb`, googlelike, xflex or openb")
	f.StringVar(&opts.Packing, "packing", "", "ownership packing plan `file` (capplan pack --shapes): run on its containers (container mode)")
	f.StringVar(&opts.Against, "against", "", "packing plan `file` whose allocation per resource the utilisation figures draw beside the simulated one")
	f.StringVar(&opts.View, "view", "", "extra views: `xsight` (X-Flex's: container use per application, pairwise sharing, node snapshots)")
	f.StringVar(&opts.Snapshot, "snapshot", "", "times in `seconds,...` of the X-Sight node snapshots (100,200,300 when not given)")
	f.StringSliceVar(&opts.WParams, "wparam", nil, "workload parameters `key=value,...`")
	f.BoolVar(&opts.Example, "example", false, "simulate the embedded example (16 nodes, 4 users, 40 jobs)")
	f.StringVar(&opts.Policy, "policy", "fifo", "scheduling `policy`")
	f.StringSliceVar(&opts.Compare, "compare", nil, "also run these `policies` on the same inputs")
	f.StringVar(&opts.Baseline, "baseline", "", "pair every job with its run under this `policy`")
	f.StringArrayVar(&opts.Params, "param", nil, "policy parameter `POLICY.KEY=VALUE` (repeatable)")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed (noise, generators, arrivals, policies)")
	f.Float64Var(&opts.Load, "load", 0, "Poisson arrivals at this offered `load` (0: the workload's own arrivals)")
	f.Float64Var(&opts.Noise, "noise", 0, "σ of the lognormal duration noise: actual = estimate × exp(σZ − σ²/2)")
	f.StringVar(&opts.NoiseMode, "noise-mode", "mean", "noise factors of mean 1 (`mean`) or median 1 (median)")
	f.StringVar(&opts.Misestimate, "misestimate", "", "policies see truth × (1+X), X ~ U[a,b] per task or stage: `a:b[:stage|task]`")
	f.StringVar(&opts.Tick, "tick", "1ms", "simulated time step: `1ms`, 10ms, 100ms or 1s")
	f.StringSliceVar(&opts.Overbook, "overbook", nil, "allow placements above capacity by these factors: `resource=factor,...` (≥ 1)")
	f.Float64Var(&opts.Until, "until", 0, "stop at this simulated time in `seconds` (0: run to completion)")
	f.BoolVar(&opts.Check, "check", false, "assert the simulator's invariants after every scheduling round (slower)")
	f.BoolVar(&opts.Alone, "alone", false, "also run every job alone for its slowdown (workloads held in memory)")
	f.StringSliceVar(&opts.Gantt, "gantt", nil, "keep the task runs of these `jobs` (\"first\": the first job) for Gantt charts")
	f.StringVar(&opts.SVG, "svg", "", "write the figures as SVG files into `dir`")
	f.IntVar(&opts.Workers, "workers", 0, "policies simulated in parallel (0: all cores)")
	f.BoolVar(&opts.Stats, "stats", false, "print timings and event rates to stderr")
	opts.output.bind(f, "SimulationResult (or, for several policies, SimulationSet)")
	names := cobra.FixedCompletions(policies.Names(), cobra.ShellCompDirectiveNoFileComp)
	_ = cmd.RegisterFlagCompletionFunc("policy", names)
	_ = cmd.RegisterFlagCompletionFunc("compare", names)
	_ = cmd.RegisterFlagCompletionFunc("baseline", names)
	_ = cmd.RegisterFlagCompletionFunc("workload", cobra.FixedCompletions(simWorkloads, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("view", cobra.FixedCompletions([]string{"xsight"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// simWorkloads are the generated workloads --workload accepts.
var simWorkloads = []string{"fb", "googlelike", "xflex", "openb"}

// workloadNeedsCluster reports whether -w path names a Workload document,
// which runs on a cluster (-c): a file that exists and is not an Alibaba
// .csv, a PSPLIB .sm, a directory of PSPLIB projects (W-PSP) or standard
// input (detected by content in the pipeline). A path that does not exist
// is left to the loader, which says so naming it, rather than asking for
// a cluster the user does not need.
func workloadNeedsCluster(path string) bool {
	if path == "" || path == datasets.Stdin || strings.HasSuffix(path, ".csv") || strings.HasSuffix(path, ".sm") {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// simTicks are the accepted --tick values.
var simTicks = map[string]float64{"1ms": 0.001, "10ms": 0.01, "100ms": 0.1, "1s": 1}

func checkPolicy(flag, name string) error {
	if _, ok := policies.Lookup(name); !ok {
		return usageErrorf("unknown %s %q (valid: %s)", flag, name, strings.Join(policies.Names(), ", "))
	}
	return nil
}

func (o *simulateOptions) validate() error {
	inputs := 0
	for _, set := range []bool{o.WorkloadFile != "", o.Workload != "", o.Example} {
		if set {
			inputs++
		}
	}
	switch {
	case inputs == 0:
		return usageErrorf("give a workload: -w FILE, --workload %s or --example", strings.Join(simWorkloads, "|"))
	case inputs > 1:
		return usageErrorf("-w, --workload and --example cannot be combined")
	case o.Workload != "" && !slices.Contains(simWorkloads, o.Workload):
		return usageErrorf("unknown --workload %q (valid: %s; or -w FILE)", o.Workload, strings.Join(simWorkloads, ", "))
	case o.View != "" && o.View != "xsight":
		return usageErrorf("unknown --view %q (valid: xsight)", o.View)
	case o.Snapshot != "" && o.View != "xsight":
		return usageErrorf("--snapshot needs --view xsight")
	case workloadNeedsCluster(o.WorkloadFile) && o.Cluster == "":
		return usageErrorf("a Workload document needs a cluster: give -c cluster.yaml")
	case o.Demand != "" && o.Cluster == "" && !o.Example:
		return usageErrorf("-d needs -c")
	}
	if err := checkPolicy("--policy", o.Policy); err != nil {
		return err
	}
	for _, p := range o.Compare {
		if err := checkPolicy("--compare policy", p); err != nil {
			return err
		}
	}
	if o.Baseline != "" {
		if err := checkPolicy("--baseline", o.Baseline); err != nil {
			return err
		}
	}
	params, err := pipeline.ParseParams(o.Params)
	if err != nil {
		return usageErrorf("%v", err)
	}
	polNames := make([]string, 0, len(params))
	for p := range params {
		polNames = append(polNames, p)
	}
	slices.Sort(polNames)
	for _, p := range polNames {
		if err := checkPolicy("policy in --param", p); err != nil {
			return err
		}
		if _, err := policies.New(p, params[p]); err != nil {
			return usageErrorf("--param: %v", err)
		}
	}
	o.params = params
	o.wparams = map[string]string{}
	for _, kv := range o.WParams {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageErrorf("invalid --wparam %q: want key=value", kv)
		}
		o.wparams[k] = v
	}
	for _, v := range strings.Split(o.Snapshot, ",") {
		if v == "" && o.Snapshot == "" {
			break
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(t >= 0) || math.IsInf(t, 0) {
			return usageErrorf("invalid --snapshot %q: want times in seconds ≥ 0, such as 100,200,300", o.Snapshot)
		}
		o.snapshots = append(o.snapshots, t)
	}
	o.overbook = map[string]float64{}
	for _, kv := range o.Overbook {
		k, v, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || k == "" || err != nil || !(f >= 1) || math.IsInf(f, 0) {
			return usageErrorf("invalid --overbook %q: want resource=factor with factor ≥ 1, such as network=1.5", kv)
		}
		o.overbook[k] = f
	}
	if o.misestimate, err = pipeline.ParseMisestimate(o.Misestimate); err != nil {
		return usageErrorf("%v", err)
	}
	if o.tickSeconds = simTicks[o.Tick]; o.tickSeconds == 0 {
		return usageErrorf("invalid --tick %q: want 1ms, 10ms, 100ms or 1s", o.Tick)
	}
	switch {
	case o.Seed > math.MaxInt64:
		return usageErrorf("invalid --seed %d: at most %d", o.Seed, int64(math.MaxInt64))
	case !(o.Noise >= 0) || o.Noise > 10:
		return usageErrorf("invalid --noise %v: want σ in [0, 10]", o.Noise)
	case o.NoiseMode != "mean" && o.NoiseMode != "median":
		return usageErrorf("invalid --noise-mode %q: want mean or median", o.NoiseMode)
	case !(o.Load >= 0) || math.IsInf(o.Load, 0):
		return usageErrorf("invalid --load %v: want a number ≥ 0", o.Load)
	case !(o.Until >= 0):
		return usageErrorf("invalid --until %v", o.Until)
	case o.Workers < 0:
		return usageErrorf("invalid --workers %d", o.Workers)
	}
	return o.output.validate()
}

// policies returns --policy then --compare, without repeats.
func (o *simulateOptions) policies() []string {
	out := []string{o.Policy}
	for _, p := range o.Compare {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func (o *simulateOptions) flags() map[string]string {
	return pipeline.SimulateFlags{Policy: o.Policy, Seed: o.Seed, Tick: o.Tick, Workload: o.Workload, Example: o.Example,
		Compare: o.Compare, Baseline: o.Baseline, Params: o.Params, WParams: o.WParams, Overbook: o.Overbook,
		View: o.View, Against: o.Against, Snapshot: o.Snapshot, Load: o.Load, Noise: o.Noise, NoiseMode: o.NoiseMode,
		Until: o.Until, Misestimate: o.Misestimate}.Map()
}

func simulateRun(o *simulateOptions) error {
	t0 := time.Now()
	opts := pipeline.SimulateOptions{ClusterPath: o.Cluster, DemandPath: o.Demand, WorkloadPath: o.WorkloadFile,
		Workload: o.Workload, WorkloadParams: o.wparams, PackingPath: o.Packing, AgainstPath: o.Against, XSight: o.View == "xsight", Snapshots: o.snapshots, Example: o.Example, Policies: o.policies(), PolicyParams: o.params,
		Baseline: o.Baseline, Seed: o.Seed, Load: o.Load, Noise: o.Noise, NoiseMedian: o.NoiseMode == "median", Misestimate: o.misestimate,
		TickSeconds: o.tickSeconds, Overbook: o.overbook, Until: o.Until, Check: o.Check, Alone: o.Alone, Gantt: o.Gantt, Workers: o.Workers,
		Generator: generator(), Flags: o.flags(),
		Rejected: func(rs []sim.Rejection) { printSimRejections(o.io, rs) },
	}
	progress, finish := newProgress(o.io, "simulating (jobs finished)")
	if progress != nil {
		var mu sync.Mutex // runs of --compare report concurrently
		done := 0
		opts.Progress = func(n int) {
			mu.Lock()
			defer mu.Unlock()
			done += n
			progress(done, -1)
		}
	}
	set, err := pipeline.Simulate(opts)
	finish()
	if err != nil {
		var up *policies.UnknownPolicyError
		if errors.As(err, &up) {
			return &pipeline.OptionError{Err: err}
		}
		return err
	}
	if err := set.Validate(); err != nil {
		return fmt.Errorf("internal: %w", err)
	}
	if o.Stats {
		el := time.Since(t0)
		var events int64
		for _, r := range set.Runs {
			events += r.Stats.Events
		}
		fmt.Fprintf(o.io.ErrOut, "simulate: %s, %s in %v (%.0f events/s overall)\n", plural.Count(len(set.Runs), "policy"), plural.Count(events, "event"),
			el.Round(time.Millisecond), float64(events)/el.Seconds())
	}
	var doc any = set
	if len(set.Runs) == 1 {
		doc = set.Result(0)
	}
	if err := o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WriteSimulationText(w, set, terminal) },
		csv:      func(w io.Writer) error { return reports.WriteSimulationCSV(w, set) },
		workbook: func() (*reports.Workbook, error) { return reports.SimulationWorkbook(set) },
	}); err != nil {
		return err
	}
	if o.SVG != "" {
		return writeSimFigures(o.SVG, set)
	}
	return nil
}

// writeSimFigures writes every figure into dir, each atomically.
func writeSimFigures(dir string, set *plan.SimulationSet) error {
	figs, err := reports.SimulationFigures(set)
	if err != nil {
		return err
	}
	return writeFigures(dir, figs)
}

// maxRejectionsShown bounds the rejections printed before a run.
const maxRejectionsShown = 10

// printSimRejections reports the jobs rejected before the run on stderr.
func printSimRejections(streams *ioStreams, rs []sim.Rejection) {
	fmt.Fprintf(streams.ErrOut, "capplan: %s rejected before the run (listed in the result):\n", plural.Count(len(rs), "job"))
	for i, r := range rs {
		if i == maxRejectionsShown {
			fmt.Fprintf(streams.ErrOut, "  … and %d more\n", len(rs)-i)
			break
		}
		fmt.Fprintf(streams.ErrOut, "  job %s: %s\n", r.Job, r.Reason)
	}
}
