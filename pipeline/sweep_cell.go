package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/capplan/capplan/plan"
)

// sweepCellVersion versions the meaning of a cell spec; a change in what
// a cell computes from the same spec bumps it, so cached cells are not
// reused across it.
const sweepCellVersion = "capplan/sweep-cell/v1"

// cellSpec is everything a cell's result depends on (SIMULATE.md §0): the
// SHA-256 of its canonical JSON (fixed field order, sorted map keys) is the
// cell's id and names its file, so a result is reused exactly when nothing
// it depends on changed.
type cellSpec struct {
	Version string `json:"version"`
	// Generator is the capplan version that computes the cell.
	Generator string         `json:"generator"`
	Inputs    []cellInput    `json:"inputs"`
	Workload  cellLoad       `json:"workload"`
	Policy    plan.SimPolicy `json:"policy"`
	Seed      uint64         `json:"seed"`
	Load      float64        `json:"load"`
	Noise     float64        `json:"noise"`
	NoiseMode string         `json:"noiseMode"`
	Tick      string         `json:"tick"`
	Until     float64        `json:"until"`
}

// cellInput is an input file of a cell: its role, its base name (which the
// result records) and its digest.
type cellInput struct {
	Role   string `json:"role"`
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// cellLoad is a cell's workload: "file", "example" or a generator's name,
// with its parameters (the sizes axis sets machines).
type cellLoad struct {
	Kind   string            `json:"kind"`
	Params map[string]string `json:"params,omitempty"`
}

// id returns the SHA-256 of the spec's canonical JSON.
func (c *cellSpec) id() string {
	data, err := json.Marshal(c)
	if err != nil { // cannot happen: strings, numbers and string maps
		panic("pipeline: cell spec: " + err.Error())
	}
	return plan.Digest(data)
}

// sweepCell is one cell: its place, spec and id, and the workload and
// policy variant it runs.
type sweepCell struct {
	index int
	id    string
	spec  cellSpec
	w     *sweepWorkload
	v     *sweepVariant
	size  int
	cost  int64
}

// simulateOptions are the options of the cell's run: one policy, one
// goroutine.
func (c *sweepCell) simulateOptions(o *SweepOptions) SimulateOptions {
	s := &c.spec
	so := SimulateOptions{ClusterPath: c.w.cluster, DemandPath: c.w.demand, WorkloadPath: c.w.file,
		WorkloadParams: s.Workload.Params, Example: c.w.kind == "example",
		Policies: []string{s.Policy.Name}, PolicyParams: map[string]map[string]string{},
		Seed: s.Seed, Load: s.Load, Noise: s.Noise, NoiseMedian: s.NoiseMode == "median",
		TickSeconds: o.Spec.TickSeconds, Until: s.Until, Workers: 1, Generator: o.Generator, Flags: c.flags()}
	if c.w.kind != "file" && c.w.kind != "example" {
		so.Workload = c.w.kind
	}
	if len(s.Policy.Params) > 0 {
		so.PolicyParams[s.Policy.Name] = s.Policy.Params
	}
	return so
}

// flags are the flags `capplan simulate` records for the same run, so a
// cell's file is the document that command writes.
func (c *sweepCell) flags() map[string]string {
	s := &c.spec
	f := SimulateFlags{Policy: s.Policy.Name, Seed: s.Seed, Tick: s.Tick,
		Load: s.Load, Noise: s.Noise, NoiseMode: s.NoiseMode, Until: s.Until}
	switch c.w.kind {
	case "example":
		f.Example = true
	case "file":
	default:
		f.Workload = c.w.kind
	}
	for _, k := range slices.Sorted(maps.Keys(s.Policy.Params)) {
		f.Params = append(f.Params, s.Policy.Name+"."+k+"="+s.Policy.Params[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Workload.Params)) {
		f.WParams = append(f.WParams, k+"="+s.Workload.Params[k])
	}
	return f.Map()
}

// errCellChanged reports a cell whose inputs changed while the sweep ran.
var errCellChanged = errors.New("an input changed during the sweep")

// runCellOnce runs one cell, or returns its stored result. A stored result
// is reused when it decodes as a SimulationResult of the cell's policy,
// seed and inputs; anything else is computed again and overwritten.
func runCellOnce(o *SweepOptions, c *sweepCell) (res *plan.SimulationResult, reused bool, err error) {
	if data, ok, err := o.Store.Load(c.id); err != nil {
		return nil, false, err
	} else if ok {
		var r plan.SimulationResult
		if plan.DecodeDocument(c.id, data, plan.KindSimulationResult, &r) == nil && c.matches(&r) {
			return &r, true, nil
		}
	}
	set, err := Simulate(c.simulateOptions(o))
	if err != nil {
		return nil, false, err
	}
	res = set.Result(0)
	if !c.matches(res) {
		return nil, false, fmt.Errorf("%w: the digests the run read differ from those the sweep started with; run it again", errCellChanged)
	}
	if err := o.Store.Save(c.id, res); err != nil {
		return nil, false, err
	}
	return res, false, nil
}

// matches reports whether r is a result of the cell: same policy, seed
// and input digests.
func (c *sweepCell) matches(r *plan.SimulationResult) bool {
	if r.Policy.Name != c.spec.Policy.Name || r.Seed == nil || uint64(*r.Seed) != c.spec.Seed || len(r.Inputs) != len(c.spec.Inputs) {
		return false
	}
	for _, in := range c.spec.Inputs {
		if !slices.ContainsFunc(r.Inputs, func(x plan.Input) bool { return x.Role == in.Role && x.SHA256 == in.SHA256 }) {
			return false
		}
	}
	return true
}

// record is the cell's row of the sweep with its jobs' completion times.
func (c *sweepCell) record(r *plan.SimulationResult) plan.SweepPartCell {
	row := plan.SweepCell{Index: c.index, ID: c.id, Workload: c.w.name, Policy: c.spec.Policy, Variant: c.v.label,
		Seed: int64(c.spec.Seed), Load: c.spec.Load, Noise: c.spec.Noise, Size: c.size, Altruism: c.v.altruism,
		Jobs: r.Workload.Jobs, Tasks: r.Workload.Tasks, Summary: r.Summary}
	jct := make([]plan.SweepJobTime, len(r.Jobs))
	for i, j := range r.Jobs {
		jct[i] = plan.SweepJobTime{Name: j.Name, JCT: j.JCT}
	}
	return plan.SweepPartCell{SweepCell: row, JCT: jct}
}
