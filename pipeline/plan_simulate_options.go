package pipeline

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/capplan/capplan/sim/policies"
)

// simulateFlags records the check's options by flag name: simulate (the
// policies, or "none"), simulateBaseline, and simulateParam.P.k per
// parameter the user set.
func simulateFlags(pols []string, baseline string, params map[string]map[string]string) map[string]string {
	m := map[string]string{"simulate": strings.Join(pols, ",")}
	if len(pols) == 0 {
		m["simulate"] = "none"
	}
	if baseline != "" {
		m["simulateBaseline"] = baseline
	}
	for _, p := range sortedKeysOf(params) {
		for _, k := range sortedKeysOf(params[p]) {
			m["simulateParam."+p+"."+k] = params[p][k]
		}
	}
	return m
}

// parseSimulateFlags reads simulateFlags back from a plan's flags; ok is
// false when the plan ran no simulated check.
func parseSimulateFlags(flags map[string]string) (pols []string, baseline string, params map[string]map[string]string, ok bool) {
	v := flags["simulate"]
	if v == "" || v == "none" {
		return nil, "", nil, false
	}
	params = map[string]map[string]string{}
	for _, key := range sortedKeysOf(flags) {
		rest, found := strings.CutPrefix(key, "simulateParam.")
		p, k, split := strings.Cut(rest, ".")
		if !found || !split {
			continue
		}
		if params[p] == nil {
			params[p] = map[string]string{}
		}
		params[p][k] = flags[key]
	}
	return strings.Split(v, ","), flags["simulateBaseline"], params, true
}

// planSimulation is the simulated check a plan runs (nil: none).
type planSimulation struct {
	policies []string
	baseline string
	params   map[string]map[string]string
}

// resolveSimulation decides the plan's simulated check from the options:
// with Simulate nil, DefaultSimulatePolicies (and DefaultSimulateBaseline
// unless SimulateBaseline is "none") when the plan has a capplan Workload
// (--example's or -w's); none without one or for other workload formats,
// whose jobs name no application. An explicit list needs a Workload; an
// empty one turns the check off. Unknown policies are option errors.
func (o *PlanOptions) resolveSimulation() (*planSimulation, error) {
	doc, err := o.workloadIsDocument()
	if err != nil {
		return nil, err
	}
	explicit := o.Simulate != nil
	s := &planSimulation{policies: o.Simulate, baseline: o.SimulateBaseline, params: o.SimulateParams}
	switch {
	case explicit && len(o.Simulate) == 0:
		if o.SimulateBaseline != "" && o.SimulateBaseline != "none" || len(o.SimulateParams) > 0 {
			return nil, optionErrorf("--simulate none turns the simulated check off: drop --simulate-baseline and --simulate-param")
		}
		return nil, nil
	case explicit && o.WorkloadPath == "" && !o.Inputs.Example:
		return nil, optionErrorf("--simulate runs the workload on the plan: give -w workload.yaml")
	case explicit && !doc:
		return nil, optionErrorf("--simulate needs a capplan Workload (YAML or JSON) whose jobs' groups name the demand's applications; %s is not one", o.WorkloadPath)
	case !explicit && !doc:
		if o.SimulateBaseline != "" || len(o.SimulateParams) > 0 {
			return nil, optionErrorf("--simulate-baseline and --simulate-param need the simulated check, which runs a capplan Workload: give -w workload.yaml")
		}
		return nil, nil
	case !explicit:
		s.policies = slices.Clone(DefaultSimulatePolicies)
	}
	switch s.baseline {
	case "":
		s.baseline = DefaultSimulateBaseline
	case "none":
		s.baseline = ""
	}
	names := slices.Clone(s.policies)
	if s.baseline != "" {
		names = append(names, s.baseline)
	}
	for i, n := range s.policies {
		if slices.Contains(s.policies[:i], n) {
			return nil, optionErrorf("invalid --simulate: policy %s is listed twice", n)
		}
	}
	for _, n := range names {
		if _, ok := policies.Lookup(n); !ok {
			return nil, optionErrorf("invalid --simulate: unknown policy %q (valid: %s)", n, strings.Join(policies.Names(), ", "))
		}
	}
	params := planSimulateParams(s.params)
	for _, p := range sortedKeysOf(s.params) {
		if !slices.Contains(names, p) {
			return nil, optionErrorf("invalid --simulate-param: policy %s is not simulated (policies: %s)", p, strings.Join(names, ", "))
		}
	}
	for _, n := range names {
		if _, err := policies.New(n, params[n]); err != nil {
			return nil, optionErrorf("invalid --simulate-param: %w", err)
		}
	}
	return s, nil
}

// workloadIsDocument reports whether the plan's workload is a capplan
// Workload document (the example's is), by extension or, for other names,
// by its first bytes.
func (o *PlanOptions) workloadIsDocument() (bool, error) {
	if o.Inputs.Example {
		return true, nil
	}
	if o.WorkloadPath == "" {
		return false, nil
	}
	switch strings.ToLower(filepath.Ext(o.WorkloadPath)) {
	case ".yaml", ".yml", ".json":
		return true, nil
	case ".sm", ".csv":
		return false, nil
	}
	f, err := os.Open(o.WorkloadPath)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false, err
	}
	format, err := detectDAGFormat(o.WorkloadPath, head[:n], dagFormatAuto)
	if err != nil {
		return false, err
	}
	return format == dagFormatWorkload, nil
}
