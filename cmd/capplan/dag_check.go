package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// dagCheckOptions are the flags of `capplan dag check`.
type dagCheckOptions struct {
	io       *ioStreams
	in       dagInputOptions
	Schedule string
	Budget   dagBudgetOptions
	output   outputOptions
}

func newDAGCheckCmd(io *ioStreams, runF func(*dagCheckOptions) error) *cobra.Command {
	opts := &dagCheckOptions{io: io}
	cmd := &cobra.Command{
		Use:   "check --schedule <file> {<workload> | <file.sm> | <batch_task.csv> | --example} [flags]",
		Short: "Check a schedule against the job DAGs and machines, and measure it against the lower bounds",
		Long: `Check a schedule (observed in a cluster, made by hand or by another tool) against
the job DAGs of the input and the machines: every task starts after all its
predecessors end, runs for its duration on a machine that exists, and no
machine is ever over its capacity in any resource. Every violation is reported,
with the task ids and times; then the gap of the schedule's makespan to each
lower bound, the destructive ones included (computed within --budget work
units per job, see 'capplan dag bounds'), and its certificate: "optimal (proved
by <bound>)" when the makespan meets a bound, else "gap x% to the <bound>
bound", naming the best bound.

The schedule is a DAGSchedule JSON document ({"jobs": [{"name", "tasks": [{"id",
"start", "end", "machine"}]}]}; a single DAG may give just {"tasks": […]}) or a
CSV file with the header job,task,start,end,machine (job may be left out for a
single DAG). Times are in seconds (PSPLIB: periods); machine is an index into
the machines or a machine name (std-3), empty for a zero-duration task.
Without machine flags, the machines are those the DAGSchedule document lists,
else those 'capplan dag schedule' would use.

Exit status 1 when the schedule has a violation, 0 when it is feasible.`,
		Example: `  capplan dag schedule j301_1.sm --json > s.json && capplan dag check --schedule s.json j301_1.sm
  capplan dag check --schedule observed.csv workload.yaml -c cluster.yaml --json`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.in.validate(cmd, args); err != nil {
				return err
			}
			if opts.Schedule == "" {
				return usageErrorf("--schedule is required: the schedule to check (DAGSchedule JSON or CSV job,task,start,end,machine)")
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
			return dagCheckRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Schedule, "schedule", "s", "", "the schedule to check: DAGSchedule JSON or CSV `file`")
	opts.in.bind(f)
	opts.Budget.bind(f, "the destructive bounds")
	opts.output.bind(f, "DAGCheck")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(dagFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// dagViolationsError reports a checked schedule that breaks constraints,
// after the report was written.
type dagViolationsError struct {
	path                          string
	violations, infeasible, total int
}

func (e *dagViolationsError) Error() string {
	v := "violations"
	if e.violations == 1 {
		v = "violation"
	}
	return fmt.Sprintf("%s: %d %s in %d of %d jobs", e.path, e.violations, v, e.infeasible, e.total)
}

func dagCheckRun(o *dagCheckOptions) error {
	src, err := o.in.readSource()
	if err != nil {
		return err
	}
	data, err := readInput(o.Schedule)
	if err != nil {
		return err
	}
	ob, err := readDAGObserved(o.Schedule, data)
	if err != nil {
		return err
	}
	var machines *dagMachines
	var inputs []plan.Input
	pooled := o.in.Pool
	if o.in.machineFlags() || ob.machines == nil {
		if machines, inputs, err = o.in.resolveMachines(src); err != nil {
			return err
		}
	} else {
		machines, pooled = &dagMachines{groups: ob.machines}, ob.pooled
	}
	jobs, rejected, err := buildDAGJobs(src, machines)
	if err != nil {
		return err
	}
	rejected = append(src.rejected, rejected...)
	matched, err := matchDAGObserved(ob, src, jobs, rejected)
	if err != nil {
		return err
	}
	flags := map[string]string{}
	o.in.flags(flags)
	o.Budget.flags(flags)
	inputs = append(append(src.inputs, inputs...), plan.Input{Role: "schedule", Path: o.Schedule, SHA256: digest(data)})
	groups := machines.docGroups()
	doc := &plan.DAGCheck{
		Header:   plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindDAGCheck, Generator: generator(), Inputs: inputs, Flags: flags},
		Format:   src.format,
		Pooled:   pooled,
		Machines: groups,
		Jobs:     make([]plan.DAGCheckJob, len(matched)),
	}
	names := dagMachineIndex(groups)
	err = runDAGJobs(o.io, "checking", len(matched), o.in.Workers, func(i int) error {
		m := matched[i]
		j := &jobs[m.job]
		d, s, err := dagObservedSchedule(o.Schedule, j.d, len(j.machines), names, ob.jobs[m.observed])
		if err != nil {
			return err
		}
		a, err := dag.AssessAll(d, j.machines, s, dag.Options{MaxWork: o.Budget.MaxWork, TimeLimit: o.Budget.TimeLimit})
		if err != nil {
			return fmt.Errorf("job %s: %w", d.Name, err)
		}
		doc.Jobs[i] = plan.NewDAGCheckJob(d, a)
		return nil
	})
	if err != nil {
		return err
	}
	doc.Summarize()
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
		return &dagViolationsError{path: o.Schedule, violations: n, infeasible: doc.Summary.Jobs - doc.Summary.Feasible, total: doc.Summary.Jobs}
	}
	return nil
}

// dagMatch pairs an observed job with an input job (indices).
type dagMatch struct{ observed, job int }

// matchDAGObserved finds each observed job's DAG, in input order. A
// schedule without job names matches an input with one DAG.
func matchDAGObserved(ob *dagObserved, src *dagSource, jobs []dagJob, rejected []plan.DAGRejection) ([]dagMatch, error) {
	byName := map[string]int{}
	for i, j := range jobs {
		byName[j.d.Name] = i
	}
	if len(ob.jobs) == 1 && ob.jobs[0].name == "" {
		if len(jobs) != 1 {
			return nil, fmt.Errorf("%s: the schedule names no job, but %s has %d jobs: add a job column (CSV) or jobs[].name (JSON)", ob.path, src.path, len(jobs))
		}
		return []dagMatch{{0, 0}}, nil
	}
	seen := map[string]bool{}
	var out []dagMatch
	for k, oj := range ob.jobs {
		switch {
		case oj.name == "":
			return nil, fmt.Errorf("%s: %s: job without a name in a schedule of several jobs", ob.path, oj.where)
		case seen[oj.name]:
			return nil, fmt.Errorf("%s: %s: job %s appears twice", ob.path, oj.where, oj.name)
		}
		seen[oj.name] = true
		i, ok := byName[oj.name]
		if !ok && len(jobs) == 1 && len(ob.jobs) == 1 {
			// One DAG and one job: a hand-written name may differ.
			i, ok = 0, true
		}
		if !ok {
			for _, r := range rejected {
				if r.Job == oj.name {
					return nil, fmt.Errorf("%s: %s: job %s was rejected from %s: %s", ob.path, oj.where, oj.name, src.path, r.Reason)
				}
			}
			return nil, fmt.Errorf("%s: %s: job %q is not in %s", ob.path, oj.where, oj.name, src.path)
		}
		out = append(out, dagMatch{k, i})
	}
	// Input order.
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && out[b].job < out[b-1].job; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out, nil
}

// dagMachineIndex maps machine names to indices.
func dagMachineIndex(groups []plan.DAGMachineGroup) map[string]int {
	out := map[string]int{}
	for _, g := range groups {
		for i := g.First; i < g.First+g.Count; i++ {
			out[plan.MachineName(groups, i)] = i
		}
	}
	return out
}

// dagObservedSchedule turns an observed job into a dag.Schedule on the DAG,
// refined to a finer tick when the times need one. Every task must appear
// exactly once.
func dagObservedSchedule(path string, d *dag.DAG, machines int, names map[string]int, job dagObservedJob) (*dag.DAG, *dag.Schedule, error) {
	unit, factor, err := dagObservedUnit(path, d, job)
	if err != nil {
		return nil, nil, err
	}
	if d, err = refineDAG(d, unit, factor); err != nil {
		return nil, nil, fmt.Errorf("internal error: refining %s to ticks of %v: %w", d.Name, unit, err)
	}
	s := dag.NewSchedule(d.N())
	seen := make([]bool, d.N())
	for _, t := range job.tasks {
		i, ok := d.Index(t.id)
		if !ok {
			return nil, nil, fmt.Errorf("%s: %s: task %q is not a task of job %s", path, t.where, t.id, d.Name)
		}
		if seen[i] {
			return nil, nil, fmt.Errorf("%s: %s: task %s appears twice", path, t.where, t.id)
		}
		seen[i] = true
		s.Start[i], _ = dagWholeTicks(t.start, unit)
		s.End[i], _ = dagWholeTicks(t.end, unit)
		s.Machine[i] = t.machine
		if t.machineName != "" {
			m, ok := names[t.machineName]
			if !ok {
				return nil, nil, fmt.Errorf("%s: %s: unknown machine %q: want an index 0 … %d or a machine name", path, t.where, t.machineName, machines-1)
			}
			s.Machine[i] = m
		}
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, d.Tasks[i].ID)
		}
	}
	if n := len(missing); n > 0 {
		more := ""
		if n > 8 {
			more = fmt.Sprintf(" and %d more", len(missing)-8)
			missing = missing[:8]
		}
		return nil, nil, fmt.Errorf("%s: job %s: %d of %d tasks have no schedule: %s%s", path, d.Name, n, d.N(), strings.Join(missing, ", "), more)
	}
	return d, s, nil
}
