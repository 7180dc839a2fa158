package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
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

// specFromFlags builds the sweep the flags describe, in the order
// workloads, policies, seeds, loads, noise, sizes, altruism.
func (o *sweepOptions) specFromFlags(cmd *cobra.Command) error {
	switch {
	case len(o.Files)+len(o.Generators) == 0 && !o.Example:
		return usageErrorf("give the workloads: -w FILE, --workload fb|googlelike or --example")
	case len(o.Policies) == 0:
		return usageErrorf("give the policies to compare: --policies fifo,drf,...")
	case o.Demand != "" && o.Cluster == "":
		return usageErrorf("-d needs -c")
	}
	tick, ok := datasets.SweepTicks[o.Tick]
	if !ok {
		return usageErrorf("invalid --tick %q: want 1ms, 10ms, 100ms or 1s", o.Tick)
	}
	if o.NoiseMode != "mean" && o.NoiseMode != "median" {
		return usageErrorf("invalid --noise-mode %q: want mean or median", o.NoiseMode)
	}
	if !(o.Until >= 0) || math.IsInf(o.Until, 0) {
		return usageErrorf("invalid --until %v", o.Until)
	}
	s := &datasets.Sweep{Source: "command line", Baseline: o.Baseline, Tick: o.Tick, TickSeconds: tick, Until: o.Until, NoiseMode: o.NoiseMode}
	wparams := map[string]string{}
	for _, kv := range o.WParams {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageErrorf("invalid --wparam %q: want key=value", kv)
		}
		wparams[k] = v
	}
	if len(wparams) == 0 {
		wparams = nil
	}
	for _, f := range o.Files {
		s.Workloads = append(s.Workloads, datasets.SweepWorkload{Path: "-w " + f, File: f, Cluster: o.Cluster, Demand: o.Demand, Params: wparams})
	}
	for _, g := range o.Generators {
		s.Workloads = append(s.Workloads, datasets.SweepWorkload{Path: "--workload " + g, Generator: g, Params: wparams})
	}
	if o.Example {
		s.Workloads = append(s.Workloads, datasets.SweepWorkload{Path: "--example", Example: true, Cluster: o.Cluster, Demand: o.Demand, Params: wparams})
	}
	params, err := pipeline.ParseParams(o.Params)
	if err != nil {
		return usageErrorf("%v", err)
	}
	for p := range params {
		if !slices.Contains(o.Policies, p) {
			return usageErrorf("--param names policy %s, which is not among --policies", p)
		}
	}
	for _, p := range o.Policies {
		s.Policies = append(s.Policies, datasets.SweepPolicy{Path: "--policies " + p, Name: p, Params: params[p]})
	}
	if s.Seeds, err = parseSeeds(o.Seeds); err != nil {
		return err
	}
	s.Loads, s.Noise, s.Sizes, s.Altruism = o.Loads, o.Noise, o.Sizes, o.Altruism
	for _, c := range []struct {
		name   string
		xs     []float64
		lo, hi float64
	}{{"--loads", o.Loads, 0, math.Inf(1)}, {"--noise", o.Noise, 0, 10}, {"--altruism", o.Altruism, 0, 1}} {
		for _, x := range c.xs {
			if !(x >= c.lo && x <= c.hi) || math.IsInf(x, 0) {
				return usageErrorf("invalid %s value %v: want a number in [%v, %v]", c.name, x, c.lo, c.hi)
			}
		}
	}
	for _, n := range o.Sizes {
		if n < 1 || n > datasets.MaxNodes {
			return usageErrorf("invalid --sizes value %d: want 1 … %d machines", n, datasets.MaxNodes)
		}
	}
	s.Order = []string{datasets.AxisWorkloads, datasets.AxisPolicies, datasets.AxisSeeds}
	for _, a := range []struct {
		axis string
		n    int
	}{{datasets.AxisLoads, len(s.Loads)}, {datasets.AxisNoise, len(s.Noise)}, {datasets.AxisSizes, len(s.Sizes)}, {datasets.AxisAltruism, len(s.Altruism)}} {
		if a.n > 0 {
			s.Order = append(s.Order, a.axis)
		}
	}
	o.spec = s
	o.flags = map[string]string{}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if slices.Contains(sweepAxisFlags, f.Name) {
			o.flags[f.Name] = flagValue(f)
		}
	})
	return nil
}

// parseSeeds reads --seeds: "FIRST..LAST" or a list "1,2,3" ("": [1]).
func parseSeeds(s string) ([]uint64, error) {
	if s == "" {
		return []uint64{1}, nil
	}
	bad := usageErrorf("invalid --seeds %q: want a range FIRST..LAST such as 1..20, or a list such as 1,2,3", s)
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.ParseUint(a, 10, 63)
		hi, err2 := strconv.ParseUint(b, 10, 63)
		switch {
		case err1 != nil || err2 != nil:
			return nil, bad
		case lo > hi:
			return nil, usageErrorf("invalid --seeds %q: the first seed must not exceed the last", s)
		case hi-lo >= datasets.MaxSweepValues:
			return nil, usageErrorf("invalid --seeds %q: at most %d seeds", s, datasets.MaxSweepValues)
		}
		var out []uint64
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 63)
		if err != nil {
			return nil, bad
		}
		if slices.Contains(out, x) {
			return nil, usageErrorf("invalid --seeds %q: seed %d is given twice", s, x)
		}
		out = append(out, x)
	}
	return out, nil
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

// writeSweepOutputs writes a sweep's summary into dir (sweep.json,
// sweep.xlsx, figures/) and, with table, prints its table to stdout.
func writeSweepOutputs(streams *ioStreams, dir string, doc *plan.SimulationSweep, table bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := writeTo(nil, filepath.Join(dir, sweepDocFile), func(w io.Writer) error { return reports.WriteJSON(w, doc) }); err != nil {
		return err
	}
	wb, err := reports.SweepWorkbook(doc)
	if err != nil {
		return err
	}
	if err := writeTo(nil, filepath.Join(dir, sweepXLSXFile), wb.Write); err != nil {
		return err
	}
	figs, err := reports.SweepFigures(doc)
	if err != nil {
		return err
	}
	if err := writeFigures(filepath.Join(dir, sweepFiguresDir), figs); err != nil {
		return err
	}
	if table {
		return reports.WriteSweepText(streams.Out, doc, streams.OutTerminal)
	}
	return nil
}

// writeFigures writes every figure into dir, each atomically.
func writeFigures(dir string, figs []reports.Figure) error {
	if len(figs) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		data := f.SVG
		if err := writeTo(nil, filepath.Join(dir, f.Name+".svg"), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}

// cellDir is the cell store of a sweep's output directory: one
// SimulationResult per cell, cells/<id>.json, written atomically.
type cellDir struct{ dir string }

func (c *cellDir) path(id string) string { return filepath.Join(c.dir, id+".json") }

// Load implements pipeline.CellStore.
func (c *cellDir) Load(id string) ([]byte, bool, error) {
	data, err := os.ReadFile(c.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", c.path(id), err)
	}
	return data, true, nil
}

// Save implements pipeline.CellStore.
func (c *cellDir) Save(id string, doc *plan.SimulationResult) error {
	return writeTo(nil, c.path(id), func(w io.Writer) error { return reports.WriteJSON(w, doc) })
}

// flagValue is a flag's value as given: lists joined by commas.
func flagValue(f *pflag.Flag) string {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return strings.Join(sv.GetSlice(), ",")
	}
	return f.Value.String()
}
