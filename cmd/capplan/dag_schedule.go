package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// dagScheduleOptions are the flags of `capplan dag schedule`.
type dagScheduleOptions struct {
	io *ioStreams
	in dagInputOptions

	Method  string
	Budget  dagBudgetOptions
	Seed    uint64
	Compare []string
	Stats   bool
	output  outputOptions
}

func newDAGScheduleCmd(io *ioStreams, runF func(*dagScheduleOptions) error) *cobra.Command {
	opts := &dagScheduleOptions{io: io}
	cmd := &cobra.Command{
		Use:   "schedule {<workload> | <file.sm> | <batch_task.csv> | --example} [flags]",
		Short: "Build a preferred schedule for every job DAG, with its lower bounds",
		Long: `Schedule every job DAG of the input on the machines and measure each schedule
against the lower bounds (critical path, TWork, NewLB, node packing, bin): the
gap is makespan/best bound − 1, and a schedule is optimal when it meets a bound:
its certificate then reads "optimal (proved by <bound>)". Method best also
computes the destructive bounds (energetic reasoning, LP, stage level, exact
search) within its budget.

Methods: best (the default) runs Graphene and the single-pass baselines, improves
each by forward-backward justification, computes the destructive bounds, then
runs the exact search (DAGs up to 120 tasks) and a genetic algorithm in
parallel within --budget, stopping early when a schedule meets a bound; graphene is Graphene's builder alone
(troublesome tasks first, OSDI'16 §4); bfs, cp, tetris, cg, strippart and
random are the paper's baselines; ssgs-RULE, psgs-RULE, bssgs-RULE and
bpsgs-RULE are the serial/parallel (backward) schedule generation schemes with a
priority rule; sgs is ssgs-lft.

Machines: a PSPLIB file is one machine with the file's capacities (--machines N
gives N such machines); a workload runs on the nodes of --cluster, or on
--machines N identical machines of --machine-capacity (default: per resource,
the largest demand of any task of the workload); --example without either uses
the example cluster; an Alibaba trace runs each job on --machines Alibaba
machines (default 1, of cpu=96,mem=100). --pool schedules on one machine with
the summed capacity and also reports the makespan on the machines.

Many jobs are scheduled --workers at a time, with a progress bar on a terminal;
jobs keep their input order, and results depend only on the inputs, the flags
and --seed: budgets count work, not time (--time-limit adds an opt-in
wall-clock limit; a job whose search it cut says timeLimitHit). Every schedule
passes an independent check of precedence and capacity before it is written.`,
		Example: `  capplan dag schedule j301_1.sm --json
  capplan dag schedule workload.yaml -c cluster.yaml -o schedule.json
  capplan dag schedule --example --machines 8 --machine-capacity cpu=32,memory=256Gi,gpu=8
  capplan dag schedule batch_task.csv --machines 2 --method graphene --compare bfs,cp,tetris --xlsx dags.xlsx`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(cmd, args); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return dagScheduleRun(opts)
		},
	}
	f := cmd.Flags()
	opts.in.bind(f)
	f.StringVar(&opts.Method, "method", "best", "scheduler: best, graphene, bfs, cp, tetris, cg, strippart, random, sgs, or an SGS variant such as psgs-lft")
	opts.Budget.bind(f, "--method best")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed (random rule, sampling, the genetic algorithm)")
	f.StringSliceVar(&opts.Compare, "compare", nil, "also run these `methods` and report their makespans")
	f.BoolVar(&opts.Stats, "stats", false, "print timings to stderr")
	opts.output.bind(f, "DAGSchedule")
	methods := cobra.FixedCompletions(dagMethods(), cobra.ShellCompDirectiveNoFileComp)
	_ = cmd.RegisterFlagCompletionFunc("method", methods)
	_ = cmd.RegisterFlagCompletionFunc("compare", methods)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(dagFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *dagScheduleOptions) validate(cmd *cobra.Command, args []string) error {
	if err := o.in.validate(cmd, args); err != nil {
		return err
	}
	if err := checkDAGMethod("--method", o.Method); err != nil {
		return err
	}
	o.Compare = dagSortedUnique(o.Compare)
	for _, m := range o.Compare {
		if err := checkDAGMethod("--compare method", m); err != nil {
			return err
		}
	}
	if o.Seed > math.MaxInt64 {
		return usageErrorf("invalid --seed %d: at most %d", o.Seed, int64(math.MaxInt64))
	}
	if err := o.Budget.validate(); err != nil {
		return err
	}
	if o.Budget.set() && o.Method != "best" {
		return usageErrorf("--budget and --time-limit apply to --method best only")
	}
	return o.output.validate()
}

func (o *dagScheduleOptions) flags() map[string]string {
	m := map[string]string{"method": o.Method}
	o.in.flags(m)
	o.Budget.flags(m)
	if len(o.Compare) > 0 {
		m["compare"] = strings.Join(o.Compare, ",")
	}
	return m
}

func dagScheduleRun(o *dagScheduleOptions) error {
	t0 := time.Now()
	ld, err := o.in.load(o.io)
	if err != nil {
		return err
	}
	src, machines, jobs, rejected := ld.src, ld.machines, ld.jobs, ld.rejected
	tLoad := time.Now()
	seed := int64(o.Seed)
	doc := &plan.DAGSchedule{
		Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindDAGSchedule, Generator: generator(),
			Inputs: ld.inputs, Flags: o.flags(), Seed: &seed},
		Format: src.format, Method: o.Method, Pooled: machines.pooled, Machines: machines.docGroups(),
		Jobs: make([]plan.DAGJob, len(jobs)), Rejected: rejected,
	}
	inner := dagInnerWorkers(len(jobs), o.in.Workers)
	err = runDAGJobs(o.io, "scheduling", len(jobs), o.in.Workers, func(i int) error {
		j, err := o.scheduleJob(&jobs[i], inner)
		doc.Jobs[i] = j
		return err
	})
	if err != nil {
		return err
	}
	doc.Summarize()
	if err := o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WriteDAGScheduleText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WriteDAGScheduleCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.DAGScheduleWorkbook(doc) },
	}); err != nil {
		return err
	}
	if o.Stats {
		fmt.Fprintf(o.io.ErrOut, "stats: %d jobs, %d tasks, %d rejected; load %v, schedule %v on %d workers\n",
			doc.Summary.Jobs, doc.Summary.Tasks, len(rejected), tLoad.Sub(t0).Round(time.Millisecond),
			time.Since(tLoad).Round(time.Millisecond), o.in.Workers)
	}
	return nil
}

// dagOptions are the scheduler options of one job.
func (o *dagScheduleOptions) dagOptions(inner int) dag.Options {
	return dag.Options{Seed: o.Seed, Workers: inner, MaxWork: o.Budget.MaxWork, TimeLimit: o.Budget.TimeLimit}
}

// scheduleJob schedules one job with the method, checks the schedule and
// adds the pooled-mode, comparison and observed evidence.
func (o *dagScheduleOptions) scheduleJob(j *dagJob, inner int) (plan.DAGJob, error) {
	opts := o.dagOptions(inner)
	var s *dag.Schedule
	var b dag.Bounds
	method, schedules := o.Method, 0
	var work int64
	var timeHit bool
	if o.Method == "best" {
		r, err := dag.Best(j.d, j.machines, opts)
		if err != nil {
			return plan.DAGJob{}, fmt.Errorf("job %s: %w", j.d.Name, err)
		}
		s, b, method, schedules = r.Schedule, r.Bounds, r.Method, r.Schedules
		work, timeHit = r.WorkUsed, r.TimeLimitHit
	} else {
		var err error
		if s, err = runDAGMethod(o.Method, j.d, j.machines, opts); err != nil {
			return plan.DAGJob{}, err
		}
		b = dag.LowerBounds(j.d, j.machines)
	}
	out, err := plan.NewDAGJob(j.d, j.machines, s, b, method)
	if err != nil {
		return plan.DAGJob{}, err
	}
	out.Schedules, out.WorkUsed, out.TimeLimitHit = schedules, work, timeHit
	if o.in.Pool {
		ms, err := dagMakespan(o.Method, j.d, j.own, opts)
		if err != nil {
			return plan.DAGJob{}, err
		}
		out.MachinesMakespan = &ms
	}
	for _, m := range o.Compare {
		ms, err := dagMakespan(m, j.d, j.machines, opts)
		if err != nil {
			return plan.DAGJob{}, err
		}
		if out.Compare == nil {
			out.Compare = map[string]float64{}
		}
		out.Compare[m] = ms
	}
	if j.observed != nil {
		span := j.d.Seconds(*j.observed)
		g := dag.Gap(*j.observed, b.Best)
		out.ObservedSpan, out.ObservedGap = &span, &g
	}
	return out, nil
}

// runDAGMethod runs a library scheduler (or an alias) and normalises the
// schedule to start at 0.
func runDAGMethod(name string, d *dag.DAG, machines [][]float64, opts dag.Options) (*dag.Schedule, error) {
	lib := name
	if a, ok := dagMethodAliases[name]; ok {
		lib = a
	}
	s, err := dag.Run(lib, d, machines, opts)
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", d.Name, err)
	}
	s.Normalize()
	return s, nil
}

// dagMakespan runs a method and returns its checked makespan in seconds.
func dagMakespan(method string, d *dag.DAG, machines [][]float64, opts dag.Options) (float64, error) {
	var s *dag.Schedule
	if method == "best" {
		r, err := dag.Best(d, machines, opts)
		if err != nil {
			return 0, fmt.Errorf("job %s: %w", d.Name, err)
		}
		s = r.Schedule
	} else {
		var err error
		if s, err = runDAGMethod(method, d, machines, opts); err != nil {
			return 0, err
		}
	}
	if v := dag.Check(d, machines, s); len(v) > 0 {
		return 0, fmt.Errorf("internal error: %s: the %s schedule fails the check: %v", d.Name, method, v[0])
	}
	return d.Seconds(s.Makespan()), nil
}

// dagSortedUnique returns the sorted distinct strings.
func dagSortedUnique(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
