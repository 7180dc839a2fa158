package pipeline

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/plan"
)

// SweepOptions are the inputs of Sweep.
type SweepOptions struct {
	// Spec is the sweep (datasets.ParseSweep, or built from flags).
	Spec *datasets.Sweep
	// SpecInput names the sweep file and its digest (nil when the sweep
	// comes from flags); it heads the document's inputs.
	SpecInput *plan.Input
	// Flags are recorded in the document header (the axis flags of a
	// sweep given on the command line).
	Flags map[string]string
	// Store keeps the cells' results: a result already there is reused.
	Store CellStore
	// Shard, when set, runs only that shard's slice of the cells and
	// returns a Part instead of the document.
	Shard *plan.Shard
	// Workers bounds the cells run at once (0: GOMAXPROCS).
	Workers int
	// Generator names the tool in the documents.
	Generator string
	// Progress, when set, is called after each cell with the cells done
	// and the total of the shard. Calls do not overlap.
	Progress func(done, total int)
}

// CellStore keeps sweep cells' results by cell id: the SimulationResult
// documents cells/<id>.json of the sweep's directory.
type CellStore interface {
	// Load returns the stored result of a cell, ok false when there is
	// none.
	Load(id string) (data []byte, ok bool, err error)
	// Save stores a cell's result; it must be atomic (a reader sees the
	// whole document or none), so that a killed sweep leaves no part of a
	// cell behind.
	Save(id string, doc *plan.SimulationResult) error
}

// SweepResult is what Sweep returns: the document (unsharded) or the part
// (sharded), and what the run did.
type SweepResult struct {
	Doc  *plan.SimulationSweep
	Part *plan.Part
	// Cells is the number of cells of the run (or of the shard), Reused
	// those whose stored result was used, Ran those simulated.
	Cells, Reused, Ran int
}

// Sweep runs a parameter sweep (SIMULATE.md §8):
//
//  1. check the sweep against the policies and the workloads, digest every
//     input, and expand the Cartesian product of the axes into cells in
//     file order (the first axis varies slowest; the parameter and
//     altruism axes expand the policies they apply to), each named by the
//     SHA-256 of its canonical spec;
//  2. with a shard, keep the shard's slice of the cells, split by their
//     estimated cost (tasks × the policy's cost factor, splitLPT with ties
//     by cell id);
//  3. run the cells Workers at a time, each one simulator run on one
//     goroutine, reusing every cell whose result the store holds and
//     storing each new result as soon as it is done, so that a killed
//     sweep resumes where it stopped;
//  4. unsharded: pair every cell with its baseline cell and aggregate
//     across seeds (the document); sharded: the part, which Merge turns
//     into the same document.
func Sweep(o SweepOptions) (*SweepResult, error) {
	if o.Spec == nil || o.Store == nil {
		return nil, fmt.Errorf("pipeline: Sweep needs a spec and a store")
	}
	if o.Workers < 0 {
		return nil, optionErrorf("invalid --workers %d", o.Workers)
	}
	p, err := planSweep(&o)
	if err != nil {
		return nil, err
	}
	shard := plan.Shard{Index: 0, Count: 1}
	if o.Shard != nil {
		shard = *o.Shard
	}
	costs := make([]int64, len(p.cells))
	for i, c := range p.cells {
		costs[i] = c.cost
	}
	split := splitLPT(costs, shard.Count, func(a, b int) int { return strings.Compare(p.cells[a].id, p.cells[b].id) })
	slice := split.slice(shard.Index)
	records := make([]plan.SweepPartCell, len(slice))
	reused := make([]bool, len(slice))
	var mu sync.Mutex
	done := 0
	err = par.For(len(slice), o.Workers, func(k int) error {
		c := p.cells[slice[k]]
		res, re, err := runCellOnce(&o, c)
		if err != nil {
			return fmt.Errorf("cell %d (%s, %s, seed %d): %w", c.index, c.w.name, c.v.label, c.spec.Seed, err)
		}
		records[k], reused[k] = c.record(res), re
		if o.Progress != nil {
			mu.Lock()
			done++
			o.Progress(done, len(slice))
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &SweepResult{Cells: len(slice)}
	for _, r := range reused {
		if r {
			out.Reused++
		}
	}
	out.Ran = out.Cells - out.Reused
	result := plan.SweepPartResult{Sweep: p.info, Cells: records}
	if o.Shard == nil {
		out.Doc = buildSweepDoc(p.header, result)
		return out, nil
	}
	data, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("internal error: encoding the part: %w", err)
	}
	out.Part = &plan.Part{
		Header:   plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindPart, Generator: p.header.Generator, Inputs: p.header.Inputs, Flags: p.header.Flags},
		Command:  CommandSweep,
		Document: plan.KindSimulationSweep,
		Run:      plan.RunDigest(CommandSweep, plan.KindSimulationSweep, withSweepDigest(p.header, p.info.Digest), len(p.cells)),
		Shard:    shard,
		Items:    len(p.cells),
		Slice:    slice,
		Cost:     split.cost(shard.Index, costUnit),
		Result:   data,
	}
	return out, nil
}

// withSweepDigest adds the sweep's digest to the flags the run digest
// covers: two sweeps from the same file and flags but different cells (a
// new capplan version, changed inputs) are different runs.
func withSweepDigest(h plan.Header, digest string) plan.Header {
	flags := map[string]string{"sweep-digest": digest}
	for k, v := range h.Flags {
		flags[k] = v
	}
	h.Flags = flags
	return h
}

// expand builds the cells: the Cartesian product of the axes in the
// sweep's order, the last varying fastest.
func (p *sweepPlan) expand(o *SweepOptions) error {
	s := o.Spec
	loads, noise, sizes := s.Loads, s.Noise, s.Sizes
	if len(loads) == 0 {
		loads = []float64{0}
	}
	if len(noise) == 0 {
		noise = []float64{0}
	}
	if len(sizes) == 0 {
		sizes = []int{0}
	}
	counts := map[string]int{
		datasets.AxisWorkloads: len(p.workloads), datasets.AxisPolicies: len(p.variants), datasets.AxisSeeds: len(s.Seeds),
		datasets.AxisLoads: len(loads), datasets.AxisNoise: len(noise), datasets.AxisSizes: len(sizes),
	}
	var axes []string
	total := 1
	for _, a := range s.Order {
		n, ok := counts[a]
		if !ok {
			continue // parameter and altruism axes live in the variants
		}
		axes = append(axes, a)
		if n == 0 {
			return optionErrorf("%s: the %s axis has no values", s.Source, a)
		}
		if total > MaxSweepCells/n {
			return optionErrorf("%s: the sweep has more than %d cells: split it", s.Source, MaxSweepCells)
		}
		total *= n
	}
	p.info = plan.SweepInfo{Baseline: s.Baseline, Cells: total, Tick: s.TickSeconds, NoiseMode: s.NoiseMode, Until: s.Until}
	p.info.Axes = sweepAxes(s, p)
	tasks := map[[2]int]int64{}
	at := make(map[string]int, len(axes))
	ids := map[string]int{}
	var digest strings.Builder
	for index := range total {
		rest := index
		for i := len(axes) - 1; i >= 0; i-- {
			n := counts[axes[i]]
			at[axes[i]] = rest % n
			rest /= n
		}
		w, v := p.workloads[at[datasets.AxisWorkloads]], p.variants[at[datasets.AxisPolicies]]
		c := &sweepCell{index: index, w: w, v: v, size: sizes[at[datasets.AxisSizes]]}
		c.spec = cellSpec{Version: sweepCellVersion, Generator: o.Generator, Inputs: w.cellInputs,
			Workload: cellLoad{Kind: w.kind, Params: w.entry.Params}, Policy: plan.SimPolicy{Name: v.name, Params: v.params},
			Seed: s.Seeds[at[datasets.AxisSeeds]], Load: loads[at[datasets.AxisLoads]], Noise: noise[at[datasets.AxisNoise]],
			NoiseMode: s.NoiseMode, Tick: s.Tick, Until: s.Until}
		if c.spec.Inputs == nil {
			c.spec.Inputs = []cellInput{}
		}
		if c.size > 0 {
			params := map[string]string{"machines": strconv.Itoa(c.size)}
			for k, x := range w.entry.Params {
				if k != "machines" {
					params[k] = x
				}
			}
			c.spec.Workload.Params = params
		}
		c.id = c.spec.id()
		if j, dup := ids[c.id]; dup {
			return optionErrorf("%s: cells %d and %d are the same run (%s, %s, seed %d): remove the repeated value", s.Source, j, index, w.name, v.label, c.spec.Seed)
		}
		ids[c.id] = index
		key := [2]int{at[datasets.AxisWorkloads], at[datasets.AxisSizes]}
		n, ok := tasks[key]
		if !ok {
			var err error
			if n, err = sweepTasks(o, c); err != nil {
				return fmt.Errorf("%s: %s: %w", s.Source, w.entry.Path, err)
			}
			tasks[key] = n
		}
		c.cost = sweepCellCost(v.name, n)
		p.cells = append(p.cells, c)
		digest.WriteString(c.id)
		digest.WriteByte('\n')
	}
	p.info.Digest = plan.Digest([]byte(digest.String()))
	return nil
}

// sweepAxes lists the axes as the document records them, in file order.
func sweepAxes(s *datasets.Sweep, p *sweepPlan) []plan.SweepAxis {
	num := func(xs []float64) []string {
		var out []string
		for _, x := range xs {
			out = append(out, strconv.FormatFloat(x, 'g', -1, 64))
		}
		return out
	}
	var out []plan.SweepAxis
	for _, a := range s.Order {
		switch a {
		case datasets.AxisWorkloads:
			var names []string
			for _, w := range p.workloads {
				names = append(names, w.name)
			}
			out = append(out, plan.SweepAxis{Name: "workload", Values: names})
		case datasets.AxisPolicies:
			var names []string
			for _, v := range p.variants {
				names = append(names, v.label)
			}
			out = append(out, plan.SweepAxis{Name: "policy", Values: names})
		case datasets.AxisSeeds:
			var seeds []string
			for _, x := range s.Seeds {
				seeds = append(seeds, strconv.FormatUint(x, 10))
			}
			out = append(out, plan.SweepAxis{Name: "seed", Values: seeds})
		case datasets.AxisLoads:
			out = append(out, plan.SweepAxis{Name: "load", Values: num(s.Loads)})
		case datasets.AxisNoise:
			out = append(out, plan.SweepAxis{Name: "noise", Values: num(s.Noise)})
		case datasets.AxisSizes:
			var sizes []string
			for _, x := range s.Sizes {
				sizes = append(sizes, strconv.Itoa(x))
			}
			out = append(out, plan.SweepAxis{Name: "size", Values: sizes})
		case datasets.AxisAltruism:
			out = append(out, plan.SweepAxis{Name: "altruism", Values: num(s.Altruism)})
		case datasets.AxisParams:
			for _, q := range s.Params {
				out = append(out, plan.SweepAxis{Name: q.Policy + "." + q.Key, Values: q.Values})
			}
		}
	}
	return out
}
