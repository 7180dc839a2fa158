package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/export"
)

// Export targets that run a sharded command on a batch system.
const (
	targetK8sJob = "k8s-job"
	targetSlurm  = "slurm"
)

// shardable are the commands that take --shard, by command path.
var shardable = []string{"capplan sweep", "capplan dag schedule", "capplan dag bounds", "capplan dag check"}

// jobExportOptions are the flags of `capplan export k8s-job|slurm`.
type jobExportOptions struct {
	Shards   int
	Name     string
	Capplan  string
	CPU      string
	Memory   string
	Measure  bool
	Headroom float64
	MergeOut string
	// Kubernetes.
	Image, PVC, Mount, Namespace string
	BackoffLimitPerIndex         int32
	// Slurm.
	Partition, Time, Chdir string
}

func (o *jobExportOptions) bind(f *pflag.FlagSet) {
	f.IntVar(&o.Shards, "shards", 0, "k8s-job, slurm: number of `shards` (Job completions, array tasks)")
	f.StringVar(&o.Name, "name", "", "k8s-job, slurm: job `name` (default capplan-COMMAND)")
	f.StringVar(&o.Capplan, "capplan", "capplan", "k8s-job, slurm: the capplan `program` the jobs run (in the image; Slurm: on the nodes, or $CAPPLAN)")
	f.StringVar(&o.CPU, "cpu", "", "k8s-job, slurm: CPU per shard, as a `quantity` (2, 1500m)")
	f.StringVar(&o.Memory, "memory", "", "k8s-job, slurm: memory per shard, as a `quantity` (512Mi, 4Gi)")
	f.BoolVar(&o.Measure, "measure", false, "k8s-job, slurm: run shard 0 here and request its measured peak memory (× --headroom) and CPU")
	f.Float64Var(&o.Headroom, "headroom", 1.25, "k8s-job, slurm: memory request over the measured peak RSS")
	f.StringVar(&o.MergeOut, "merge-out", "", "k8s-job, slurm: the merged document of a dag command (default DIR/COMMAND.json, DIR its -o)")
	f.StringVar(&o.Image, "image", "", "k8s-job: container `image` holding capplan")
	f.StringVar(&o.PVC, "pvc", "", "k8s-job: PersistentVolumeClaim `name` holding the inputs and receiving the outputs")
	f.StringVar(&o.Mount, "mount", "/data", "k8s-job: mount `path` of the claim, the containers' working directory")
	f.StringVar(&o.Namespace, "namespace", "", "k8s-job: `namespace` of the Jobs (default: kubectl's)")
	f.Int32Var(&o.BackoffLimitPerIndex, "backoff-limit-per-index", 3, "k8s-job: retries of one failed shard")
	f.StringVar(&o.Partition, "partition", "", "slurm: `partition`")
	f.StringVar(&o.Time, "time", "", "slurm: time limit per task, such as 2:00:00")
	f.StringVar(&o.Chdir, "chdir", "", "slurm: working `directory` of the jobs (default: where sbatch runs)")
}

// isJobExport reports whether the targets are batch-system targets.
func isJobExport(targets []string) bool {
	return slices.Contains(targets, targetK8sJob) || slices.Contains(targets, targetSlurm)
}

// jobExportRun exports the command after "--" for the targets.
func jobExportRun(streams *ioStreams, o *jobExportOptions, out string, asJSON bool, targets, command []string) error {
	for _, t := range targets {
		if t != targetK8sJob && t != targetSlurm {
			return usageErrorf("export target %s cannot be combined with %s and %s, which export a command, not a plan", t, targetK8sJob, targetSlurm)
		}
	}
	switch {
	case len(command) == 0:
		return usageErrorf("give the capplan command to shard after --, such as: capplan export slurm --shards 8 --measure -o jobs/ -- sweep sweep.yaml -o out")
	case o.Shards < 1 || o.Shards > export.MaxShardsPerJob:
		return usageErrorf("give the number of shards: --shards N (1 … %d)", export.MaxShardsPerJob)
	case out == "":
		return usageErrorf("an output directory is required: -o dir")
	case o.Measure && (o.CPU != "" || o.Memory != ""):
		return usageErrorf("--measure cannot be combined with --cpu and --memory")
	case !o.Measure && (o.CPU == "" || o.Memory == ""):
		return usageErrorf("give the resources of a shard: --cpu and --memory, or --measure to run shard 0 here and measure it")
	case !(o.Headroom >= 1) || math.IsInf(o.Headroom, 0):
		return usageErrorf("invalid --headroom %v: want a factor ≥ 1", o.Headroom)
	}
	run, err := o.shardedRun(command)
	if err != nil {
		return err
	}
	if o.Measure {
		m, err := measureShard(command, o.Shards)
		if err != nil {
			return err
		}
		run.Resources = m.resources(o.Shards, o.Headroom)
		fmt.Fprintf(streams.ErrOut, "capplan: %s\n", run.Resources.Basis)
	} else if run.Resources, err = givenResources(o.CPU, o.Memory); err != nil {
		return err
	}
	if !slices.Contains(command, "--workers") && !slices.ContainsFunc(command, func(a string) bool { return strings.HasPrefix(a, "--workers=") }) {
		run.Command = append(run.Command, "--workers", strconv.FormatInt((run.Resources.MilliCPU+999)/1000, 10))
	}
	var files []export.File
	var warnings []string
	for _, t := range slices.Compact(slices.Sorted(slices.Values(targets))) {
		var e *export.Export
		if t == targetK8sJob {
			e, err = export.K8sJob(export.K8sJobOptions{Run: run, Image: o.Image, PVC: o.PVC, MountPath: o.Mount,
				Namespace: o.Namespace, BackoffLimitPerIndex: o.BackoffLimitPerIndex})
		} else {
			e, err = export.Slurm(export.SlurmOptions{Run: run, Partition: o.Partition, Time: o.Time, Chdir: o.Chdir})
		}
		if err != nil {
			return err
		}
		files = append(files, e.Files...)
		warnings = append(warnings, e.Warnings...)
	}
	return writeExport(streams, out, asJSON, files, warnings)
}

// shardedRun checks the command (a shardable capplan command line that
// parses, writes with -o and has no shard flags) and derives the merge.
func (o *jobExportOptions) shardedRun(command []string) (export.ShardedRun, error) {
	root, _ := newRootCmd(&ioStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	sub, rest, err := root.Find(command)
	if err != nil || sub == nil || !slices.Contains(shardable, sub.CommandPath()) {
		return export.ShardedRun{}, usageErrorf("the command after -- must be one of sweep, dag schedule, dag bounds, dag check (got %q)", strings.Join(command, " "))
	}
	if err := sub.ParseFlags(rest); err != nil {
		return export.ShardedRun{}, usageErrorf("the command after --: %v", err)
	}
	for _, f := range []string{"shard", "shard-from-env", "shards"} {
		if sub.Flags().Changed(f) {
			return export.ShardedRun{}, usageErrorf("the command after -- must not have --%s: the export adds --shard-from-env", f)
		}
	}
	outDir, _ := sub.Flags().GetString("out")
	word := sub.Name()
	switch {
	case outDir == "":
		return export.ShardedRun{}, usageErrorf("the command after -- needs -o DIR: every shard writes its part there")
	case word != "sweep" && !isSweepDir(outDir):
		return export.ShardedRun{}, usageErrorf("the command after -- writes to %s, a file: give a directory, where every shard writes its own part", outDir)
	}
	run := export.ShardedRun{Name: o.Name, Command: slices.Clone(command), Shards: o.Shards, Capplan: o.Capplan}
	if run.Name == "" {
		run.Name = "capplan-" + word
	}
	if word == "sweep" {
		run.Merge = []string{"merge", outDir, "-o", outDir}
	} else {
		merged := o.MergeOut
		if merged == "" {
			merged = filepath.Join(outDir, word+".json")
		}
		run.Merge = []string{"merge", outDir, "-o", merged}
	}
	return run, nil
}

// givenResources reads --cpu and --memory.
func givenResources(cpu, memory string) (export.ShardResources, error) {
	c, err := resource.ParseQuantity(cpu)
	if err != nil || c.Sign() <= 0 {
		return export.ShardResources{}, usageErrorf("invalid --cpu %q: want a positive quantity such as 2 or 1500m", cpu)
	}
	m, err := resource.ParseQuantity(memory)
	if err != nil || m.Sign() <= 0 {
		return export.ShardResources{}, usageErrorf("invalid --memory %q: want a positive quantity such as 512Mi or 4Gi", memory)
	}
	return export.ShardResources{MilliCPU: c.MilliValue(), MemoryBytes: m.Value(),
		Basis: fmt.Sprintf("given with --cpu %s and --memory %s", cpu, memory)}, nil
}

// shardMeasurement is what running one shard locally used.
type shardMeasurement struct {
	peakRSS       int64   // bytes
	cpu, wall     float64 // seconds
	shard, shards int
}

// minMeasuredMemory is the least memory a measured shard requests: a Go
// program's heap grows in steps, and a short measured run may not have
// reached the step a longer one does.
const minMeasuredMemory = 64 << 20

// resources turns a measurement into requests: memory = peak RSS ×
// headroom, CPU = the average cores used (CPU time over wall time),
// rounded up to 100m (at least 64 MiB and 100m).
func (m shardMeasurement) resources(shards int, headroom float64) export.ShardResources {
	cores := m.cpu / math.Max(m.wall, 1e-3)
	milli := int64(math.Ceil(cores*10)) * 100
	return export.ShardResources{
		MilliCPU:    max(100, milli),
		MemoryBytes: max(minMeasuredMemory, int64(math.Ceil(float64(m.peakRSS)*headroom))),
		Basis: fmt.Sprintf("measured on shard %d/%d: peak RSS %d MiB, %.2f cores on average over %.1f s; memory request = peak × %g",
			m.shard, shards, (m.peakRSS+1<<20-1)>>20, cores, m.wall, headroom),
	}
}

// measureShard runs shard 0 of the command here, writing into a temporary
// directory, and measures it (measureProcess).
func measureShard(command []string, shards int) (shardMeasurement, error) {
	tmp, err := os.MkdirTemp("", "capplan-measure-")
	if err != nil {
		return shardMeasurement{}, err
	}
	defer os.RemoveAll(tmp)
	self, err := os.Executable()
	if err != nil {
		return shardMeasurement{}, fmt.Errorf("--measure: cannot find the capplan program: %w", err)
	}
	args := append(slices.Clone(command), "--shard", "0/"+strconv.Itoa(shards), "-o", filepath.Join(tmp, "out"))
	m, err := measureProcess(self, args)
	if err != nil {
		return shardMeasurement{}, fmt.Errorf("--measure: running shard 0/%d: %w", shards, err)
	}
	m.shard, m.shards = 0, shards
	return m, nil
}

// exportArgs splits the arguments of `capplan export` at "--": the targets
// before, the command after.
func exportArgs(cmd *cobra.Command, args []string) (targets, command []string) {
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		return args[:dash], args[dash:]
	}
	return args, nil
}
