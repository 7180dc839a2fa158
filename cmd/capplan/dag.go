package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
)

func newDAGCmd(io *ioStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dag <command>",
		Short: "Schedule job DAGs, compute their lower bounds, check schedules",
		Long: `Build compact preferred schedules for job DAGs (Graphene, OSDI'16, and the
baselines BFS, CP, Tetris, Coffman-Graham, StripPart, Random and the RCPSP
schedule generation schemes), compute lower bounds on their makespans
(critical path, TWork, NewLB, node packing, bin), and check any schedule
against the DAGs and the machines.

Inputs: a capplan Workload (YAML or JSON, one DAG per job), a PSPLIB .sm
file (one project on one machine with the file's capacities; task ids are the
PSPLIB job numbers), or an Alibaba v2018 batch_task CSV (one DAG per job; jobs
that cannot be read are rejected with a reason and listed on stderr).`,
		Args: subcommandArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newDAGScheduleCmd(io), newDAGBoundsCmd(io), newDAGCheckCmd(io))
	return cmd
}

// bindDAGInput binds the flags that name a DAG input and its machines,
// shared by the dag subcommands, to in.
func bindDAGInput(f *pflag.FlagSet, in *pipeline.DAGInput) {
	f.BoolVar(&in.Example, "example", false, "use the embedded example workload (and, without --machines, the example cluster)")
	f.StringVar(&in.Format, "format", "auto", "input `format`: auto, psplib, workload or alibaba (auto: by extension, then by content)")
	f.StringVarP(&in.ClusterPath, "cluster", "c", "", "schedule on the nodes of this cluster `file` (workloads)")
	f.StringVar(&in.RackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
	f.IntVar(&in.Machines, "machines", 0, "schedule on `N` identical machines (PSPLIB: N copies of the file's machine, default 1; Alibaba: default 1 machine of 96 cores; workloads: needs -c or this)")
	f.StringVar(&in.MachineCapacity, "machine-capacity", "", "capacity of each of the --machines as `resource=quantity,...`, e.g. cpu=16,memory=64Gi; resources not named keep the default (workloads: the largest demand of any task; Alibaba: cpu=96,mem=100)")
	f.BoolVar(&in.Pool, "pool", false, "pooled mode: one machine with the summed capacity (ignores fragmentation); also reports the makespan on the machines")
	f.IntVar(&in.MaxTasks, "max-tasks", 0, fmt.Sprintf("reject (Alibaba; 0: %d) or refuse (workload; 0: %d) jobs with more than `n` tasks", pipeline.AlibabaMaxTasks, pipeline.DefaultMaxTasks))
	f.IntVar(&in.MaxEdges, "max-edges", 0, fmt.Sprintf("reject (Alibaba; 0: %d) or refuse (workload; 0: %d) jobs with more than `n` task edges", pipeline.AlibabaMaxEdges, pipeline.DefaultMaxEdges))
	f.IntVar(&in.Workers, "workers", runtime.NumCPU(), "jobs processed in parallel (0: all cores; results do not depend on it)")
}

// validateDAGArgs checks what only the command line can get wrong, the
// positional argument and a --machines given as 0, and takes the input
// path from the argument; the pipeline checks the rest.
func validateDAGArgs(cmd *cobra.Command, args []string, in *pipeline.DAGInput) error {
	switch {
	case in.Example && len(args) > 0:
		return usageErrorf("--example cannot be combined with an input file")
	case !in.Example && len(args) != 1:
		return usageErrorf("give one input file (Workload YAML/JSON, PSPLIB .sm or Alibaba batch_task CSV), or --example")
	case cmd.Flags().Changed("machines") && in.Machines < 1:
		return usageErrorf("invalid --machines %d: want at least 1", in.Machines)
	}
	if len(args) == 1 {
		in.Path = args[0]
	}
	if f := cmd.Flag("max-memory"); f != nil {
		if m, ok := f.Value.(*memoryFlag); ok {
			in.MemoryLimit = m.bytes
		}
	}
	return nil
}

// reportDAGInput lists the input's rejected jobs on stderr and, on a
// terminal, shows a progress bar titled what counting finished jobs; the
// function returned removes the bar.
func reportDAGInput(streams *ioStreams, what string, in *pipeline.DAGInput) (finish func()) {
	in.Rejected = func(source string, rs []plan.DAGRejection) { printDAGRejections(streams, source, rs) }
	in.Progress, finish = newProgress(streams, what)
	return finish
}

// printDAGRejections lists rejected jobs on stderr, one per line.
func printDAGRejections(streams *ioStreams, path string, rs []plan.DAGRejection) {
	for _, r := range rs {
		where := path
		if r.Line > 0 {
			where = fmt.Sprintf("%s:%d", path, r.Line)
		}
		if r.Job != "" {
			fmt.Fprintf(streams.ErrOut, "capplan: %s: job %s rejected: %s\n", where, r.Job, r.Reason)
		} else {
			fmt.Fprintf(streams.ErrOut, "capplan: %s: line rejected: %s\n", where, r.Reason)
		}
	}
}
