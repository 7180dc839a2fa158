package main

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/kvlist"
)

// DAG input formats.
const (
	dagFormatAuto     = "auto"
	dagFormatPSPLIB   = "psplib"
	dagFormatWorkload = "workload"
	dagFormatAlibaba  = "alibaba"
)

var dagFormats = []string{dagFormatAuto, dagFormatPSPLIB, dagFormatWorkload, dagFormatAlibaba}

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
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newDAGScheduleCmd(io, nil), newDAGBoundsCmd(io, nil), newDAGCheckCmd(io, nil))
	return cmd
}

// dagInputOptions are the flags that name a DAG input and its machines,
// shared by the dag subcommands.
type dagInputOptions struct {
	Path            string
	Example         bool
	Format          string
	ClusterPath     string
	RackLabel       string
	Machines        int
	MachineCapacity string
	Pool            bool
	MaxTasks        int
	MaxEdges        int
	Workers         int

	// machinesSet is true when --machines was given.
	machinesSet bool
	// capacity is the parsed --machine-capacity, in base units.
	capacity map[string]float64
}

func (o *dagInputOptions) bind(f *pflag.FlagSet) {
	f.BoolVar(&o.Example, "example", false, "use the embedded example workload (and, without --machines, the example cluster)")
	f.StringVar(&o.Format, "format", dagFormatAuto, "input `format`: auto, psplib, workload or alibaba (auto: by extension, then by content)")
	f.StringVarP(&o.ClusterPath, "cluster", "c", "", "schedule on the nodes of this cluster `file` (workloads)")
	f.StringVar(&o.RackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
	f.IntVar(&o.Machines, "machines", 0, "schedule on `N` identical machines (PSPLIB: N copies of the file's machine, default 1; Alibaba: default 1 machine of 96 cores; workloads: needs -c or this)")
	f.StringVar(&o.MachineCapacity, "machine-capacity", "", "capacity of each of the --machines as `resource=quantity,...`, e.g. cpu=16,memory=64Gi; resources not named keep the default (workloads: the largest demand of any task; Alibaba: cpu=96,mem=100)")
	f.BoolVar(&o.Pool, "pool", false, "pooled mode: one machine with the summed capacity (ignores fragmentation); also reports the makespan on the machines")
	f.IntVar(&o.MaxTasks, "max-tasks", 0, "reject (Alibaba) or refuse (workload) jobs with more than `n` tasks (0: 200000)")
	f.IntVar(&o.MaxEdges, "max-edges", 0, "reject (Alibaba) or refuse (workload) jobs with more than `n` task edges (0: 20000000)")
	f.IntVar(&o.Workers, "workers", runtime.NumCPU(), "jobs processed in parallel (0: all cores; results do not depend on it)")
}

func (o *dagInputOptions) validate(cmd *cobra.Command, args []string) error {
	o.machinesSet = cmd.Flags().Changed("machines")
	switch {
	case o.Example && len(args) > 0:
		return usageErrorf("--example cannot be combined with an input file")
	case !o.Example && len(args) != 1:
		return usageErrorf("give one input file (Workload YAML/JSON, PSPLIB .sm or Alibaba batch_task CSV), or --example")
	case !slices.Contains(dagFormats, o.Format):
		return usageErrorf("invalid --format %q: valid formats are %s", o.Format, strings.Join(dagFormats, ", "))
	case o.Example && o.Format != dagFormatAuto && o.Format != dagFormatWorkload:
		return usageErrorf("--example is a workload; --format %s does not apply", o.Format)
	case o.machinesSet && o.Machines < 1:
		return usageErrorf("invalid --machines %d: want at least 1", o.Machines)
	case o.Machines > datasets.MaxNodes:
		return usageErrorf("invalid --machines %d: at most %d", o.Machines, datasets.MaxNodes)
	case o.ClusterPath != "" && (o.machinesSet || o.MachineCapacity != ""):
		return usageErrorf("--cluster cannot be combined with --machines or --machine-capacity")
	case o.MaxTasks < 0 || o.MaxEdges < 0:
		return usageErrorf("--max-tasks and --max-edges must not be negative")
	case o.Workers < 0:
		return usageErrorf("invalid --workers %d", o.Workers)
	}
	if len(args) == 1 {
		o.Path = args[0]
	}
	if o.Workers == 0 {
		o.Workers = runtime.NumCPU()
	}
	c, err := parseDAGCapacity(o.MachineCapacity)
	if err != nil {
		return err
	}
	o.capacity = c
	return nil
}

// machineFlags reports whether any flag chose the machines.
func (o *dagInputOptions) machineFlags() bool {
	return o.ClusterPath != "" || o.machinesSet || o.MachineCapacity != "" || o.Pool
}

// flags records the input options that shape a result.
func (o *dagInputOptions) flags(m map[string]string) {
	if o.machinesSet {
		m["machines"] = strconv.Itoa(o.Machines)
	}
	if o.MachineCapacity != "" {
		m["machineCapacity"] = o.MachineCapacity
	}
	if o.Pool {
		m["pool"] = "true"
	}
	if o.MaxTasks > 0 {
		m["maxTasks"] = strconv.Itoa(o.MaxTasks)
	}
	if o.MaxEdges > 0 {
		m["maxEdges"] = strconv.Itoa(o.MaxEdges)
	}
}

// parseDAGCapacity parses --machine-capacity "cpu=16,memory=64Gi" into
// base units.
func parseDAGCapacity(s string) (map[string]float64, error) {
	qs, err := kvlist.Quantities(s)
	if err != nil {
		return nil, usageErrorf("invalid --machine-capacity %q: %v", s, err)
	}
	if len(qs) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	for k, q := range qs {
		x := datasets.Base(q)
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, usageErrorf("invalid --machine-capacity %s=%s: want a quantity ≥ 0", k, q.String())
		}
		out[k] = x
	}
	return out, nil
}

// dagMethods returns the valid --method names: the library's schedulers,
// "best" and the alias "sgs".
func dagMethods() []string {
	return append([]string{"best", "sgs"}, dag.Methods()...)
}

// dagMethodAliases maps short names to library schedulers.
var dagMethodAliases = map[string]string{"sgs": "ssgs-lft"}

func checkDAGMethod(flag, name string) error {
	if !slices.Contains(dagMethods(), name) {
		return usageErrorf("invalid %s %q: valid methods are %s", flag, name, strings.Join(dagMethods(), ", "))
	}
	return nil
}
