package datasets

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"

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

func readSweepWorkloads(o object, cluster, demand string) []SweepWorkload {
	list, ok := o.list(AxisWorkloads, true)
	if ok && len(list) == 0 {
		o.ps.Add(AxisWorkloads, "list at least one workload")
	}
	var out []SweepWorkload
	for i, v := range list {
		path := indexPath(AxisWorkloads, i)
		w := SweepWorkload{Path: path, Cluster: cluster, Demand: demand}
		if f, isStr := v.(string); isStr {
			w.File = f
			out = append(out, w)
			continue
		}
		wo, ok := asObject(o.ps, path, v, sweepWorkloadFields)
		if !ok {
			continue
		}
		w.Name, _ = wo.str("name", false)
		w.File, _ = wo.str("file", false)
		w.Generator, _ = wo.str("generator", false)
		if e, has := wo.get("example"); has {
			b, isBool := e.(bool)
			if !isBool {
				o.ps.Add(wo.at("example"), "must be true or false, got %s", describe(e))
			}
			w.Example = b
		}
		if c, ok := wo.str("cluster", false); ok {
			w.Cluster = c
		}
		if d, ok := wo.str("demand", false); ok {
			w.Demand = d
		}
		w.Params = readScalarMap(wo, "params")
		n := 0
		for _, set := range []bool{w.File != "", w.Generator != "", w.Example} {
			if set {
				n++
			}
		}
		if n != 1 {
			o.ps.Add(path, "give exactly one of file, generator and example: true")
			continue
		}
		out = append(out, w)
	}
	return out
}

func readSweepPolicies(o object) []SweepPolicy {
	list, ok := o.list(AxisPolicies, true)
	if ok && len(list) == 0 {
		o.ps.Add(AxisPolicies, "list at least one policy")
	}
	var out []SweepPolicy
	for i, v := range list {
		path := indexPath(AxisPolicies, i)
		if n, isStr := v.(string); isStr {
			if strings.TrimSpace(n) == "" {
				o.ps.Add(path, "must not be empty")
				continue
			}
			out = append(out, SweepPolicy{Path: path, Name: n})
			continue
		}
		po, ok := asObject(o.ps, path, v, sweepPolicyFields)
		if !ok {
			continue
		}
		n, ok := po.name("name")
		if !ok {
			continue
		}
		out = append(out, SweepPolicy{Path: path, Name: n, Params: readScalarMap(po, "params")})
	}
	return out
}

// readSweepSeeds reads seeds: a list of whole numbers or a range "A..B"
// (both ends included); [1] when absent.
func readSweepSeeds(o object) []uint64 {
	v, ok := o.get(AxisSeeds)
	if !ok {
		return []uint64{1}
	}
	if r, isStr := v.(string); isStr {
		a, b, found := strings.Cut(r, "..")
		lo, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 63)
		hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 63)
		switch {
		case !found || err1 != nil || err2 != nil:
			o.ps.Add(AxisSeeds, "got %q, want a range FIRST..LAST such as 1..20, or a list of seeds", clip(r))
			return nil
		case lo > hi:
			o.ps.Add(AxisSeeds, "the range %q is empty: the first seed must not exceed the last", r)
			return nil
		case hi-lo >= MaxSweepValues:
			o.ps.Add(AxisSeeds, "the range %q has %d seeds; at most %d", r, hi-lo+1, MaxSweepValues)
			return nil
		}
		var out []uint64
		for s := lo; s <= hi; s++ {
			out = append(out, s)
		}
		return out
	}
	var out []uint64
	for i, x := range sweepList(o, AxisSeeds, v) {
		n, isNum := x.(json.Number)
		if !isNum {
			o.ps.Add(indexPath(AxisSeeds, i), "must be a whole number, got %s", describe(x))
			continue
		}
		if s, ok := checkInteger(o.ps, indexPath(AxisSeeds, i), n, 0, math.MaxInt64); ok {
			out = append(out, uint64(s))
		}
	}
	if len(out) == 0 && o.ps.Len() == 0 {
		o.ps.Add(AxisSeeds, "list at least one seed")
	}
	return out
}

// sweepList returns the values of an axis given as a list or as a single
// value, reporting an empty or oversized list.
func sweepList(o object, key string, v any) []any {
	l, isList := v.([]any)
	if !isList {
		return []any{v}
	}
	switch {
	case len(l) == 0:
		o.ps.Add(key, "list at least one value, or leave the axis out")
	case len(l) > MaxSweepValues:
		o.ps.Add(key, "%d values; at most %d", len(l), MaxSweepValues)
		return nil
	}
	return l
}

// readSweepNumbers reads an optional axis of numbers in [lo, hi].
func readSweepNumbers(o object, key string, lo, hi float64) []float64 {
	v, ok := o.get(key)
	if !ok {
		return nil
	}
	var out []float64
	for i, x := range sweepList(o, key, v) {
		path := indexPath(key, i)
		n, isNum := x.(json.Number)
		if !isNum {
			o.ps.Add(path, "must be a number, got %s%s", describe(x), quoteHint(x))
			continue
		}
		f, err := strconv.ParseFloat(n.String(), 64)
		if err != nil || math.IsNaN(f) || f < lo || f > hi {
			if math.IsInf(hi, 1) {
				o.ps.Add(path, "must be a number ≥ %v, got %s", lo, clip(n.String()))
			} else {
				o.ps.Add(path, "must be a number in [%v, %v], got %s", lo, hi, clip(n.String()))
			}
			continue
		}
		if slices.Contains(out, f) {
			o.ps.Add(path, "repeats the value %v", f)
			continue
		}
		out = append(out, f)
	}
	return out
}

// readSweepParams reads the policy parameter axes, in the file's order of
// their keys (order holds "params.KEY" entries when it could be read).
func readSweepParams(o object, order []string) []SweepParam {
	m, ok := o.mapping(AxisParams, false)
	if !ok {
		return nil
	}
	keys := sortedKeys(m)
	var fileOrder []string
	for _, k := range order {
		if p, ok := strings.CutPrefix(k, AxisParams+"."); ok {
			if _, in := m[p]; in {
				fileOrder = append(fileOrder, p)
			}
		}
	}
	if len(fileOrder) == len(keys) {
		keys = fileOrder
	}
	var out []SweepParam
	for _, k := range keys {
		path := fieldPath(AxisParams, k)
		pol, key, found := strings.Cut(k, ".")
		if !found || pol == "" || key == "" {
			o.ps.Add(path, "want POLICY.KEY, such as tetris.f")
			continue
		}
		p := SweepParam{Path: path, Policy: pol, Key: key}
		for i, x := range sweepList(o, path, m[k]) {
			t, ok := scalarText(x)
			if !ok {
				o.ps.Add(indexPath(path, i), "must be a number, a string or a boolean, got %s", describe(x))
				continue
			}
			if slices.Contains(p.Values, t) {
				o.ps.Add(indexPath(path, i), "repeats the value %s", t)
				continue
			}
			p.Values = append(p.Values, t)
		}
		out = append(out, p)
	}
	return out
}

// readScalarMap reads an optional mapping of scalars as text.
func readScalarMap(o object, key string) map[string]string {
	m, ok := o.mapping(key, false)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, k := range sortedKeys(m) {
		t, ok := scalarText(m[k])
		if !ok {
			o.ps.Add(fieldPath(o.at(key), k), "must be a number, a string or a boolean, got %s", describe(m[k]))
			continue
		}
		out[k] = t
	}
	return out
}

// scalarText writes a scalar as the command line would give it.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// keyOrder returns the sweep's axis keys in the order the file gives them,
// with each parameter axis as "params.KEY" after "params"; the default
// order when the file cannot be read that way (YAML's own errors are
// reported by decodeTree).
func keyOrder(data []byte) []string {
	var top yamlv2.MapSlice
	if err := yamlv2.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &top); err != nil {
		return sweepAxes
	}
	var out []string
	for _, it := range top {
		k, _ := it.Key.(string)
		if !slices.Contains(sweepAxes, k) || slices.Contains(out, k) {
			continue
		}
		out = append(out, k)
		if k != AxisParams {
			continue
		}
		if params, ok := it.Value.(yamlv2.MapSlice); ok {
			for _, p := range params {
				if pk, ok := p.Key.(string); ok {
					out = append(out, AxisParams+"."+pk)
				}
			}
		}
	}
	for _, k := range sweepAxes {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
