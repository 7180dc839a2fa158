package pipeline

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim/policies"
)

// MaxSweepCells bounds the cells of one sweep.
const MaxSweepCells = 1_000_000

// sweepWorkload is one value of the workloads axis, resolved: its files
// found and digested, its kind known.
type sweepWorkload struct {
	entry datasets.SweepWorkload
	name  string
	// kind is "file", "example" or the generator's name.
	kind string
	// file, cluster and demand are the paths Simulate reads (joined with
	// the sweep file's directory).
	file, cluster, demand string
	// inputs are the workload's inputs as the sweep's header lists them
	// (paths as written); cellInputs as a cell's spec names them.
	inputs     []plan.Input
	cellInputs []cellInput
	// sizeable: the workload takes a machines parameter (generators,
	// Alibaba traces).
	sizeable bool
}

// sweepVariant is one value of the policies axis: a policy with its
// parameters, those of the entry and those the parameter axes set.
type sweepVariant struct {
	path     string
	name     string
	params   map[string]string
	label    string
	altruism *float64
}

// sweepPlan is a sweep ready to run: its cells in index order, the header
// and info of its documents.
type sweepPlan struct {
	header    plan.Header
	info      plan.SweepInfo
	workloads []*sweepWorkload
	variants  []*sweepVariant
	cells     []*sweepCell
}

// altruismParam is the name of the policy parameter the altruism axis sets
// (Carbyne's P, SIMULATE.md §3.3).
const altruismParam = "altruism"

// planSweep validates the sweep against the policies and the workloads,
// reads and digests its inputs, and expands the cells.
func planSweep(o *SweepOptions) (*sweepPlan, error) {
	s := o.Spec
	p := &sweepPlan{}
	where := func(path string) string { return s.Source + ": " + path }
	var inputs []plan.Input
	if o.SpecInput != nil {
		inputs = append(inputs, *o.SpecInput)
	}
	for _, e := range s.Workloads {
		w, err := resolveSweepWorkload(s, e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(e.Path), err)
		}
		if len(s.Sizes) > 0 && !w.sizeable {
			return nil, optionErrorf("%s: sizes set the machines of generated workloads and Alibaba traces; workload %s runs on its own cluster (remove it or the sizes axis)",
				where(e.Path), w.name)
		}
		for _, in := range w.inputs {
			if !slices.Contains(inputs, in) {
				inputs = append(inputs, in)
			}
		}
		p.workloads = append(p.workloads, w)
	}
	for i, w := range p.workloads {
		for _, v := range p.workloads[:i] {
			if v.name == w.name {
				return nil, optionErrorf("%s: workload name %q is also the name of another workload: give each a distinct name", where(w.entry.Path), w.name)
			}
		}
	}
	variants, err := sweepVariants(s)
	if err != nil {
		return nil, err
	}
	p.variants = variants
	p.header = plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindSimulationSweep, Generator: o.Generator, Inputs: inputs, Flags: o.Flags}
	if p.header.Inputs == nil {
		p.header.Inputs = []plan.Input{}
	}
	if err := p.expand(o); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveSweepWorkload finds a workload's files and digests them.
func resolveSweepWorkload(s *datasets.Sweep, e datasets.SweepWorkload) (*sweepWorkload, error) {
	w := &sweepWorkload{entry: e, name: e.Name}
	rel := func(path string) string {
		if path == "" || filepath.IsAbs(path) || s.Dir == "" {
			return path
		}
		return filepath.Join(s.Dir, path)
	}
	file := func(role, path string) (string, error) {
		if path == "" {
			return "", nil
		}
		full := rel(path)
		data, err := datasets.ReadFile(full, 0)
		if err != nil {
			return "", err
		}
		sum := plan.Digest(data)
		w.inputs = append(w.inputs, plan.Input{Role: role, Path: path, SHA256: sum})
		w.cellInputs = append(w.cellInputs, cellInput{Role: role, Name: filepath.Base(full), SHA256: sum})
		return full, nil
	}
	var err error
	switch {
	case e.Generator != "":
		if e.Cluster != "" || e.Demand != "" {
			return nil, optionErrorf("generated workload %s brings its own cluster and users: remove cluster and demand", e.Generator)
		}
		w.kind, w.sizeable = e.Generator, true
		if w.name == "" {
			w.name = e.Generator
		}
		return w, nil
	case e.Example:
		w.kind = "example"
		if w.name == "" {
			w.name = "example"
		}
		files := datasets.SimulateExampleFiles()
		for _, f := range []struct{ role, name, path string }{{"cluster", "cluster.yaml", e.Cluster}, {"demand", "demand.yaml", e.Demand}, {"workload", "workload.yaml", ""}} {
			if f.path == "" && (f.role != "demand" || e.Cluster == "") {
				sum := plan.Digest(files[f.name])
				w.inputs = append(w.inputs, plan.Input{Role: f.role, Path: "example/" + f.name, SHA256: sum})
				w.cellInputs = append(w.cellInputs, cellInput{Role: f.role, Name: "example/" + f.name, SHA256: sum})
			}
		}
		if w.cluster, err = file("cluster", e.Cluster); err != nil {
			return nil, err
		}
		if w.demand, err = file("demand", e.Demand); err != nil {
			return nil, err
		}
		return w, nil
	}
	w.kind = "file"
	if w.name == "" {
		w.name = filepath.Base(e.File)
	}
	lower := strings.ToLower(e.File)
	isTrace := strings.HasSuffix(lower, ".csv")
	w.sizeable = isTrace
	if !isTrace && !strings.HasSuffix(lower, ".sm") && e.Cluster == "" {
		return nil, optionErrorf("workload file %s needs a cluster: set cluster in the sweep or in the workload", e.File)
	}
	if e.Demand != "" && e.Cluster == "" {
		return nil, optionErrorf("a demand needs a cluster")
	}
	if w.cluster, err = file("cluster", e.Cluster); err != nil {
		return nil, err
	}
	if w.demand, err = file("demand", e.Demand); err != nil {
		return nil, err
	}
	if w.file, err = file("workload", e.File); err != nil {
		return nil, err
	}
	return w, nil
}

// sweepVariants expands the policies axis: each entry once per combination
// of the parameter axes that name it (in their order) and, when it takes
// an altruism parameter, per altruism value. Every variant is built once
// to check its name and parameters.
func sweepVariants(s *datasets.Sweep) ([]*sweepVariant, error) {
	where := func(path string) string { return s.Source + ": " + path }
	names := map[string]bool{}
	for _, e := range s.Policies {
		names[e.Name] = true
	}
	for _, a := range s.Params {
		if !names[a.Policy] {
			return nil, optionErrorf("%s: policy %s is not among the policies (%s)", where(a.Path), a.Policy, policyList(s))
		}
	}
	altruists := 0
	var out []*sweepVariant
	for _, e := range s.Policies {
		spec, ok := policies.Lookup(e.Name)
		if !ok {
			return nil, optionErrorf("%s: unknown policy %q (valid: %s)", where(e.Path), e.Name, strings.Join(policies.Names(), ", "))
		}
		type axis struct {
			key    string
			values []string
		}
		var axes []axis
		for _, a := range s.Params {
			if a.Policy == e.Name {
				axes = append(axes, axis{a.Key, a.Values})
			}
		}
		takesAltruism := slices.ContainsFunc(spec.Params, func(d policies.ParamDoc) bool { return d.Name == altruismParam })
		if len(s.Altruism) > 0 && takesAltruism {
			altruists++
			var vs []string
			for _, a := range s.Altruism {
				vs = append(vs, strconv.FormatFloat(a, 'g', -1, 64))
			}
			axes = append(axes, axis{altruismParam, vs})
		}
		combos := [][]string{{}}
		for _, a := range axes {
			var next [][]string
			for _, c := range combos {
				for _, v := range a.values {
					next = append(next, append(slices.Clone(c), v))
				}
			}
			combos = next
		}
		for _, c := range combos {
			params := maps.Clone(e.Params)
			if params == nil && len(c) > 0 {
				params = map[string]string{}
			}
			for i, a := range axes {
				params[a.key] = c[i]
			}
			if _, err := policies.New(e.Name, params); err != nil {
				return nil, optionErrorf("%s: %v", where(e.Path), err)
			}
			v := &sweepVariant{path: e.Path, name: e.Name, params: params, label: variantLabel(e.Name, params)}
			if a, ok := params[altruismParam]; ok && len(s.Altruism) > 0 && takesAltruism {
				x, _ := strconv.ParseFloat(a, 64)
				v.altruism = &x
			}
			for _, u := range out {
				if u.label == v.label {
					return nil, optionErrorf("%s: policy %s repeats %s", where(e.Path), v.label, u.path)
				}
			}
			out = append(out, v)
		}
	}
	if len(s.Altruism) > 0 && altruists == 0 {
		return nil, optionErrorf("%s: altruism: none of the policies (%s) takes an altruism parameter", s.Source, policyList(s))
	}
	if s.Baseline != "" {
		n := 0
		for _, v := range out {
			if v.name == s.Baseline {
				n++
			}
		}
		switch {
		case n == 0:
			return nil, optionErrorf("%s: baseline: policy %s is not among the policies (%s)", s.Source, s.Baseline, policyList(s))
		case n > 1:
			return nil, optionErrorf("%s: baseline: policy %s appears in %d variants; the baseline must be one run per workload, seed, load, noise and size", s.Source, s.Baseline, n)
		}
	}
	return out, nil
}

// variantLabel writes a policy with its parameters: "tetris f=0.5,m=0.2".
func variantLabel(name string, params map[string]string) string {
	if len(params) == 0 {
		return name
	}
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		kv = append(kv, k+"="+params[k])
	}
	return name + " " + strings.Join(kv, ",")
}

func policyList(s *datasets.Sweep) string {
	var names []string
	for _, e := range s.Policies {
		names = append(names, e.Name)
	}
	return strings.Join(names, ", ")
}
