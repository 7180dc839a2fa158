package datasets

import (
	"math"

	"github.com/capplan/capplan/internal/inputerr"
)

// KindSweep is the kind of a sweep definition (sweep.yaml).
const KindSweep = "Sweep"

// Sweep axis names, as the sweep file spells them.
const (
	AxisWorkloads = "workloads"
	AxisPolicies  = "policies"
	AxisSeeds     = "seeds"
	AxisLoads     = "loads"
	AxisNoise     = "noise"
	AxisSizes     = "sizes"
	AxisAltruism  = "altruism"
	AxisParams    = "params"
)

// sweepAxes are the axis keys of a sweep file in their default nesting
// order (used when the file's own key order cannot be read).
var sweepAxes = []string{AxisWorkloads, AxisPolicies, AxisSeeds, AxisLoads, AxisNoise, AxisSizes, AxisAltruism, AxisParams}

var (
	sweepFields         = append([]string{"apiVersion", "kind", "baseline", "tick", "until", "noiseMode", "cluster", "demand"}, sweepAxes...)
	sweepWorkloadFields = []string{"name", "file", "generator", "example", "cluster", "demand", "params"}
	sweepPolicyFields   = []string{"name", "params"}
)

// SweepTicks are the simulator ticks a sweep may use, in seconds.
var SweepTicks = map[string]float64{"1ms": 0.001, "10ms": 0.01, "100ms": 0.1, "1s": 1}

// MaxSweepValues bounds the values of one axis (and the seeds of a range).
const MaxSweepValues = 100_000

// Sweep is a parameter sweep of the simulator (SIMULATE.md §8): axes whose
// Cartesian product gives the cells, each one simulator run.
//
//	apiVersion: capplan/v1
//	kind: Sweep
//	cluster: cluster.yaml          # default cluster of workload files
//	baseline: drf                  # pair every cell with drf's
//	workloads:
//	  - {file: jobs.yaml}
//	  - {generator: fb, params: {jobs: 500}}
//	policies: [fifo, drf, {name: tetris, params: {f: 0.5}}]
//	seeds: 1..20                   # or a list
//	loads: [0.6, 0.8, 0.9]
//	noise: [0, 0.5]
//	sizes: [50, 100]               # machines of generated workloads
//	altruism: [0, 0.5, 1]          # policies with an altruism parameter
//	params: {tetris.f: [0, 0.5]}   # POLICY.KEY: values
//
// Relative paths are relative to the directory of the sweep file.
type Sweep struct {
	// Source is the file name the sweep was read from; Dir the directory
	// its relative paths resolve against ("" for the working directory).
	Source, Dir string
	// Baseline is the policy every cell is paired with ("": none).
	Baseline string
	// Tick is the simulator tick's name (1ms, 10ms, 100ms, 1s) and
	// TickSeconds its length.
	Tick        string
	TickSeconds float64
	// Until stops every run at this time in seconds (0: none).
	Until float64
	// NoiseMode is "mean" or "median".
	NoiseMode string
	Workloads []SweepWorkload
	Policies  []SweepPolicy
	Seeds     []uint64
	Loads     []float64
	Noise     []float64
	Sizes     []int
	Altruism  []float64
	Params    []SweepParam
	// Order lists the axes given, in nesting order (outermost first): the
	// axis names above, with AxisParams standing for the parameter axes
	// (in the order of Params).
	Order []string
}

// SweepWorkload is one value of the workloads axis: exactly one of File,
// Generator and Example.
type SweepWorkload struct {
	// Path locates the entry in the file ("workloads[1]").
	Path string
	// Name labels the workload in results (default: the file's base name,
	// the generator's name or "example").
	Name      string
	File      string
	Generator string
	Example   bool
	// Cluster and Demand are the files a workload file runs on (default:
	// the sweep's).
	Cluster, Demand string
	// Params are the workload parameters (--wparam).
	Params map[string]string
}

// SweepPolicy is one value of the policies axis.
type SweepPolicy struct {
	Path   string
	Name   string
	Params map[string]string
}

// SweepParam is a policy parameter axis: the values of Key for Policy.
type SweepParam struct {
	Path        string
	Policy, Key string
	Values      []string
}

// ParseSweep reads a sweep definition (YAML or JSON), reporting every
// problem with the field path.
func ParseSweep(name string, data []byte) (*Sweep, error) {
	ps := &inputerr.List{File: name}
	root, ok := decodeTree(ps, data)
	if !ok {
		return nil, ps.Err()
	}
	var s *Sweep
	if readKind(ps, root, KindSweep) == KindSweep {
		s = sweepFromTree(ps, root, keyOrder(data))
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	s.Source = name
	return s, nil
}

func sweepFromTree(ps *inputerr.List, root any, order []string) *Sweep {
	o, ok := asObject(ps, "", root, sweepFields)
	if !ok {
		return nil
	}
	s := &Sweep{Tick: "1ms", NoiseMode: "mean"}
	if b, ok := o.str("baseline", false); ok {
		s.Baseline = b
	}
	if t, ok := o.str("tick", false); ok {
		if _, known := SweepTicks[t]; !known {
			ps.Add("tick", "got %q, want 1ms, 10ms, 100ms or 1s", clip(t))
		} else {
			s.Tick = t
		}
	}
	s.TickSeconds = SweepTicks[s.Tick]
	if u, ok := o.seconds("until", false, true); ok {
		s.Until = u
	}
	if m, ok := o.str("noiseMode", false); ok {
		if m != "mean" && m != "median" {
			ps.Add("noiseMode", "got %q, want mean or median", clip(m))
		} else {
			s.NoiseMode = m
		}
	}
	cluster, _ := o.str("cluster", false)
	demand, _ := o.str("demand", false)
	s.Workloads = readSweepWorkloads(o, cluster, demand)
	s.Policies = readSweepPolicies(o)
	s.Seeds = readSweepSeeds(o)
	s.Loads = readSweepNumbers(o, AxisLoads, 0, math.Inf(1))
	s.Noise = readSweepNumbers(o, AxisNoise, 0, 10)
	s.Altruism = readSweepNumbers(o, AxisAltruism, 0, 1)
	for i, x := range readSweepNumbers(o, AxisSizes, 1, MaxNodes) {
		if x != math.Trunc(x) {
			ps.Add(indexPath(AxisSizes, i), "must be a whole number of machines, got %v", x)
			continue
		}
		s.Sizes = append(s.Sizes, int(x))
	}
	s.Params = readSweepParams(o, order)
	for _, k := range order {
		if k == AxisSeeds || o.has(k) {
			s.Order = append(s.Order, k)
		}
	}
	return s
}
