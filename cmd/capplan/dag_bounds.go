package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// dagBoundsOptions are the flags of `capplan dag bounds`.
type dagBoundsOptions struct {
	io     *ioStreams
	run    pipeline.DAGBoundsOptions
	output outputOptions
	shard  shardOptions
}

func newDAGBoundsCmd(io *ioStreams) *cobra.Command {
	opts := &dagBoundsOptions{io: io}
	cmd := &cobra.Command{
		Use:   "bounds {<workload> | <file.sm> | <batch_task.csv> | --example} [flags]",
		Short: "Compute lower bounds on the makespan of every job DAG",
		Long: `Compute, for every job DAG of the input on the machines, the lower bounds on
the makespan of any schedule: the critical path (cpLength), Graphene's TWork
(work over pooled capacity, per resource and the largest), its rounded energy
bound, the stage-structure bound NewLB, the node-packing bound and the
per-machine bin bound; then, within --budget work units per job, the
destructive bounds: stage (stage-level energetic reasoning, DAGs in stages),
energetic (precedence windows, disjunctions, time-table and energetic
reasoning with shaving, up to 1000 tasks), search (the exact search refuting
makespans, up to 120 tasks), lcg (the search with nogood learning climbing
from the best bound so far, up to 120 tasks) and lp (the LP test of
destructive improvement, up to 200 tasks), in that order, each starting from
the bounds before it. best is the largest and bestBy ("best by") names it;
the table of destructive bounds and the JSON list every bound computed with
its value and work (and with --timings its wall-clock seconds, which depend
on the machine). For Alibaba traces the observed run time is
reported beside them. The input and machines flags are those of 'capplan dag
schedule'.`,
		Example: `  capplan dag bounds ../shared/datasets/psplib/j60/j601_1.sm
  capplan dag bounds ../shared/datasets/psplib/j30/j301_1.sm --json --timings
  capplan dag bounds --example --machines 4 --csv
  capplan dag bounds ../shared/datasets/alibaba-v2018/batch_task_dag_sample_hliangzhao.csv --machines 10 --max-tasks 100 -o bounds.json`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := validateDAGArgs(cmd, args, &opts.run.Input); err != nil {
				return err
			}
			if err := opts.shard.validate(&opts.output); err != nil {
				return err
			}
			return dagBoundsRun(opts)
		},
	}
	f := cmd.Flags()
	bindDAGInput(f, &opts.run.Input)
	bindDAGBudget(f, &opts.run.Budget, "the destructive bounds")
	f.BoolVar(&opts.run.Timings, "timings", false, "record each bound's wall-clock seconds in the document (machine-dependent)")
	opts.output.bind(f, "DAGBounds")
	opts.shard.bind(f)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(pipeline.DAGFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func dagBoundsRun(o *dagBoundsOptions) error {
	finish := reportDAGInput(o.io, "bounds", &o.run.Input)
	o.run.Generator = generator()
	if o.shard.shard != nil {
		part, err := pipeline.DAGBoundsPart(o.run, *o.shard.shard)
		finish()
		if err != nil {
			return err
		}
		return writePart(o.io, o.output.Out, part)
	}
	doc, err := pipeline.DAGBounds(o.run)
	finish()
	if err != nil {
		return err
	}
	return o.output.write(o.io, views{
		doc:  doc,
		text: func(w io.Writer, terminal bool) error { return reports.WriteDAGBoundsText(w, doc, terminal) },
		csv: func(w io.Writer) error {
			t := reports.DAGBoundsCSVTable(doc)
			return t.WriteCSV(w)
		},
		workbook: func() (*reports.Workbook, error) { return reports.DAGBoundsWorkbook(doc) },
	})
}
