package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim/policies"
)

// Files of a sweep's output directory.
const (
	sweepCellsDir   = "cells"
	sweepDocFile    = "sweep.json"
	sweepXLSXFile   = "sweep.xlsx"
	sweepFiguresDir = "figures"
)

// sweepOptions are the flags of `capplan sweep`.
type sweepOptions struct {
	io *ioStreams

	SpecPath string
	Out      string
	Workers  int
	shard    shardOptions

	// Axis flags: a sweep given on the command line.
	Cluster, Demand string
	Files           []string
	Generators      []string
	Example         bool
	WParams         []string
	Policies        []string
	Params          []string
	Baseline        string
	Seeds           string
	Loads, Noise    []float64
	Sizes           []int
	Altruism        []float64
	Tick, NoiseMode string
	Until           float64

	spec      *datasets.Sweep
	specInput *plan.Input
	flags     map[string]string
}

func newSweepCmd(io *ioStreams) *cobra.Command {
	opts := &sweepOptions{io: io}
	cmd := &cobra.Command{
		Use:   "sweep {<sweep.yaml> | -c <cluster> -w <workload> ... | --workload fb ...} --policies <p1,p2,...> -o <dir> [flags]",
		Short: "Run the simulator over policies × seeds × loads × noise × sizes, with confidence intervals; resumable and shardable",
		Long: `Run a parameter sweep of the simulator: the Cartesian product of the axes
(workloads, policies, seeds, loads, noise, sizes, altruism and policy parameters),
one simulator run per cell, in the order the axes are given (the first varies
slowest). The axes come from a sweep file (kind: Sweep) or from flags.

Every cell is a pure function of its spec (input digests, the capplan version
and every parameter); the SHA-256 of that spec names its result,
DIR/cells/<id>.json (a SimulationResult, the document 'capplan simulate'
writes for the same run). A cell whose result is already there is not run
again, so an interrupted sweep resumes where it stopped. Cells run --workers at
a time, with a progress bar on a terminal.

The summary pairs every cell with the baseline cell of the same workload, seed,
load, noise and size (factor of improvement FI = JCT(baseline)/JCT(policy)),
and aggregates every metric across seeds: mean with its 95% confidence
interval (Student's t), median, minimum and maximum. It is written as
DIR/sweep.json (SimulationSweep), DIR/sweep.xlsx and DIR/figures/*.svg (each
metric against load, or the first other numeric axis, per policy, with CI
bands), and printed as a table.

--shard INDEX/COUNT (or --shard-from-env in a Kubernetes Indexed Job or a Slurm
array) runs one shard's slice of the cells, balanced by estimated cost, and
writes DIR/parts/sweep-part-INDEX-of-COUNT.json; 'capplan merge DIR -o DIR'
then writes the summary, byte-identical to an unsharded run's.`,
		Example: `  capplan sweep sweep.yaml -o out/
  capplan sweep --example --policies fifo,drf,srtf --baseline drf --seeds 1..5 --loads 0.6,0.8 -o out/
  capplan sweep --workload fb --wparam jobs=500 --policies drf,tetris --baseline drf --seeds 1..20 -o out/
  capplan sweep sweep.yaml --shard 2/8 -o out/ && capplan merge out/ -o out/`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.SpecPath = args[0]
			}
			if err := opts.validate(cmd); err != nil {
				return err
			}
			return sweepRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "out", "o", "", "output `dir`: cells/, parts/, sweep.json, sweep.xlsx, figures/")
	f.IntVar(&opts.Workers, "workers", 0, "cells simulated in parallel (0: all cores; results do not depend on it)")
	opts.shard.bind(f)
	f.StringVarP(&opts.Cluster, "cluster", "c", "", "cluster `file` of the workload files")
	f.StringVarP(&opts.Demand, "demand", "d", "", "demand `file`: the users of the workload files")
	f.StringSliceVarP(&opts.Files, "workload-file", "w", nil, "workload `files` (Workload YAML/JSON, batch_task .csv, PSPLIB .sm)")
	f.StringSliceVar(&opts.Generators, "workload", nil, "generated `workloads`: fb, googlelike")
	f.BoolVar(&opts.Example, "example", false, "the embedded example workload")
	f.StringSliceVar(&opts.WParams, "wparam", nil, "workload parameters `key=value,...` (every workload)")
	f.StringSliceVar(&opts.Policies, "policies", nil, "`policies` to compare")
	f.StringArrayVar(&opts.Params, "param", nil, "policy parameter `POLICY.KEY=VALUE` (repeatable)")
	f.StringVar(&opts.Baseline, "baseline", "", "pair every cell with this `policy`'s cell")
	f.StringVar(&opts.Seeds, "seeds", "", "seeds: a range `FIRST..LAST` or a list 1,2,3 (default 1)")
	f.Float64SliceVar(&opts.Loads, "loads", nil, "offered `loads` of Poisson arrivals")
	f.Float64SliceVar(&opts.Noise, "noise", nil, "σ `values` of the lognormal duration noise")
	f.IntSliceVar(&opts.Sizes, "sizes", nil, "`machines` of generated workloads and Alibaba traces")
	f.Float64SliceVar(&opts.Altruism, "altruism", nil, "altruism `values` of the policies that take one")
	f.StringVar(&opts.Tick, "tick", "1ms", "simulated time step: `1ms`, 10ms, 100ms or 1s")
	f.StringVar(&opts.NoiseMode, "noise-mode", "mean", "noise factors of mean 1 (`mean`) or median 1 (median)")
	f.Float64Var(&opts.Until, "until", 0, "stop every run at this simulated time in `seconds` (0: run to completion)")
	names := cobra.FixedCompletions(policies.Names(), cobra.ShellCompDirectiveNoFileComp)
	_ = cmd.RegisterFlagCompletionFunc("policies", names)
	_ = cmd.RegisterFlagCompletionFunc("baseline", names)
	return cmd
}

// sweepAxisFlags are the flags that define a sweep on the command line.
var sweepAxisFlags = []string{"cluster", "demand", "workload-file", "workload", "example", "wparam", "policies", "param",
	"baseline", "seeds", "loads", "noise", "sizes", "altruism", "tick", "noise-mode", "until"}

func (o *sweepOptions) validate(cmd *cobra.Command) error {
	if o.Out == "" {
		return usageErrorf("give the output directory: -o DIR")
	}
	if o.Workers < 0 {
		return usageErrorf("invalid --workers %d", o.Workers)
	}
	if err := o.shard.resolve(); err != nil {
		return err
	}
	var given []string
	for _, name := range sweepAxisFlags {
		if cmd.Flags().Changed(name) {
			given = append(given, "--"+name)
		}
	}
	if o.SpecPath != "" {
		if len(given) > 0 {
			return usageErrorf("give the axes in %s or as flags, not both (%s)", o.SpecPath, strings.Join(given, ", "))
		}
		data, err := datasets.ReadFile(o.SpecPath, 0)
		if err != nil {
			return err
		}
		if o.spec, err = datasets.ParseSweep(o.SpecPath, data); err != nil {
			return err
		}
		o.spec.Dir = filepath.Dir(o.SpecPath)
		o.specInput = &plan.Input{Role: "sweep", Path: o.SpecPath, SHA256: plan.Digest(data)}
		return nil
	}
	if len(given) == 0 {
		return usageErrorf("give a sweep file, or the axes as flags (-w/--workload/--example and --policies)")
	}
	return o.specFromFlags(cmd)
}

func sweepRun(o *sweepOptions) error {
	store := &cellDir{dir: filepath.Join(o.Out, sweepCellsDir)}
	if err := os.MkdirAll(store.dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", store.dir, err)
	}
	progress, finish := newProgress(o.io, "cells")
	res, err := pipeline.Sweep(pipeline.SweepOptions{Spec: o.spec, SpecInput: o.specInput, Flags: o.flags, Store: store,
		Shard: o.shard.shard, Workers: o.Workers, Generator: generator(), Progress: progress})
	finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(o.io.ErrOut, "capplan: sweep: %d cells: %d simulated, %d reused from %s\n", res.Cells, res.Ran, res.Reused, store.dir)
	if res.Part != nil {
		return writePart(o.io, filepath.Join(o.Out, pipeline.SweepPartsDir), res.Part)
	}
	return writeSweepOutputs(o.io, o.Out, res.Doc, true)
}
