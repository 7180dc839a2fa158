package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// dagBoundsOptions are the flags of `capplan dag bounds`.
type dagBoundsOptions struct {
	io      *ioStreams
	in      dagInputOptions
	Budget  dagBudgetOptions
	Timings bool
	output  outputOptions
}

func newDAGBoundsCmd(io *ioStreams, runF func(*dagBoundsOptions) error) *cobra.Command {
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
reasoning with shaving, up to 1000 tasks), lp (the LP test of destructive
improvement, up to 200 tasks) and search (the exact search refuting makespans,
up to 120 tasks). best is the largest and bestBy names it; the JSON lists every
bound with its value and work (and with --timings its wall-clock seconds,
which depend on the machine). For Alibaba traces the observed run time is
reported beside them. The input and machines flags are those of 'capplan dag
schedule'.`,
		Example: `  capplan dag bounds j601_1.sm
  capplan dag bounds j301_1.sm --json --timings
  capplan dag bounds --example --machines 4 --csv
  capplan dag bounds batch_task.csv --machines 10 -o bounds.json`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.in.validate(cmd, args); err != nil {
				return err
			}
			if err := opts.Budget.validate(); err != nil {
				return err
			}
			if err := opts.output.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return dagBoundsRun(opts)
		},
	}
	f := cmd.Flags()
	opts.in.bind(f)
	opts.Budget.bind(f, "the destructive bounds")
	f.BoolVar(&opts.Timings, "timings", false, "record each bound's wall-clock seconds in the document (machine-dependent)")
	opts.output.bind(f, "DAGBounds")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(dagFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func dagBoundsRun(o *dagBoundsOptions) error {
	ld, err := o.in.load(o.io)
	if err != nil {
		return err
	}
	src, machines, jobs, rejected := ld.src, ld.machines, ld.jobs, ld.rejected
	flags := map[string]string{}
	o.in.flags(flags)
	o.Budget.flags(flags)
	if o.Timings {
		flags["timings"] = "true"
	}
	doc := &plan.DAGBounds{
		Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindDAGBounds, Generator: generator(),
			Inputs: ld.inputs, Flags: flags},
		Format: src.format, Pooled: machines.pooled, Machines: machines.docGroups(),
		Jobs: make([]plan.DAGJobInfo, len(jobs)), Rejected: rejected,
	}
	err = runDAGJobs(o.io, "bounds", len(jobs), o.in.Workers, func(i int) error {
		j := &jobs[i]
		b, err := dag.AllBounds(j.d, j.machines, 0, dag.Options{MaxWork: o.Budget.MaxWork, TimeLimit: o.Budget.TimeLimit})
		if err != nil {
			return fmt.Errorf("job %s: %w", j.d.Name, err)
		}
		info := plan.NewDAGJobInfoTimed(j.d, b, o.Timings)
		if j.observed != nil {
			span := j.d.Seconds(*j.observed)
			g := dag.Gap(*j.observed, b.Best)
			info.ObservedSpan, info.ObservedGap = &span, &g
		}
		doc.Jobs[i] = info
		return nil
	})
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
