package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/internal/atomicfile"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
)

// planOptions are the flags of `capplan plan`.
type planOptions struct {
	io        *ioStreams
	run       pipeline.PlanOptions
	SizeCurve string
	Simulate  string
	SimParams []string
	Out       string
	Check     string
	Stats     bool
}

func newPlanCmd(io *ioStreams) *cobra.Command {
	opts := &planOptions{io: io}
	cmd := &cobra.Command{
		Use:   "plan {-c <cluster> -d <demand> [-w <workload>] | --example} [--simulate <policies>] -o <dir> | --check <dir>",
		Short: "Run the whole pipeline into a plan bundle: shares, shapes, packing, sizing, DAGs, a simulated check, reports, exports",
		Long: `Run the whole planning road on a cluster and a demand forecast (and a workload
of job DAGs) and write a plan bundle directory:

  plan.json        the index: command line, inputs with sha256, every step's
                   document with its sha256, warnings, sizing curve, every file
  fairshare.json   CMMF fair shares (exact max-flow, with the certificate)
  shapes.json      X-Size container shapes (-k shapes)
  packing.json     X-Select ownership packing of those shapes
  sizing.json      cheapest node mix holding the forecast (--size)
  dags.json        preferred schedule and lower bounds of every workload job
  simulation.json  the simulated check: the workload's jobs arriving on the
                   packing's containers under --simulate (default xschedule,
                   paired with drf), each application's share held against
                   the share it owns while it waits
  report.html      one self-contained page; report.xlsx; figures/*.svg
  export/          yarn/, k8s/, kueue/: scheduler configuration from the plan

The bundle is written beside DIR and renamed over it at the end, so a failed
run leaves an earlier bundle intact. Parts of the demand no node can hold, a
sizing with no feasible node mix and workload jobs larger than every machine
are left out with a warning: the bundle holds the feasible part, the reports
show the warnings first, and the exit code is 3. So are the simulated check's
findings: jobs with a task no container of the plan holds, and applications
held below 90% of their planned share, while they had tasks waiting, for most
of the time they had jobs.

--check DIR re-verifies a bundle without solving: every file's digest, the
inputs (read again; a changed input is refused), the fair-share certificate,
the shapes, the packing's capacity and placement rules, the sizing and its
lower bound, the DAG schedules against precedence, capacity and every
lower bound, and the simulated check: the simulator is deterministic, so it
re-runs the recorded simulation and requires the same bytes. It prints each
check; exit code 4 when one fails.`,
		Example: `  capplan plan --example -o out/
  capplan plan -c cluster.yaml -d demand.yaml -w workload.yaml --size std=1,highmem=3.5 -o bundle/
  capplan plan -c cluster.yaml -d demand.yaml -w workload.yaml --simulate xschedule,fifo --simulate-baseline drf -o bundle/
  capplan plan --check bundle/`,
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(cmd); err != nil {
				return err
			}
			if opts.Check != "" {
				return planCheckRun(opts)
			}
			opts.run.CommandLine = commandLine(cmd, args)
			return planRun(opts)
		},
	}
	f := cmd.Flags()
	bindInputs(f, &opts.run.Inputs)
	f.StringVarP(&opts.run.WorkloadPath, "workload", "w", "", "workload `file` of job DAGs to schedule on the cluster's nodes")
	f.IntVarP(&opts.run.K, "k", "k", 8, "number of container shapes")
	f.StringVar(&opts.run.Size, "size", "", "size the cluster with these node `groups` and prices per node, such as std=1,highmem=3.5 (--example: "+pipeline.ExampleSizing+")")
	f.StringVar(&opts.SizeCurve, "size-curve", "", "with --size, also size the forecast × these `multipliers` (such as 0.5,0.75,1.25) for the sizing curve; none for no curve (default: 0.5,0.75 when requests × node types ≤ 50000)")
	f.StringVar(&opts.Simulate, "simulate", "", "simulated check: run the workload on the packing's containers under these `policies` (any of capplan simulate; none: no check; default xschedule for a capplan Workload)")
	f.StringVar(&opts.run.SimulateBaseline, "simulate-baseline", "", "pair the simulated check's runs with this `policy` (default "+pipeline.DefaultSimulateBaseline+"; none: no pairing)")
	f.StringArrayVar(&opts.SimParams, "simulate-param", nil, "policy parameter of the simulated check `POLICY.KEY=VALUE` (repeatable)")
	f.Uint64Var(&opts.run.Seed, "seed", 1, "random seed of every randomised step")
	f.IntVar(&opts.run.Workers, "workers", 0, "steps and DAG jobs run at once (0: all cores; results do not depend on it)")
	f.StringVarP(&opts.Out, "out", "o", "", "write the bundle to `dir` (replaced as a whole)")
	f.StringVar(&opts.Check, "check", "", "re-verify the bundle in `dir` instead of planning")
	f.BoolVar(&opts.Stats, "stats", false, "print each step's time to stderr")
	return cmd
}

func (o *planOptions) validate(cmd *cobra.Command) error {
	if o.Check == datasets.Stdin {
		return usageErrorf("--check names a bundle directory, which cannot come from standard input")
	}
	if o.Check != "" {
		for _, name := range []string{"cluster", "demand", "example", "workload", "k", "size", "size-curve", "simulate", "simulate-baseline", "simulate-param", "seed", "out"} {
			if cmd.Flags().Changed(name) {
				return usageErrorf("--check re-verifies a bundle; it cannot be combined with --%s", name)
			}
		}
		return nil
	}
	if err := validateInputs(&o.run.Inputs); err != nil {
		return err
	}
	if o.Out == "" {
		return usageErrorf("an output directory is required: -o dir")
	}
	if o.run.Inputs.Example && !cmd.Flags().Changed("size") {
		o.run.Size = pipeline.ExampleSizing
	}
	if cmd.Flags().Changed("simulate") {
		o.run.Simulate = []string{}
		if o.Simulate != "none" {
			for _, p := range strings.Split(o.Simulate, ",") {
				if p = strings.TrimSpace(p); p == "" {
					return usageErrorf("invalid --simulate %q: want policies separated by commas, or none", o.Simulate)
				}
				o.run.Simulate = append(o.run.Simulate, p)
			}
		}
	}
	if len(o.SimParams) > 0 {
		params, err := pipeline.ParseParams(o.SimParams)
		if err != nil {
			return usageErrorf("%v", strings.Replace(err.Error(), "--param", "--simulate-param", 1))
		}
		o.run.SimulateParams = params
	}
	if cmd.Flags().Changed("size-curve") {
		o.run.SizeCurve = []float64{}
		if o.SizeCurve != "none" && o.SizeCurve != "" {
			for _, f := range strings.Split(o.SizeCurve, ",") {
				m, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
				if err != nil {
					return usageErrorf("invalid --size-curve %q: %q is not a number", o.SizeCurve, f)
				}
				o.run.SizeCurve = append(o.run.SizeCurve, m)
			}
		}
	}
	return nil
}

// planRun plans, renders every file of the bundle and writes them as one
// directory; a plan with warnings is still written, then reported as a
// *planWarningsError.
func planRun(o *planOptions) error {
	o.run.Generator = generator()
	if o.Stats {
		o.run.Progress = func(step string, took time.Duration) {
			fmt.Fprintf(o.io.ErrOut, "stats: %s %v\n", step, took.Round(time.Millisecond))
		}
	}
	if err := checkBundleTarget(o.Out); err != nil {
		return err
	}
	res, err := pipeline.Plan(o.run)
	if err != nil {
		return err
	}
	reportInventory(o.io, &res.Bundle.Plan.Header)
	e, err := export.BundleFiles(res.Bundle, res.Demand)
	if err != nil {
		return err
	}
	if err := atomicfile.ReplaceDir(o.Out, func(tmp string) error { return export.WriteDir(tmp, e.Files) }); err != nil {
		return err
	}
	fmt.Fprintf(o.io.ErrOut, "wrote %s: %s; the report is %s\n", o.Out, plural.Count(len(e.Files), "file"), filepath.Join(o.Out, export.ReportHTMLPath))
	for _, w := range e.Warnings {
		fmt.Fprintf(o.io.ErrOut, "note: %s\n", w)
	}
	if ws := res.Warnings(); len(ws) > 0 {
		for _, w := range ws {
			fmt.Fprintf(o.io.ErrOut, "warning: %s: %s\n", w.Step, w.Message)
		}
		return &planWarningsError{Dir: o.Out, Warnings: ws}
	}
	return nil
}

// checkBundleTarget refuses an output directory that the bundle must not
// replace: the current directory or a root, a file, or a directory with
// content that is not a plan bundle (no plan.json), which the replacement
// would delete.
func checkBundleTarget(dir string) error {
	clean := filepath.Clean(dir)
	if base := filepath.Base(clean); base == "." || base == ".." || filepath.Dir(clean) == clean {
		return usageErrorf("-o %s: give a directory of its own for the bundle (it is replaced as a whole)", dir)
	}
	fi, err := os.Stat(clean)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("-o %s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(clean)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(clean, plan.PlanFile)); len(entries) > 0 && err != nil {
		return fmt.Errorf("-o %s exists and is not a plan bundle (no %s): refusing to replace it and its %s; choose a new directory", dir, plan.PlanFile, plural.Count(len(entries), "entry"))
	}
	return nil
}

// planCheckRun re-verifies a bundle and prints every check to stdout.
func planCheckRun(o *planOptions) error {
	r, err := pipeline.CheckPlan(pipeline.PlanCheckOptions{Dir: o.Check, Workers: o.run.Workers})
	if err != nil {
		return err
	}
	for _, c := range r.Checks {
		status := "ok  "
		if c.Err != nil {
			status = "FAIL"
		}
		fmt.Fprintf(o.io.Out, "%s  %-10s %s\n", status, c.Step, c.What)
		if c.Err != nil {
			for _, line := range strings.Split(c.Err.Error(), "\n") {
				fmt.Fprintf(o.io.Out, "      %s\n", line)
			}
		}
	}
	if failed := r.Failed(); len(failed) > 0 {
		return &planCheckError{Dir: o.Check, Failed: failed}
	}
	return nil
}

// planWarningsError reports a bundle written with warnings: the feasible
// part of the plan is in Dir, and the warnings name the rest. Exit code
// exitWarnings.
type planWarningsError struct {
	Dir      string
	Warnings []plan.PlanWarning
}

func (e *planWarningsError) Error() string {
	w := e.Warnings[0]
	return fmt.Sprintf("bundle %s written with warnings (%d; the plan holds the feasible part); the first: %s: %s", e.Dir, len(e.Warnings), w.Step, w.Message)
}

// planCheckError reports a bundle that fails re-verification. Exit code
// exitCheckFailed.
type planCheckError struct {
	Dir    string
	Failed []pipeline.PlanCheck
}

func (e *planCheckError) Error() string {
	f := e.Failed[0]
	first := strings.SplitN(f.Err.Error(), "\n", 2)[0]
	return fmt.Sprintf("bundle %s fails checks (%d); the first: %s: %s", e.Dir, len(e.Failed), f.Step, first)
}
