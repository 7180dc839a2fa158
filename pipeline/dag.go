package pipeline

import (
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/kvlist"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/plan"
)

// DAG input formats.
const (
	dagFormatAuto     = "auto"
	dagFormatPSPLIB   = "psplib"
	dagFormatWorkload = "workload"
	dagFormatAlibaba  = "alibaba"
)

// DAGFormats lists the valid DAGInput.Format values.
var DAGFormats = []string{dagFormatAuto, dagFormatPSPLIB, dagFormatWorkload, dagFormatAlibaba}

// DAGInput names a DAG input and the machines its jobs run on: what the
// `capplan dag` subcommands share.
type DAGInput struct {
	// Path is a capplan Workload (YAML or JSON), a PSPLIB .sm file or an
	// Alibaba v2018 batch_task CSV; Example uses the embedded example
	// workload (and, without machine options, the example cluster).
	Path    string
	Example bool
	// Format is one of DAGFormats ("" = auto: by extension, then by
	// content).
	Format string
	// ClusterPath runs workloads on the nodes of a cluster file.
	ClusterPath string
	RackLabel   string
	// Machines (> 0) runs every job on that many identical machines of
	// MachineCapacity (a NAME=QUANTITY list; resources not named keep the
	// default: the largest demand of any task for workloads, cpu=96,mem=100
	// for Alibaba traces, the file's capacities for PSPLIB).
	Machines        int
	MachineCapacity string
	// Pool schedules on one machine with the summed capacity (ignoring
	// fragmentation) and also reports the makespan on the machines.
	Pool bool
	// MaxTasks and MaxEdges reject (Alibaba) or refuse (workload) jobs
	// with more tasks or task edges (0: the datasets/dags defaults).
	MaxTasks, MaxEdges int
	// RejectUnfit leaves out, as rejected with the reason, the jobs of a
	// workload or PSPLIB input with a task that fits no machine, instead
	// of failing (Alibaba traces always do).
	RejectUnfit bool
	// Workers is the number of jobs processed at once (0: all cores);
	// results do not depend on it.
	Workers int
	// MemoryLimit (bytes, 0: none) is the memory the run may use
	// (--max-memory): DAGSchedule refuses, right after reading the input,
	// schedules whose document is estimated beyond it (dagTaskBytes per
	// task), instead of stopping at the limit after hours of work.
	MemoryLimit uint64
	// Rejected, when set, is called once with the input jobs (or lines)
	// that were not taken, as soon as the input is read.
	Rejected func(source string, rejected []plan.DAGRejection)
	// Progress, when set, is called after each job finishes with the
	// number finished and the total. Calls do not overlap.
	Progress func(done, total int)

	// capacity is the parsed MachineCapacity, in base units.
	capacity map[string]float64
	// shard, when set, restricts the run to one shard's slice of the jobs
	// (DAGSchedulePart, DAGBoundsPart, DAGCheckPart).
	shard *dagShard
}

// Default per-job limits of the DAG commands (see datasets/dags).
const (
	DefaultMaxTasks = dags.DefaultMaxTasks
	DefaultMaxEdges = dags.DefaultMaxEdges
	AlibabaMaxTasks = dags.AlibabaMaxTasks
	AlibabaMaxEdges = dags.AlibabaMaxEdges
)

// MaxDAGMachines bounds the machines of the DAG commands: the schedulers
// and bounds cost O(tasks·machines) per pass, and no job of the default
// limits has more tasks than this.
const MaxDAGMachines = 100_000

// validate checks the options and parses MachineCapacity.
func (o *DAGInput) validate() error {
	if o.Format == "" {
		o.Format = dagFormatAuto
	}
	switch {
	case o.Example && o.Path != "":
		return optionErrorf("--example cannot be combined with an input file")
	case !o.Example && o.Path == "":
		return optionErrorf("give one input file (Workload YAML/JSON, PSPLIB .sm or Alibaba batch_task CSV), or --example")
	case !slices.Contains(DAGFormats, o.Format):
		return optionErrorf("invalid --format %q: valid formats are %s", o.Format, strings.Join(DAGFormats, ", "))
	case o.Example && o.Format != dagFormatAuto && o.Format != dagFormatWorkload:
		return optionErrorf("--example is a workload; --format %s does not apply", o.Format)
	case o.Machines < 0:
		return optionErrorf("invalid --machines %d: want at least 1", o.Machines)
	case o.Machines > MaxDAGMachines:
		return optionErrorf("invalid --machines %d: at most %d, the most a DAG is scheduled on (every scheduler scans the machines for every task)", o.Machines, MaxDAGMachines)
	case o.ClusterPath != "" && (o.Machines > 0 || o.MachineCapacity != ""):
		return optionErrorf("--cluster cannot be combined with --machines or --machine-capacity")
	case o.MaxTasks < 0 || o.MaxEdges < 0:
		return optionErrorf("--max-tasks and --max-edges must not be negative")
	case o.Workers < 0:
		return optionErrorf("invalid --workers %d", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.NumCPU()
	}
	c, err := parseMachineCapacity(o.MachineCapacity)
	if err != nil {
		return err
	}
	o.capacity = c
	return nil
}

// parseMachineCapacity parses a capacity list "cpu=16,memory=64Gi" into
// base units.
func parseMachineCapacity(s string) (map[string]float64, error) {
	qs, err := kvlist.Quantities(s)
	if err != nil {
		return nil, optionErrorf("invalid --machine-capacity %q: %v", s, err)
	}
	if len(qs) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	for _, k := range slices.Sorted(maps.Keys(qs)) {
		q := qs[k]
		x := datasets.Base(q)
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, optionErrorf("invalid --machine-capacity %s=%s: want a quantity ≥ 0", k, q.String())
		}
		if _, exact := datasets.Milli(q); !exact {
			return nil, optionErrorf("invalid --machine-capacity %s=%s: want a whole number of thousandths of at most about 9.2e15 units, as in input files", k, q.String())
		}
		out[k] = x
	}
	return out, nil
}

// machineOptions reports whether any option chose the machines.
func (o *DAGInput) machineOptions() bool {
	return o.ClusterPath != "" || o.Machines > 0 || o.MachineCapacity != "" || o.Pool
}

// flags records the input options that shape a result, by flag name.
func (o *DAGInput) flags(m map[string]string) {
	if o.Machines > 0 {
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

// reject hands rejected jobs to o.Rejected.
func (o *DAGInput) reject(source string, rs []plan.DAGRejection) {
	if o.Rejected != nil && len(rs) > 0 {
		o.Rejected(source, rs)
	}
}

// forEachJob calls fn for jobs 0 … n−1, o.Workers at a time (par.For:
// the error of the lowest-numbered failed job, independent of timing),
// reporting each finished job to o.Progress.
func (o *DAGInput) forEachJob(n int, fn func(i int) error) error {
	var mu sync.Mutex
	done := 0
	return par.For(n, o.Workers, func(i int) error {
		err := fn(i)
		if o.Progress != nil {
			mu.Lock()
			done++
			o.Progress(done, n)
			mu.Unlock()
		}
		return err
	})
}

// DAGMethods returns the valid scheduler names: "best", the alias "sgs"
// (ssgs-lft) and the dag package's schedulers.
func DAGMethods() []string {
	return append([]string{"best", "sgs"}, dag.Methods()...)
}

// dagMethodAliases maps short names to library schedulers.
var dagMethodAliases = map[string]string{"sgs": "ssgs-lft"}

func checkDAGMethod(flag, name string) error {
	if !slices.Contains(DAGMethods(), name) {
		return optionErrorf("invalid %s %q: valid methods are %s", flag, name, strings.Join(DAGMethods(), ", "))
	}
	return nil
}
