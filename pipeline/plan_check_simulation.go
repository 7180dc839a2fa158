package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/plan"
)

// checkSimulationDoc re-verifies the simulated check of a bundle in dir:
// the document validates (plan.SimulationSet.Validate: JCTs, counts,
// ownership times and fractions), it read the plan's inputs and the
// bundle's packing.json (digests), and, since the simulator is
// deterministic, running the recorded cell again — the plan's inputs and
// packing, the policies, baseline and parameters of the plan's flags, its
// seed — writes the same bytes. This is the one check of --check that
// re-runs a step: a simulation has no certificate to check instead.
func checkSimulationDoc(dir string, b *plan.Bundle, workers int) (string, error) {
	p, set := b.Plan, b.Simulation
	what := fmt.Sprintf("%s validates, ran on the plan's inputs and %s, and re-running its %d policies gives the same bytes",
		PlanSimulationFile, PlanPackingFile, len(set.Runs))
	pols, baseline, params, ok := parseSimulateFlags(p.Flags)
	if !ok {
		return what, fmt.Errorf("%s records no simulated check (flag simulate), but the bundle has %s", plan.PlanFile, PlanSimulationFile)
	}
	if err := set.Validate(); err != nil {
		return what, fmt.Errorf("%s: %w", PlanSimulationFile, err)
	}
	packStep, simStep := findStep(p, plan.StepOwnership), findStep(p, plan.StepSimulation)
	if packStep == nil || b.Ownership == nil {
		return what, fmt.Errorf("the bundle has %s but no ownership packing, whose containers it simulates", PlanSimulationFile)
	}
	if err := checkSimulationInputs(set, p.Inputs, packStep.SHA256); err != nil {
		return what, err
	}
	recorded, err := readStepFile(dir, simStep)
	if err != nil {
		return what, err
	}
	packing, err := readStepFile(dir, packStep)
	if err != nil {
		return what, err
	}
	in, ok := planInputs(p)
	if !ok {
		return what, fmt.Errorf("%s records no cluster or no demand input", plan.PlanFile)
	}
	o := PlanSimulateOptions{ClusterPath: in.ClusterPath, DemandPath: in.DemandPath, Example: in.Example,
		WorkloadPath: p.Flags["workload"], Packing: packing, Policies: pols, Baseline: baseline, Params: params,
		Workers: workers, Generator: set.Generator}
	if p.Seed != nil {
		o.Seed = uint64(*p.Seed)
	}
	again, err := PlanSimulate(o)
	if err != nil {
		return what, fmt.Errorf("re-running the simulation: %w", err)
	}
	data, err := plan.EncodeDocument(again)
	if err != nil {
		return what, err
	}
	if !bytes.Equal(data, recorded) {
		return what, fmt.Errorf("%s differs from the simulation re-run on the same inputs: %s", PlanSimulationFile, firstDifference(recorded, data))
	}
	return what, nil
}

// findStep returns the named step of the index, or nil.
func findStep(p *plan.Plan, name string) *plan.PlanStep {
	for i := range p.Steps {
		if p.Steps[i].Name == name {
			return &p.Steps[i]
		}
	}
	return nil
}

// readStepFile reads a step's document from the bundle and checks its
// digest again.
func readStepFile(dir string, s *plan.PlanStep) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.File)))
	if err != nil {
		return nil, err
	}
	if got := plan.Digest(data); got != s.SHA256 {
		return nil, fmt.Errorf("%w: %s has sha256 %s, %s records %s", plan.ErrDigest, s.File, got, plan.PlanFile, s.SHA256)
	}
	return data, nil
}

// firstDifference describes where two documents first differ: the line
// number and both lines.
func firstDifference(recorded, again []byte) string {
	a, b := bytes.Split(recorded, []byte("\n")), bytes.Split(again, []byte("\n"))
	for i := 0; i < min(len(a), len(b)); i++ {
		if !bytes.Equal(a[i], b[i]) {
			return fmt.Sprintf("line %d is %q, the re-run writes %q", i+1, strings.TrimSpace(string(a[i])), strings.TrimSpace(string(b[i])))
		}
	}
	return fmt.Sprintf("the recorded document has %d lines, the re-run %d", len(a), len(b))
}
