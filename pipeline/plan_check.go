package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// PlanCheckOptions are the options of CheckPlan (`capplan plan --check`).
type PlanCheckOptions struct {
	// Dir is the bundle directory.
	Dir string
	// Workers bounds the DAG jobs checked at once (0: all cores).
	Workers int
}

// PlanCheck is one verification of a bundle: the step it concerns, what
// was checked, and why it failed (nil when it holds).
type PlanCheck struct {
	Step string
	What string
	Err  error
}

// PlanCheckResult lists the checks CheckPlan ran, in order.
type PlanCheckResult struct {
	Checks []PlanCheck
}

// Failed returns the checks that failed, in order.
func (r *PlanCheckResult) Failed() []PlanCheck {
	var out []PlanCheck
	for _, c := range r.Checks {
		if c.Err != nil {
			out = append(out, c)
		}
	}
	return out
}

// CheckPlan re-verifies a plan bundle without re-solving anything but the
// simulation:
//
//  1. the index (plan.json) decodes and validates, every step's document
//     matches its SHA-256 digest (plan.OpenBundle) and so does every other
//     file (Plan.VerifyFiles);
//  2. every input the plan and its documents record is read again and
//     must match its recorded digest; a changed input stops the check (the
//     results cannot be judged against different inputs);
//  3. from those inputs, the problems are rebuilt as Plan built them (the
//     feasible part of the demand) and every result is checked by the
//     independent checkers: the fair shares by flow.Verify (exact leximin
//     certificate), the shape catalog by checkCatalog and a re-evaluation
//     of its cost, the ownership packing by xselect.Check (capacity,
//     eligibility, placement rules) and its required set at λ ≤ the
//     recomputed upper bound, the sizing by vbp.Check or vbp.CheckMixed
//     with its lower bound recomputed (and the curve's bounds), the DAG
//     schedules by DAGCheck (dag.Assess: precedence, capacity, machines)
//     against recomputed lower bounds;
//  4. the simulated check, which has no certificate, is re-run instead
//     (checkSimulationDoc): the simulator is deterministic, so the
//     recorded cell run again must give the same bytes.
//
// An unreadable bundle (no plan.json, or one that does not decode) is an
// error; everything else is a check in the result, failed or not.
func CheckPlan(o PlanCheckOptions) (*PlanCheckResult, error) {
	fsys := os.DirFS(o.Dir)
	data, err := fs.ReadFile(fsys, plan.PlanFile)
	if err != nil {
		return nil, fmt.Errorf("%s is not a plan bundle: %w", o.Dir, err)
	}
	if _, err := plan.DecodePlan(filepath.Join(o.Dir, plan.PlanFile), data); err != nil {
		return nil, err
	}
	r := &PlanCheckResult{}
	add := func(step, what string, err error) { r.Checks = append(r.Checks, PlanCheck{step, what, err}) }
	b, err := plan.OpenBundle(fsys)
	if err != nil {
		add("documents", "every step's document matches its sha256 in plan.json", err)
		return r, nil
	}
	n := len(b.Plan.Steps)
	add("documents", fmt.Sprintf("%s %s in plan.json", plural.Count(n, "step document"), plural.Verb(n, "matches its sha256", "match their sha256")), nil)
	n = len(b.Plan.Files)
	add("files", fmt.Sprintf("%s %s in plan.json", plural.Count(n, "report and export file"), plural.Verb(n, "matches its sha256", "match their sha256")), b.Plan.VerifyFiles(fsys))
	inputs := bundleInputs(b)
	if err := verifyInputs(inputs); err != nil {
		add("inputs", "the inputs recorded in the bundle are unchanged", err)
		return r, nil
	}
	add("inputs", fmt.Sprintf("%s read again %s", plural.Count(len(inputs), "input"), plural.Verb(len(inputs), "matches its recorded sha256", "match their recorded sha256")), nil)
	c, feasible, err := planCheckInputs(b.Plan)
	if err != nil {
		add("inputs", "the inputs load as the plan loaded them", err)
		return r, nil
	}
	if b.FairShare != nil {
		what, err := checkFairShareDoc(c, feasible, b.FairShare)
		add(plan.StepFairShare, what, err)
	}
	if b.Shapes != nil {
		what, err := checkShapesDoc(c, feasible, b.Shapes)
		add(plan.StepShapes, what, err)
	}
	if b.Ownership != nil {
		what, err := checkOwnershipDoc(c, feasible, b.Shapes, b.Ownership)
		add(plan.StepOwnership, what, err)
	}
	if b.Sizing != nil {
		what, err := checkSizingDoc(c, feasible, b.Sizing)
		add(plan.StepSizing, what, err)
		if len(b.Plan.SizingCurve) > 0 {
			what, err := checkSizingCurve(c, feasible, b.Plan, b.Sizing)
			add(plan.StepSizing, what, err)
		}
	}
	if b.DAG != nil {
		what, err := checkDAGDoc(planDAGInput(b.Plan, o.Workers), filepath.Join(o.Dir, stepFile(b.Plan, plan.StepDAG)), b.DAG)
		add(plan.StepDAG, what, err)
	}
	if b.Simulation != nil {
		what, err := checkSimulationDoc(o.Dir, b, o.Workers)
		add(plan.StepSimulation, what, err)
	}
	for _, s := range b.Other {
		add(s.Name, fmt.Sprintf("the %s document (%s) matches its digest; this version of capplan cannot re-verify its content", s.Name, s.Kind), nil)
	}
	return r, nil
}

// bundleInputs lists the inputs of the index and of every document, each
// path once (the first record of it).
func bundleInputs(b *plan.Bundle) []plan.Input {
	out := b.Plan.Inputs
	if b.FairShare != nil {
		out = mergeInputs(out, b.FairShare.Inputs)
	}
	if b.Shapes != nil {
		out = mergeInputs(out, b.Shapes.Inputs)
	}
	if b.Ownership != nil {
		out = mergeInputs(out, b.Ownership.Inputs)
	}
	if b.Sizing != nil {
		out = mergeInputs(out, b.Sizing.Inputs)
	}
	if b.DAG != nil {
		out = mergeInputs(out, b.DAG.Inputs)
	}
	return out
}

// verifyInputs reads every input again (the embedded example for
// "example:" paths) and compares its digest with the recorded one,
// reporting every input that changed or cannot be read.
func verifyInputs(inputs []plan.Input) error {
	var errs []error
	for _, in := range inputs {
		data, err := readInput(in.Path)
		if err != nil {
			errs = append(errs, fmt.Errorf("input %s %s: %w", in.Role, in.Path, err))
			continue
		}
		if got := plan.Digest(data); got != in.SHA256 {
			errs = append(errs, fmt.Errorf("input %s %s has changed since the plan was made: its sha256 is %s, the bundle records %s", in.Role, in.Path, got, in.SHA256))
		}
	}
	return errors.Join(errs...)
}

// readInput reads an input file, or an embedded example file.
func readInput(path string) ([]byte, error) {
	if name, ok := strings.CutPrefix(path, "example:"); ok {
		data, ok := datasets.ExampleFiles()[name]
		if !ok {
			return nil, fmt.Errorf("no embedded example file %q", name)
		}
		return data, nil
	}
	return datasets.ReadFile(path, 0)
}

// planInputs returns the cluster and demand a plan records: their paths,
// or the embedded example when both are "example:" inputs; ok is false
// when one is missing.
func planInputs(p *plan.Plan) (in Inputs, ok bool) {
	in.RackLabel, in.Pods = p.Flags["rackLabel"], p.Flags["podsResource"] == "true"
	for _, x := range p.Inputs {
		switch x.Role {
		case "cluster":
			in.ClusterPath = x.Path
		case "demand":
			in.DemandPath = x.Path
		}
	}
	if in.ClusterPath == "" || in.DemandPath == "" {
		return in, false
	}
	in.Example = strings.HasPrefix(in.ClusterPath, "example:") && strings.HasPrefix(in.DemandPath, "example:")
	if in.Example {
		in.ClusterPath, in.DemandPath = "", ""
	}
	return in, true
}

// planCheckInputs loads the plan's cluster and demand as Plan did and
// returns the cluster and the feasible part of the demand.
func planCheckInputs(p *plan.Plan) (*datasets.Cluster, *datasets.Demand, error) {
	in, ok := planInputs(p)
	if !ok {
		return nil, nil, fmt.Errorf("%s records no cluster or no demand input", plan.PlanFile)
	}
	l, err := in.read()
	if err != nil {
		return nil, nil, err
	}
	feasible, _, err := datasets.FeasibleDemand(l.Cluster, l.Demand)
	if err != nil {
		return nil, nil, err
	}
	return datasets.Schedulable(l.Cluster, feasible), feasible, nil
}

// planDAGInput is the DAG input Plan scheduled, from the index.
func planDAGInput(p *plan.Plan, workers int) DAGInput {
	in := DAGInput{Path: p.Flags["workload"], RackLabel: p.Flags["rackLabel"], Workers: workers, RejectUnfit: true}
	for _, x := range p.Inputs {
		if x.Role == "cluster" {
			in.ClusterPath = x.Path
		}
	}
	if strings.HasPrefix(in.ClusterPath, "example:") {
		in.ClusterPath, in.Example = "", true
	}
	return in
}

// stepFile returns the file of the named step ("" if none).
func stepFile(p *plan.Plan, name string) string {
	if s := findStep(p, name); s != nil {
		return s.File
	}
	return ""
}
