package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/plan"
)

// exportTargets maps `capplan export` targets to their exporters.
var exportTargets = map[string]func(export.Input) (*export.Export, error){
	"yarn":  export.YARN,
	"k8s":   export.Kubernetes,
	"kueue": export.Kueue,
}

// exportOptions are the flags of `capplan export`.
type exportOptions struct {
	io *ioStreams

	Targets    []string
	PlanPath   string
	FairShare  string
	Packing    string
	DemandPath string
	Out        string
	JSON       bool
	jobs       jobExportOptions
}

func newExportCmd(io *ioStreams) *cobra.Command {
	opts := &exportOptions{io: io}
	cmd := &cobra.Command{
		Use:   "export {yarn | k8s | kueue}... {-p <plan.json> | --fairshare <file>} -o <dir>  |  export {k8s-job | slurm}... --shards N -o <dir> -- <command>",
		Short: "Write scheduler configuration (YARN, Kubernetes, Kueue) from a plan, or sharded jobs (Kubernetes, Slurm)",
		Long: `Write the files runtime schedulers load, from a plan's documents (no solving):

  yarn    yarn/fair-scheduler.xml (one queue per application: weight, minResources
          = fair share, maxResources = demand cap), yarn/capacity-scheduler.xml
          (capacities summing to exactly 100 per parent and per node label, one
          exclusive label per machine type) and yarn/node-labels.sh (yarn rmadmin)
  k8s     k8s/*.yaml: per application a Namespace and a ResourceQuota of its fair
          share, PriorityClasses by weight, k8s/node-labels.sh (machine-type and
          owner labels, owner taints) and k8s/tolerations/<application>.yaml
  kueue   kueue/*.yaml: a ResourceFlavor per machine type, a ClusterQueue per
          application (nominal quota per flavor, limits from the demand's caps and
          sharing policies, one cohort) and a LocalQueue per namespace

Quotas are rounded (1m of cpu, 1Mi of memory, whole devices; percentages in
hundredths) by the largest-remainder rule, so they add up exactly to the plan.
The documents come from a plan bundle (-p plan.json) or from a FairShare
(--fairshare) and, optionally, an ownership PackingPlan (--packing), which
names the nodes of each machine type. The demand (eligibility, caps, sharing
policies) is -d, or else the plan's demand input when it is still there
unchanged. Files are written atomically; warnings go to stderr.

The batch targets run a capplan command (sweep, dag schedule, dag bounds or
dag check, given after --, writing with -o DIR) in --shards N shards, each with
--shard-from-env, then 'capplan merge':

  k8s-job k8s-job/job.yaml (a batch/v1 Job, completionMode Indexed, completions =
          parallelism = N, backoffLimitPerIndex), k8s-job/merge-job.yaml and
          k8s-job/run.sh (apply, wait, merge); the PersistentVolumeClaim --pvc is
          mounted at --mount, the working directory, so relative paths work
  slurm   slurm/shards.sbatch (--array=0-(N-1)), slurm/merge.sbatch and
          slurm/submit.sh (submits both, the merge with --dependency=afterok)

A shard's CPU and memory come from --cpu and --memory, or --measure runs shard
0 of N here and requests its peak memory (× --headroom) and average cores.`,
		Example: `  capplan fairshare --example --per-node -o fs.json
  capplan export yarn k8s kueue --fairshare fs.json -o export/
  capplan export kueue -p bundle/plan.json -d demand.yaml -o bundle/export
  capplan export k8s-job --shards 8 --image capplan:v1 --pvc capplan-data --measure -o jobs/ -- sweep sweep.yaml -o out
  capplan export slurm --shards 64 --cpu 2 --memory 4Gi -o jobs/ -- dag schedule batch_task.csv -o parts`,
		Args: wrapArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, command := exportArgs(cmd, args)
			if isJobExport(targets) {
				return jobExportRun(opts.io, &opts.jobs, opts.Out, opts.JSON, targets, command)
			}
			if len(command) > 0 {
				return usageErrorf("only the %s and %s targets take a command after --", targetK8sJob, targetSlurm)
			}
			opts.Targets = args
			if err := opts.validate(); err != nil {
				return err
			}
			return exportRun(opts)
		},
		ValidArgs: []string{"yarn", "k8s", "kueue", targetK8sJob, targetSlurm},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.PlanPath, "plan", "p", "", "plan bundle index `plan.json` (its directory holds the documents)")
	f.StringVar(&opts.FairShare, "fairshare", "", "FairShare document `file` (capplan fairshare -o)")
	f.StringVar(&opts.Packing, "packing", "", "ownership PackingPlan document `file` (capplan pack --shapes -o), naming each type's nodes")
	f.StringVarP(&opts.DemandPath, "demand", "d", "", "demand `file` the plan was made for (default: the plan's demand input)")
	f.StringVarP(&opts.Out, "out", "o", "", "write the files under `dir` (created if needed)")
	f.BoolVar(&opts.JSON, "json", false, "print the files written and the warnings as JSON to stdout")
	opts.jobs.bind(f)
	return cmd
}

func (o *exportOptions) validate() error {
	for _, t := range o.Targets {
		if _, ok := exportTargets[t]; !ok {
			return usageErrorf("unknown export target %q: valid targets are yarn, k8s, kueue, k8s-job, slurm", t)
		}
	}
	switch {
	case o.PlanPath != "" && (o.FairShare != "" || o.Packing != ""):
		return usageErrorf("-p cannot be combined with --fairshare or --packing")
	case o.PlanPath == datasets.Stdin:
		return usageErrorf("-p names a bundle's plan.json or its directory, which holds the documents: a bundle cannot come from standard input (give a document with --fairshare -)")
	case o.PlanPath == "" && o.FairShare == "":
		return usageErrorf("a plan is required: -p plan.json or --fairshare file")
	case o.Out == "":
		return usageErrorf("an output directory is required: -o dir")
	}
	return nil
}

func exportRun(o *exportOptions) error {
	b, err := openDocuments(o.PlanPath, documentPaths{FairShare: o.FairShare, Ownership: o.Packing})
	if err != nil {
		return err
	}
	if b.FairShare == nil {
		return fmt.Errorf("%s has no FairShare step: exports need fair shares", o.PlanPath)
	}
	in := export.Input{FairShare: b.FairShare, Packing: b.Ownership}
	var notes []string
	if in.Demand, notes, err = planDemand(o.DemandPath, b.FairShare.Inputs); err != nil {
		return err
	}
	var files []export.File
	warnings := notes
	for _, t := range slices.Compact(slices.Sorted(slices.Values(o.Targets))) {
		e, err := exportTargets[t](in)
		if err != nil {
			return err
		}
		files = append(files, e.Files...)
		warnings = append(warnings, e.Warnings...)
	}
	return writeExport(o.io, o.Out, o.JSON, files, warnings)
}

// writeExport writes the exported files under out and lists them (and the
// warnings) on stderr, or as JSON on stdout.
func writeExport(streams *ioStreams, out string, asJSON bool, files []export.File, warnings []string) error {
	if err := export.WriteDir(out, files); err != nil {
		return err
	}
	written := make([]string, len(files))
	for i, f := range files {
		written[i] = filepath.Join(out, filepath.FromSlash(f.Path))
	}
	if asJSON {
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Files    []string `json:"files"`
			Warnings []string `json:"warnings"`
		}{written, append([]string{}, warnings...)})
	}
	for _, w := range written {
		fmt.Fprintf(streams.ErrOut, "wrote %s\n", w)
	}
	for _, w := range warnings {
		fmt.Fprintf(streams.ErrOut, "warning: %s\n", w)
	}
	return nil
}

// planDemand returns the demand the exports read: the file given, or else
// the plan's demand input when it can be found unchanged (the embedded
// example, or the recorded path with the recorded digest). Without either
// it returns nil and a note saying what that means.
func planDemand(path string, inputs []plan.Input) (*datasets.Demand, []string, error) {
	if path != "" {
		data, err := datasets.ReadFile(path, 0)
		if err != nil {
			return nil, nil, err
		}
		d, err := datasets.ParseDemand(path, data)
		return d, nil, err
	}
	i := slices.IndexFunc(inputs, func(in plan.Input) bool { return in.Role == "demand" })
	if i < 0 {
		return nil, []string{"no demand: each application may use the machine types it is allocated on, and no cap or sharing policy applies (pass -d demand.yaml)"}, nil
	}
	in := inputs[i]
	var data []byte
	if name, ok := strings.CutPrefix(in.Path, "example:"); ok {
		data = datasets.ExampleFiles()[name]
	} else {
		var err error
		if data, err = os.ReadFile(in.Path); err != nil {
			return nil, []string{fmt.Sprintf("the plan's demand %s cannot be read, so no eligibility beyond the allocation, cap or sharing policy applies (pass -d demand.yaml)", in.Path)}, nil
		}
	}
	if data == nil || plan.Digest(data) != in.SHA256 {
		return nil, nil, fmt.Errorf("the plan's demand %s has changed since the plan was made (its sha256 differs from the plan's %s): pass -d to use a demand anyway", in.Path, in.SHA256)
	}
	d, err := datasets.ParseDemand(in.Path, data)
	return d, nil, err
}

// documentPaths name loose plan documents (no bundle index).
type documentPaths struct {
	FairShare, Shapes, Ownership, Sizing, DAG string
}

// openDocuments reads a plan bundle (planPath: its plan.json or its
// directory) with every step's digest checked, or else the loose
// documents named in paths, each checked for its kind.
func openDocuments(planPath string, paths documentPaths) (*plan.Bundle, error) {
	if planPath != "" {
		dir := planPath
		if fi, err := os.Stat(planPath); err != nil {
			return nil, fmt.Errorf("reading plan: %w", err)
		} else if !fi.IsDir() {
			if filepath.Base(planPath) != plan.PlanFile {
				return nil, usageErrorf("%s is not a bundle's %s (give the file or its directory)", planPath, plan.PlanFile)
			}
			dir = filepath.Dir(planPath)
		}
		b, err := plan.OpenBundle(os.DirFS(dir))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		return b, nil
	}
	b := &plan.Bundle{}
	for _, d := range []struct {
		path string
		set  func(data []byte, path string) error
	}{
		{paths.FairShare, func(data []byte, p string) error {
			b.FairShare = new(plan.FairShare)
			return plan.DecodeDocument(p, data, plan.KindFairShare, b.FairShare)
		}},
		{paths.Shapes, func(data []byte, p string) error {
			b.Shapes = new(plan.ShapeCatalog)
			return plan.DecodeDocument(p, data, plan.KindShapeCatalog, b.Shapes)
		}},
		{paths.Ownership, func(data []byte, p string) error {
			b.Ownership = new(plan.PackingPlan)
			return decodePacking(p, data, "ownership", b.Ownership)
		}},
		{paths.Sizing, func(data []byte, p string) error {
			b.Sizing = new(plan.PackingPlan)
			return decodePacking(p, data, "sizing", b.Sizing)
		}},
		{paths.DAG, func(data []byte, p string) error {
			b.DAG = new(plan.DAGSchedule)
			return plan.DecodeDocument(p, data, plan.KindDAGSchedule, b.DAG)
		}},
	} {
		if d.path == "" {
			continue
		}
		data, err := datasets.ReadFile(d.path, 0)
		if err != nil {
			return nil, err
		}
		if err := d.set(data, d.path); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// decodePacking decodes a PackingPlan and checks its mode.
func decodePacking(path string, data []byte, mode string, pp *plan.PackingPlan) error {
	if err := plan.DecodeDocument(path, data, plan.KindPackingPlan, pp); err != nil {
		return err
	}
	if pp.Mode != mode {
		return fmt.Errorf("%s: a %s PackingPlan, want %s (capplan pack %s)", path, pp.Mode, mode, map[string]string{"ownership": "--shapes", "sizing": "--min-nodes"}[mode])
	}
	return nil
}
