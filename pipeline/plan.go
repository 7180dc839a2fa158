package pipeline

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// Files of the step documents in a plan bundle (relative to the bundle).
const (
	PlanFairShareFile = "fairshare.json"
	PlanShapesFile    = "shapes.json"
	PlanPackingFile   = "packing.json"
	PlanSizingFile    = "sizing.json"
	PlanDAGFile       = "dags.json"
)

// ExampleSizing is the node types and prices `capplan plan --example`
// sizes with when no --size is given: every node group of the example
// cluster, priced roughly by its capacity (spot nodes cheap).
const ExampleSizing = "std=1,std-b=1,highmem=3.5,gpu=12,spot=0.4"

// DefaultSizeCurve are the forecast multipliers sized besides the forecast
// itself for the bundle's sizing curve (cost against nodes as demand
// grows) when PlanOptions.SizeCurve is nil and the sizing is small (see
// maxCurveWork): below the forecast, where sizing is cheapest.
var DefaultSizeCurve = []float64{0.5, 0.75}

// maxCurveWork bounds, for the default sizing curve, the requests times
// the node types of the sizing: each point of the curve costs about as
// much as the sizing itself (the example: 5,164 requests × 5 types; the
// openb pods: 8,151 × 27 take several times longer), so larger sizings
// size the forecast alone unless a curve is asked for.
const maxCurveWork = 50_000

// PlanOptions are the options of Plan (`capplan plan`).
type PlanOptions struct {
	// Inputs are the cluster and the demand (or the embedded example).
	Inputs Inputs
	// WorkloadPath is a capplan Workload whose jobs are scheduled on the
	// cluster's nodes ("" = none; Inputs.Example adds the example
	// workload). It needs Inputs.ClusterPath or Inputs.Example.
	WorkloadPath string
	// K is the number of container shapes (≥ 1).
	K int
	// Size lists the node groups to size the cluster with, each with a
	// price per node: "std=1,highmem=3.5" ("" = no sizing). See SizeOptions.
	Size string
	// SizeCurve are forecast multipliers (> 0, ≠ 1) also sized with Size
	// for the bundle's sizing curve; each point scales every request count
	// up to a whole number (⌈count × m⌉). nil means DefaultSizeCurve when
	// the sizing is small (requests × node types ≤ maxCurveWork), else none;
	// an empty slice means none.
	SizeCurve []float64
	// Seed drives every randomised step (shapes, packing, sizing, DAGs).
	Seed uint64
	// Workers bounds the steps and DAG jobs run at once (0: all cores);
	// results do not depend on it.
	Workers int
	// CommandLine is the command that made the plan, recorded in the
	// index ("capplan", "plan", ...).
	CommandLine []string
	// Generator names the tool in every document header.
	Generator string
	// Simulate lists the policies (any name of sim/policies) of the
	// simulated check, the plan's last step: the workload's jobs arrive on
	// the cluster cut into the ownership packing's containers, and every
	// application's share held is compared with the share of the
	// containers it owns (PlanSimulate). nil means DefaultSimulatePolicies
	// when the workload is a capplan Workload (--example's is) and no check
	// otherwise; an empty slice turns it off.
	Simulate []string
	// SimulateBaseline is the policy every run is paired with ("":
	// DefaultSimulateBaseline; "none": no pairing).
	SimulateBaseline string
	// SimulateParams are per-policy parameters of the check (P.k=v, as
	// `capplan simulate --param`), over its defaults.
	SimulateParams map[string]map[string]string
	// Progress, when set, is called as each step finishes. Calls do not
	// overlap.
	Progress func(step string, took time.Duration)
}

// PlanResult is a plan: the bundle index and every step's document, the
// demand the steps planned for (the feasible part of the input's), and
// the steps' timings.
type PlanResult struct {
	// Bundle holds the index (Plan: inputs, command line, steps in order
	// without digests, warnings, sizing curve) and the documents.
	Bundle *plan.Bundle
	// Demand is the part of the demand the cluster can hold
	// (datasets.FeasibleDemand): the exports read it.
	Demand *datasets.Demand
	// Took is each step's wall-clock time, by step name.
	Took map[string]time.Duration
}

// Warnings returns the plan's warnings (the index's).
func (r *PlanResult) Warnings() []plan.PlanWarning { return r.Bundle.Plan.Warnings }

// planState is what the steps of one Plan share.
type planState struct {
	o       *PlanOptions
	loaded  *loaded
	inputs  Inputs // the cluster and the feasible demand, in memory
	types   []nodeTypeCost
	curve   []float64 // the sizing curve's multipliers
	workers int
	// problems are the parts of the demand left out.
	problems []inputerr.Problem
	// sim is the simulated check to run (nil: none).
	sim *planSimulation
}

// Plan runs the whole planning road on a cluster and a demand (and a
// workload) and returns every step's document, DESIGN.md's `capplan plan`:
//
//  1. load the inputs and split the demand (datasets.FeasibleDemand):
//     applications no node may run and requests no eligible node holds are
//     left out, each a warning;
//  2. fair shares (FairShare: CMMF, exact max-flow, divisible, with the
//     per-node assignment);
//  3. container shapes (Shapes: X-Size PTAS, K shapes, ε 0.1);
//  4. ownership packing of those shapes (Pack: X-Select, fair shares);
//  5. with Size, cluster sizing (Size: the cheapest node mix) and one
//     sizing per SizeCurve multiplier, the points of the sizing curve;
//  6. with a workload, a preferred schedule and the lower bounds of every
//     job (DAGSchedule, method best) on the cluster's nodes; a job with a
//     task no machine holds is left out with a warning;
//  7. with a capplan Workload, the simulated check (PlanSimulate): the
//     workload run on the cluster cut into the packing's containers under
//     Simulate's policies, paired with SimulateBaseline; jobs with a task
//     no container holds and applications held below their planned share
//     for most of their run are warnings.
//
// Steps 2–4 (then 7), each sizing and step 6 are independent and run
// Workers at a time. A step that cannot run (sizing with no feasible node mix, shapes
// when no request is left, ...) gets a warning naming the problem, and the
// steps that need it are skipped with one; the rest of the plan is still
// returned. Bad input files and bad options are errors (options as
// *OptionError), and nothing is returned.
func Plan(o PlanOptions) (*PlanResult, error) {
	st, err := o.start()
	if err != nil {
		return nil, err
	}
	p := &plan.Plan{
		Header:      header(plan.KindPlan, o.Generator, st.loaded.Inputs, st.flags(), seedOf(o.Seed)),
		CommandLine: o.CommandLine,
		Warnings:    []plan.PlanWarning{},
	}
	annotate(&p.Header, st.inputs.Cluster)
	res := &PlanResult{Bundle: &plan.Bundle{Plan: p}, Demand: st.inputs.Demand, Took: map[string]time.Duration{}}
	for _, pr := range st.problems {
		p.Warnings = append(p.Warnings, plan.PlanWarning{Step: "demand", Message: "cannot be met, left out of the plan: " + pr.String()})
	}
	if err := st.run(res); err != nil {
		return nil, err
	}
	if len(p.Steps) == 0 {
		msgs := make([]string, len(p.Warnings))
		for i, w := range p.Warnings {
			msgs[i] = w.Step + ": " + w.Message
		}
		return nil, fmt.Errorf("no step of the plan could run: %s", strings.Join(msgs, "; "))
	}
	if b := res.Bundle; b.DAG != nil {
		p.Inputs = mergeInputs(p.Inputs, b.DAG.Inputs)
	}
	if b := res.Bundle; b.Simulation != nil {
		p.Inputs = mergeInputs(p.Inputs, st.simulationWorkload(b.Simulation))
		var reported []plan.DAGRejection
		if b.DAG != nil {
			reported = b.DAG.Rejected
		}
		p.Warnings = append(p.Warnings, simulationWarnings(b.Simulation, st.sim.policies, reported)...)
	}
	return res, nil
}

// start validates the options, loads the inputs and splits the demand.
func (o *PlanOptions) start() (*planState, error) {
	switch {
	case o.K < 1:
		return nil, optionErrorf("invalid -k %d: want at least 1 shape", o.K)
	case o.Workers < 0:
		return nil, optionErrorf("invalid --workers %d", o.Workers)
	case o.WorkloadPath != "" && o.Inputs.ClusterPath == "" && !o.Inputs.Example:
		return nil, optionErrorf("a workload is scheduled on the nodes of a cluster file: give -c")
	case o.WorkloadPath != "" && o.Inputs.Example:
		return nil, optionErrorf("--example plans the example workload; it cannot be combined with -w")
	}
	for _, m := range o.SizeCurve {
		if !(m > 0) || math.IsInf(m, 0) || m == 1 || m > 100 {
			return nil, optionErrorf("invalid --size-curve multiplier %v: want a number in (0, 100], not 1 (the forecast itself is always sized)", m)
		}
	}
	if len(o.SizeCurve) > 0 && o.Size == "" {
		return nil, optionErrorf("--size-curve needs --size")
	}
	sim, err := o.resolveSimulation()
	if err != nil {
		return nil, err
	}
	st := &planState{o: o, workers: o.Workers, sim: sim}
	if o.Size != "" {
		types, err := parseNodeTypeList("--size", o.Size)
		if err != nil {
			return nil, err
		}
		st.types = types
	}
	l, err := o.Inputs.read()
	if err != nil {
		return nil, err
	}
	feasible, problems, err := datasets.FeasibleDemand(l.Cluster, l.Demand)
	if err != nil {
		return nil, err
	}
	st.loaded, st.problems = l, problems
	st.inputs = Inputs{Cluster: datasets.Schedulable(l.Cluster, feasible), Demand: feasible}
	var groups []string
	for _, g := range l.Cluster.Groups {
		groups = append(groups, g.Name)
	}
	for _, t := range st.types {
		if !slices.Contains(groups, t.Group) {
			return nil, optionErrorf("invalid --size: %q is not a node group of %s (groups: %s)", t.Group, l.Cluster.Source, strings.Join(groups, ", "))
		}
	}
	st.curve = o.SizeCurve
	if o.SizeCurve == nil && st.types != nil {
		var requests int64
		for _, a := range feasible.Applications {
			for _, r := range a.Requests {
				requests += r.Count
			}
		}
		if requests*int64(len(st.types)) <= maxCurveWork {
			st.curve = DefaultSizeCurve
		}
	}
	return st, nil
}

// flags records the plan's options, by flag name.
func (st *planState) flags() map[string]string {
	o := st.o
	m := map[string]string{"k": strconv.Itoa(o.K), "seed": strconv.FormatUint(o.Seed, 10)}
	if o.Size != "" {
		m["size"] = o.Size
	}
	if len(st.curve) > 0 {
		parts := make([]string, len(st.curve))
		for i, x := range st.curve {
			parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		m["sizeCurve"] = strings.Join(parts, ",")
	}
	if o.WorkloadPath != "" {
		m["workload"] = o.WorkloadPath
	}
	if o.Inputs.RackLabel != "" && o.Inputs.RackLabel != datasets.RackLabel {
		m["rackLabel"] = o.Inputs.RackLabel
	}
	if o.Inputs.Pods {
		m["podsResource"] = "true"
	}
	switch {
	case st.sim != nil:
		maps.Copy(m, simulateFlags(st.sim.policies, st.sim.baseline, st.sim.params))
	case o.Simulate != nil:
		m["simulate"] = "none"
	}
	return m
}

func seedOf(s uint64) *int64 {
	v := int64(s)
	return &v
}

// took records a step's time and reports it.
func (st *planState) took(res *PlanResult, step string, d time.Duration) {
	res.Took[step] = d
	if st.o.Progress != nil {
		st.o.Progress(step, d)
	}
}

// stepFailed is the warning of a step that could not run.
func stepFailed(step string, err error) plan.PlanWarning {
	return plan.PlanWarning{Step: step, Message: fmt.Sprintf("the %s step could not run: %v", step, err)}
}

// fatal reports whether a step's error must stop the plan: bad options and
// bad input files, which no other step can get around.
func fatal(err error) bool {
	return IsOptionError(err) || errors.Is(err, inputerr.ErrInvalid)
}

// mergeInputs appends to inputs those of more not yet listed (by path
// and digest).
func mergeInputs(inputs, more []plan.Input) []plan.Input {
	out := slices.Clone(inputs)
	for _, in := range more {
		if !slices.ContainsFunc(out, func(x plan.Input) bool { return x.Path == in.Path && x.SHA256 == in.SHA256 }) {
			out = append(out, in)
		}
	}
	return out
}
