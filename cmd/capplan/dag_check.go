package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// dagCheckOptions are the flags of `capplan dag check`.
type dagCheckOptions struct {
	io     *ioStreams
	run    pipeline.DAGCheckOptions
	output outputOptions
	shard  shardOptions
}

func newDAGCheckCmd(io *ioStreams) *cobra.Command {
	opts := &dagCheckOptions{io: io}
	cmd := &cobra.Command{
		Use:   "check --schedule <file> {<workload> | <file.sm> | <batch_task.csv> | --example} [flags]",
		Short: "Check a schedule against the job DAGs and machines, and measure it against the lower bounds",
		Long: `Check a schedule (observed in a cluster, made by hand or by another tool) against
the job DAGs of the input and the machines: every task starts after all its
predecessors end, runs for its duration on a machine that exists, and no
machine is ever over its capacity in any resource. Every violation is reported,
with the task ids and times; then the gap of the schedule's makespan to each
lower bound.

The schedule is a DAGSchedule JSON document ({"jobs": [{"name", "tasks": [{"id",
"start", "end", "machine"}]}]}; a single DAG may give just {"tasks": […]}) or a
CSV file with the header job,task,start,end,machine (job may be left out for a
single DAG). Times are in seconds (PSPLIB: periods); machine is an index into
the machines or a machine name (std-3), empty for a zero-duration task.
Without machine flags, the machines are those the DAGSchedule document lists,
else those 'capplan dag schedule' would use.

Exit status 1 when the schedule has a violation, 0 when it is feasible.`,
		Example: `  capplan dag schedule ../shared/datasets/psplib/j30/j301_1.sm --json > s.json && capplan dag check --schedule s.json ../shared/datasets/psplib/j30/j301_1.sm
  capplan dag schedule workload.yaml -c cluster.yaml --csv > observed.csv
  capplan dag check --schedule observed.csv workload.yaml -c cluster.yaml --json`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := validateDAGArgs(cmd, args, &opts.run.Input); err != nil {
				return err
			}
			if err := opts.shard.validate(&opts.output); err != nil {
				return err
			}
			return dagCheckRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.run.SchedulePath, "schedule", "s", "", "the schedule to check: DAGSchedule JSON or CSV `file`")
	bindDAGInput(f, &opts.run.Input)
	bindDAGBudget(f, &opts.run.Budget, "the destructive bounds")
	opts.output.bind(f, "DAGCheck")
	opts.shard.bind(f)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(pipeline.DAGFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// dagViolationsError reports a checked schedule that breaks constraints,
// after the report was written.
type dagViolationsError struct {
	path                          string
	violations, infeasible, total int
}

func (e *dagViolationsError) Error() string {
	return fmt.Sprintf("%s: %s in %d of %s", e.path, plural.Count(e.violations, "violation"), e.infeasible, plural.Count(e.total, "job"))
}

func dagCheckRun(o *dagCheckOptions) error {
	var finish func()
	o.run.Input.Progress, finish = newProgress(o.io, "checking")
	o.run.Generator = generator()
	if o.shard.shard != nil {
		part, err := pipeline.DAGCheckPart(o.run, *o.shard.shard)
		finish()
		if err != nil {
			return err
		}
		return writePart(o.io, o.output.Out, part)
	}
	doc, err := pipeline.DAGCheck(o.run)
	finish()
	if err != nil {
		return err
	}
	if err := o.output.write(o.io, views{
		doc:  doc,
		text: func(w io.Writer, terminal bool) error { return reports.WriteDAGCheckText(w, doc, terminal) },
		csv: func(w io.Writer) error {
			t := reports.DAGCheckCSVTable(doc)
			return t.WriteCSV(w)
		},
		workbook: func() (*reports.Workbook, error) { return reports.DAGCheckWorkbook(doc) },
	}); err != nil {
		return err
	}
	if n := doc.Summary.Violations; n > 0 {
		return &dagViolationsError{path: o.run.SchedulePath, violations: n, infeasible: doc.Summary.Jobs - doc.Summary.Feasible, total: doc.Summary.Jobs}
	}
	return nil
}
