package main

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

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
