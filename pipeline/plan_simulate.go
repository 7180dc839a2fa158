package pipeline

import (
	"fmt"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// PlanSimulationFile is the simulated check's document in a plan bundle.
const PlanSimulationFile = "simulation.json"

// DefaultSimulatePolicies are the simulated check's default policies: the
// workload runs on the ownership packing's containers under X-Flex's own
// online scheduler, the one the packing is made for [SEED xflex §2],
// paired with DRF (DefaultSimulateBaseline) on the same containers,
// X-Flex's comparison [SEED xflex §3].
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

// planSimulateSnapshots are X-Sight's snapshot times in the check: none (a
// snapshot lists every container, too large for a bundle).
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
