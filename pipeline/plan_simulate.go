package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim/policies"
)

// PlanSimulationFile is the simulated check's document in a plan bundle.
const PlanSimulationFile = "simulation.json"

// The simulated check's defaults: the workload runs on the ownership
// packing's containers under X-Flex's own online scheduler, the one the
// packing is made for [SEED xflex §2], paired with DRF on the same
// containers, X-Flex's comparison [SEED xflex §3].
var DefaultSimulatePolicies = []string{"xschedule"}

// DefaultSimulateBaseline is the policy the check's runs are paired with.
const DefaultSimulateBaseline = "drf"

// planXScheduleFitness is X-Schedule's fitness in the simulated check.
// X-Schedule eliminates a container more than fitness × the request's
// size (NormSum), fitness 2 [DERIVED, SIMULATE.md §3.6]: in X-Flex the
// containers are cut for the very requests that arrive. A plan's
// containers are cut for the demand's forecast shapes, while the
// workload's tasks are whatever the jobs ask, often much smaller; under
// fitness 2 such a task would never be placed and the run would stall
// with work left. The check lifts the limit (the parameter's largest
// value): a task takes the tightest free container that holds it (the fit
// score still prefers the smallest) and is charged its size, so the
// waste of oversized containers shows as lower shares, not as a stall.
// --simulate-param xschedule.fitness=2 restores the paper's rule.
const planXScheduleFitness = "1e9"

// planSimulateViews are the views the check records: X-Sight's without
// snapshots (a snapshot lists every container, too large for a bundle).
var planSimulateSnapshots = []float64{}

// PlanSimulateOptions are the inputs of the simulated check of a plan
// (PlanSimulate): the plan's input files, its ownership packing and the
// policies.
type PlanSimulateOptions struct {
	// ClusterPath and DemandPath are the plan's cluster and demand files;
	// Example uses the embedded example's (and its workload).
	ClusterPath, DemandPath string
	Example                 bool
	// WorkloadPath is a capplan Workload whose jobs' groups name the
	// demand's applications.
	WorkloadPath string
	// Packing is the ownership PackingPlan document as the bundle holds it
	// (packing.json's bytes): the nodes are cut into its containers.
	Packing []byte
	// Policies run in order; Baseline, when set, pairs every run with its
	// (it runs too). Params are per-policy parameters over the check's
	// defaults (planXScheduleFitness).
	Policies []string
	Baseline string
	Params   map[string]map[string]string
	Seed     uint64
	// Workers bounds the policies run at once (0: all cores); the result
	// does not depend on it.
	Workers   int
	Generator string
}

// PlanSimulate runs the simulated check of a plan: the workload's jobs
// arrive on the plan's cluster cut into the ownership packing's containers
// (container mode, SIMULATE.md §1.4), once per policy on identical inputs
// (Simulate), recording per application the share held against the share
// of the containers it owns while it has work waiting (plan.SimOwnership)
// and X-Sight's view of owned, lent and borrowed containers. The packing
// is recorded as input packing.json with its digest, so the document ties
// to the bundle's packing step. The simulator is deterministic: the same
// options give the same bytes.
func PlanSimulate(o PlanSimulateOptions) (*plan.SimulationSet, error) {
	files := map[string][]byte{PlanPackingFile: o.Packing}
	cluster, demand, workload := o.ClusterPath, o.DemandPath, o.WorkloadPath
	if o.Example {
		ex := datasets.ExampleFiles()
		cluster, demand, workload = "example:cluster.yaml", "example:demand.yaml", "example:workload.yaml"
		files[cluster], files[demand], files[workload] = ex["cluster.yaml"], ex["demand.yaml"], ex["workload.yaml"]
	}
	return Simulate(SimulateOptions{
		ClusterPath: cluster, DemandPath: demand, WorkloadPath: workload, PackingPath: PlanPackingFile, Files: files,
		Ownership: true, XSight: true, Snapshots: planSimulateSnapshots,
		Policies: o.Policies, Baseline: o.Baseline, PolicyParams: planSimulateParams(o.Params), Seed: o.Seed,
		Workers: o.Workers, Generator: o.Generator, Flags: simulateFlags(o.Policies, o.Baseline, o.Params),
	})
}

// planSimulateParams returns the user's parameters over the check's
// defaults (a copy).
func planSimulateParams(user map[string]map[string]string) map[string]map[string]string {
	return withDefaults(user, map[string]map[string]string{"xschedule": {"fitness": planXScheduleFitness}})
}

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

// simulation runs the simulated check on the ownership packing just
// computed (b.Ownership) and files its step and warnings in out.
func (st *planState) simulation(b *plan.Bundle, out *stepOut, done func(string, time.Duration)) error {
	t0 := time.Now()
	s, o := st.sim, st.o
	packing, err := plan.EncodeDocument(b.Ownership)
	if err != nil {
		return err
	}
	set, err := PlanSimulate(PlanSimulateOptions{ClusterPath: o.Inputs.ClusterPath, DemandPath: o.Inputs.DemandPath,
		Example: o.Inputs.Example, WorkloadPath: o.WorkloadPath, Packing: packing, Policies: s.policies, Baseline: s.baseline,
		Params: s.params, Seed: o.Seed, Workers: o.Workers, Generator: o.Generator})
	done(plan.StepSimulation, time.Since(t0))
	if err != nil {
		w := stepFailed(plan.StepSimulation, err)
		w.Message += " (--simulate none skips the check)"
		out.warnings = append(out.warnings, w)
		return nil
	}
	if err := checkSimulationInputs(set, st.loaded.Inputs, plan.Digest(packing)); err != nil {
		return fmt.Errorf("pipeline: the simulated check read other inputs than the plan (did a file change meanwhile?): %w", err)
	}
	b.Simulation = set
	out.steps = append(out.steps, plan.PlanStep{Name: plan.StepSimulation, Kind: plan.KindSimulationSet, File: PlanSimulationFile})
	return nil
}

// checkSimulationInputs checks that the simulation read the plan's inputs:
// its cluster and demand (and workload, when the plan records one) have
// the digests the plan records for those roles, and its packing is the
// bundle's, of digest packing.
func checkSimulationInputs(set *plan.SimulationSet, planInputs []plan.Input, packing string) error {
	want := map[string]string{"packing": packing}
	for _, in := range planInputs {
		if in.Role == "cluster" || in.Role == "demand" || in.Role == dagFormatWorkload {
			want[in.Role] = in.SHA256
		}
	}
	seen := map[string]bool{}
	for _, in := range set.Inputs {
		w, ok := want[in.Role]
		if !ok {
			continue
		}
		seen[in.Role] = true
		if in.SHA256 != w {
			return fmt.Errorf("%s: input %s %s has sha256 %s, the plan's has %s", PlanSimulationFile, in.Role, in.Path, in.SHA256, w)
		}
	}
	for _, role := range []string{"cluster", "demand", "packing"} {
		if !seen[role] {
			return fmt.Errorf("%s records no %s input", PlanSimulationFile, role)
		}
	}
	return nil
}

// maxRejectedNamed bounds the jobs a warning names.
const maxRejectedNamed = 3

// simulationWarnings are the problems the simulated check found: jobs left
// out because a task fits no container it may use (but those of reported,
// the DAG step's jobs larger than every machine, already warned about),
// and, for each of the checked policies (not a baseline only compared
// with), every application below its planned share for most of the time
// it had jobs (plan.SimOwnedApp.BelowMostly).
func simulationWarnings(set *plan.SimulationSet, checked []string, reported []plan.DAGRejection) []plan.PlanWarning {
	var out []plan.PlanWarning
	rej := slices.DeleteFunc(slices.Clone(set.Workload.Rejected), func(r plan.SimRejection) bool {
		return slices.ContainsFunc(reported, func(d plan.DAGRejection) bool { return d.Job == r.Job })
	})
	if len(rej) > 0 {
		var named []string
		for _, r := range rej[:min(len(rej), maxRejectedNamed)] {
			named = append(named, r.Job+" ("+r.Reason+")")
		}
		more := ""
		if n := len(rej) - maxRejectedNamed; n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		out = append(out, plan.PlanWarning{Step: plan.StepSimulation, Message: fmt.Sprintf(
			"%d of the workload's %d jobs never fit: a task no container of the plan it may use can hold, left out of the simulation: %s%s",
			len(rej), set.Workload.Jobs, strings.Join(named, "; "), more)})
	}
	for _, r := range set.Runs {
		if !slices.Contains(checked, r.Policy.Name) || r.Ownership == nil {
			continue
		}
		own := r.Ownership
		for _, a := range own.Apps {
			if !a.BelowMostly {
				continue
			}
			out = append(out, plan.PlanWarning{Step: plan.StepSimulation, Message: fmt.Sprintf(
				"under %s, %s held less than %s of its planned share (%s of the containers, %d owned) while it had tasks waiting, for %s of the time it had jobs (mean share %s, shortfall RMSE %s of the containers): its containers are lent out, too few, or do not fit its tasks",
				r.Policy.Name, a.Application, percentText(1-own.Tolerance), percentText(a.PlannedShare), a.Containers,
				percentText(a.BelowFraction), percentText(a.MeanShare), percentText(a.ShortfallRMSE))})
		}
	}
	return out
}

// percentText writes a fraction as a percentage with up to two decimals.
func percentText(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*x), "0"), ".") + "%"
}

// simulationSkipped warns that the simulated check could not run for want
// of the ownership packing (when the plan has one to run).
func (st *planState) simulationSkipped(out *stepOut) {
	if st.sim != nil {
		out.warnings = append(out.warnings, plan.PlanWarning{Step: plan.StepSimulation,
			Message: "skipped: the simulated check runs the workload on the ownership packing's containers, which could not be computed"})
	}
}

// simulationWorkload is the plan input of the simulation's workload: the
// plan's workload path with the digest the simulation read (none when
// it records no workload).
func (st *planState) simulationWorkload(set *plan.SimulationSet) []plan.Input {
	path := st.o.WorkloadPath
	if st.o.Inputs.Example {
		path = "example:workload.yaml"
	}
	for _, in := range set.Inputs {
		if in.Role == dagFormatWorkload {
			return []plan.Input{{Role: dagFormatWorkload, Path: path, SHA256: in.SHA256}}
		}
	}
	return nil
}
