package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// dagScheduleOptions are the flags of `capplan dag schedule`: the
// pipeline's options, bound straight to flags, and the output flags.
type dagScheduleOptions struct {
	io     *ioStreams
	run    pipeline.DAGScheduleOptions
	Stats  bool
	output outputOptions
	shard  shardOptions
}

func newDAGScheduleCmd(io *ioStreams) *cobra.Command {
	opts := &dagScheduleOptions{io: io}
	cmd := &cobra.Command{
		Use:   "schedule {<workload> | <file.sm> | <batch_task.csv> | --example} [flags]",
		Short: "Build a preferred schedule for every job DAG, with its lower bounds",
		Long: `Schedule every job DAG of the input on the machines and measure each schedule
against the lower bounds (critical path, TWork, NewLB, node packing, bin): the
gap is makespan/best bound − 1, and a schedule is optimal when it meets a bound.

Methods: best (the default) runs Graphene and the single-pass baselines, improves
each by forward-backward justification and then runs a genetic algorithm within
--budget, stopping early at a lower bound; graphene is Graphene's builder alone
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
		Example: `  capplan dag schedule ../shared/datasets/psplib/j30/j301_1.sm --json
  capplan dag schedule workload.yaml -c cluster.yaml -o schedule.json
  capplan dag schedule workload.yaml -c cluster.yaml --csv > observed.csv
  capplan dag schedule --example --machines 8 --machine-capacity cpu=32,memory=256Gi,gpu=8
  capplan dag schedule ../shared/datasets/alibaba-v2018/batch_task_dag_sample_hliangzhao.csv --machines 2 --max-tasks 100 --method graphene --compare bfs,cp,tetris --xlsx dags.xlsx`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(cmd, args); err != nil {
				return err
			}
			return dagScheduleRun(opts)
		},
	}
	f := cmd.Flags()
	bindDAGInput(f, &opts.run.Input)
	f.StringVar(&opts.run.Method, "method", "best", "scheduler: best, graphene, bfs, cp, tetris, cg, strippart, random, sgs, or an SGS variant such as psgs-lft")
	bindDAGBudget(f, &opts.run.Budget, "--method best")
	f.Uint64Var(&opts.run.Seed, "seed", 1, "random seed (random rule, sampling, the genetic algorithm)")
	f.StringSliceVar(&opts.run.Compare, "compare", nil, "also run these `methods` and report their makespans")
	f.BoolVar(&opts.Stats, "stats", false, "print timings to stderr")
	opts.output.bind(f, "DAGSchedule")
	opts.shard.bind(f)
	methods := cobra.FixedCompletions(pipeline.DAGMethods(), cobra.ShellCompDirectiveNoFileComp)
	_ = cmd.RegisterFlagCompletionFunc("method", methods)
	_ = cmd.RegisterFlagCompletionFunc("compare", methods)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(pipeline.DAGFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *dagScheduleOptions) validate(cmd *cobra.Command, args []string) error {
	if err := validateDAGArgs(cmd, args, &o.run.Input); err != nil {
		return err
	}
	return o.shard.validate(&o.output)
}

func dagScheduleRun(o *dagScheduleOptions) error {
	finish := reportDAGInput(o.io, "scheduling", &o.run.Input)
	o.run.Generator = generator()
	if o.shard.shard != nil {
		part, err := pipeline.DAGSchedulePart(o.run, *o.shard.shard)
		finish()
		if err != nil {
			return err
		}
		return writePart(o.io, o.output.Out, part)
	}
	res, err := pipeline.DAGSchedule(o.run)
	finish()
	if err != nil {
		return err
	}
	doc := res.Doc
	if err := o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WriteDAGScheduleText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WriteDAGScheduleCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.DAGScheduleWorkbook(doc) },
	}); err != nil {
		return err
	}
	if o.Stats {
		fmt.Fprintf(o.io.ErrOut, "stats: %s, %s, %d rejected; load %v, schedule %v on %s\n",
			plural.Count(doc.Summary.Jobs, "job"), plural.Count(doc.Summary.Tasks, "task"), len(doc.Rejected), res.Stats.Load.Round(time.Millisecond),
			res.Stats.Run.Round(time.Millisecond), plural.Count(res.Stats.Workers, "worker"))
	}
	return nil
}
