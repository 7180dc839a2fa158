package pipeline

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// handOwnershipFiles: one node ⟨4 cores, 4Gi⟩; applications A and B, each
// forecast at two ⟨1, 1Gi⟩ requests; B's job b (4 tasks of 100 s) arrives
// at 0, A's job a (2 tasks of 30 s) at 2.
var handOwnershipFiles = map[string]string{
	"cluster.yaml": "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory]\nnodes:\n  - {name: node, count: 1, capacity: {cpu: 4, memory: 4Gi}}\n",
	"demand.yaml": "apiVersion: capplan/v1\nkind: Demand\napplications:\n" +
		"  - {name: A, requests: [{shape: {cpu: 1, memory: 1Gi}, count: 2}]}\n" +
		"  - {name: B, requests: [{shape: {cpu: 1, memory: 1Gi}, count: 2}]}\n",
	"workload.yaml": "apiVersion: capplan/v1\nkind: Workload\njobs:\n" +
		"  - {name: b, group: B, arrival: 0, stages: [{name: s, tasks: 4, duration: 100, demand: {cpu: 1, memory: 1Gi}}]}\n" +
		"  - {name: a, group: A, arrival: 2, stages: [{name: s, tasks: 2, duration: 30, demand: {cpu: 1, memory: 1Gi}}]}\n",
}

// handPacking cuts node node-0 into four ⟨1, 1Gi⟩ containers, two owned by
// A and two by B: each owns half of the containers' charge.
const handPacking = `{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "ownership", "nodes": [{"name": "node-0", "containers": [
  {"shape": "s", "owner": "A", "size": {"cpu": 1, "memory": 1073741824}},
  {"shape": "s", "owner": "A", "size": {"cpu": 1, "memory": 1073741824}},
  {"shape": "s", "owner": "B", "size": {"cpu": 1, "memory": 1073741824}},
  {"shape": "s", "owner": "B", "size": {"cpu": 1, "memory": 1073741824}}]}]}`

// TestPlanSimulateHand runs the hand case under fifo and xschedule and
// checks every number of the ownership section against the arithmetic:
//
// fifo: b's 4 tasks take all 4 containers at 0 and hold them to 100; a
// waits from 2 to 100 holding nothing, then runs 100–130. A: active
// [2, 130) = 128 s, waiting = below = 98 s (0 < 0.9 × ½), fraction
// 98/128 = 0.765625 > ½: below its plan for most of its run; mean share
// ½·30/128 = 0.1171875; shortfall RMSE √(¼·98/128) = 0.4375. B holds
// everything for its 100 s: mean share 1, never waiting.
//
// xschedule (bound 0, grace 10 s): b takes its own 2 containers and
// borrows A's 2 at 0. At 2, A claims its containers back (B owes A, debt
// ≥ Δ = 0): B's tasks on them are killed at 12 and A runs 12–42. B's two
// killed tasks wait 12–42 (B then holds its own 2, ½ ≥ 0.9·½: not below),
// borrow A's containers again at 42 and rerun 42–142. A: active 40 s,
// waiting = below = 10 s, fraction ¼; mean ½·30/40 = 0.375; RMSE
// √(¼·10/40) = 0.25. B: active 142 s, waiting 30 s, below 0, mean share
// (1·12 + ½·30 + 1·58 + ½·42)/142 = 106/142.
func TestPlanSimulateHand(t *testing.T) {
	paths := writeFiles(t, handOwnershipFiles)
	set, err := PlanSimulate(PlanSimulateOptions{ClusterPath: paths["cluster.yaml"], DemandPath: paths["demand.yaml"],
		WorkloadPath: paths["workload.yaml"], Packing: []byte(handPacking), Policies: []string{"fifo", "xschedule"}, Seed: 1,
		Generator: "capplan test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Validate(); err != nil {
		t.Fatal(err)
	}
	type app struct {
		active, waiting, below, mean, rmse float64
		mostly                             bool
	}
	want := map[string]map[string]app{
		"fifo": {
			"A": {128, 98, 98, 0.1171875, 0.4375, true},
			"B": {100, 0, 0, 1, 0, false},
		},
		"xschedule": {
			"A": {40, 10, 10, 0.375, 0.25, false},
			"B": {142, 30, 0, 106.0 / 142, 0, false},
		},
	}
	for _, r := range set.Runs {
		o := r.Ownership
		if o == nil || o.Tolerance != 0.1 || len(o.Apps) != 2 {
			t.Fatalf("%s: ownership %+v", r.Policy.Name, o)
		}
		for _, a := range o.Apps {
			w := want[r.Policy.Name][a.Application]
			got := app{a.Active, a.Waiting, a.Below, a.MeanShare, a.ShortfallRMSE, a.BelowMostly}
			if a.Containers != 2 || a.PlannedShare != 0.5 || !near(got.active, w.active) || !near(got.waiting, w.waiting) ||
				!near(got.below, w.below) || !near(got.mean, w.mean) || !near(got.rmse, w.rmse) || got.mostly != w.mostly ||
				!near(a.BelowFraction, w.below/w.active) {
				t.Errorf("%s %s: containers %d planned %v, got %+v, want %+v", r.Policy.Name, a.Application, a.Containers, a.PlannedShare, got, w)
			}
		}
	}
	if x := set.Runs[1]; x.Summary.Kills != 2 || x.Policy.Params["fitness"] != planXScheduleFitness {
		t.Errorf("xschedule: %d kills, params %v; want the 2 loans reclaimed and fitness %s", x.Summary.Kills, x.Policy.Params, planXScheduleFitness)
	}
	// The warnings: A under fifo only, the policy checked.
	var msgs []string
	for _, w := range simulationWarnings(set, []string{"fifo", "xschedule"}, nil) {
		msgs = append(msgs, w.Message)
	}
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0], "under fifo, A held less than 90% of its planned share (50% of the containers, 2 owned)") ||
		!strings.Contains(msgs[0], "for 76.56% of the time it had jobs") {
		t.Errorf("warnings %q", msgs)
	}
	if ws := simulationWarnings(set, []string{"xschedule"}, nil); len(ws) != 0 {
		t.Errorf("fifo as a baseline only is not checked: %v", ws)
	}
}

// TestOwnershipBelowExact checks the decision "held < (1 − 1/10) × owned"
// in charge Σ_d v_d/R_d exactly, on R = ⟨4, 8⟩ (hand arithmetic: 10·held
// against 9·owned, in charges).
func TestOwnershipBelowExact(t *testing.T) {
	r := &ownershipRecorder{invR: []float64{1.0 / 4, 1.0 / 8}, weight: []*big.Int{big.NewInt(8), big.NewInt(4)},
		num: new(big.Int), t: new(big.Int)}
	for _, tc := range []struct {
		name        string
		owned, held sim.Vec
		want        bool
	}{
		// owned ⟨2, 0⟩: charge ½; held ⟨0, 2⟩: ¼; 2.5 < 4.5.
		{"other resource", sim.Vec{2, 0}, sim.Vec{0, 2}, true},
		// owned ⟨4, 8⟩: charge 2; held ⟨4, 6.4⟩ is not whole, so ⟨3, 6⟩
		// and ⟨4, 6⟩: 1.5 → 15 < 18 below; 1.75 → 17.5 < 18 below.
		{"three quarters", sim.Vec{4, 8}, sim.Vec{3, 6}, true},
		{"seven eighths", sim.Vec{4, 8}, sim.Vec{4, 6}, true},
		// held ⟨4, 7⟩: 1.875 → 18.75 ≥ 18: not below.
		{"fifteen sixteenths", sim.Vec{4, 8}, sim.Vec{4, 7}, false},
		// owned ⟨10, 0⟩ (2.5), held ⟨9, 0⟩ (2.25): 22.5 = 22.5, not below;
		// ⟨8, 8⟩ (3) holds more than it owns.
		{"exactly nine tenths", sim.Vec{10, 0}, sim.Vec{9, 0}, false},
		{"more than owned", sim.Vec{10, 0}, sim.Vec{8, 8}, false},
		// nothing owned: never below the plan.
		{"nothing planned", sim.Vec{0, 0}, sim.Vec{0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.ownedNum = []*big.Int{r.numerator(new(big.Int), tc.owned)}
			if got := r.below(0, tc.held); got != tc.want {
				t.Errorf("below(owned %v, held %v) = %v, want %v", tc.owned, tc.held, got, tc.want)
			}
		})
	}
}

// TestPlanSimulatedCheck plans the hand case: the X-Select packing gives A
// and B two ⟨1, 1Gi⟩ containers each, as handPacking; the check is the
// last step and writes its flags; fifo breaks A's plan (a warning naming
// it) where the default xschedule (paired with drf) keeps it.
func TestPlanSimulatedCheck(t *testing.T) {
	paths := writeFiles(t, handOwnershipFiles)
	o := PlanOptions{Inputs: Inputs{ClusterPath: paths["cluster.yaml"], DemandPath: paths["demand.yaml"]},
		WorkloadPath: paths["workload.yaml"], K: 1, Seed: 1, Generator: "capplan test", CommandLine: []string{"capplan", "plan"}}
	res, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Bundle.Plan
	if s := p.Steps[len(p.Steps)-1]; s.Name != plan.StepSimulation || s.Kind != plan.KindSimulationSet || s.File != PlanSimulationFile {
		t.Fatalf("last step %+v", s)
	}
	if p.Flags["simulate"] != "xschedule" || p.Flags["simulateBaseline"] != "drf" || len(res.Warnings()) != 0 {
		t.Errorf("flags %v, warnings %v", p.Flags, res.Warnings())
	}
	set := res.Bundle.Simulation
	if len(set.Runs) != 2 || set.Baseline != "drf" || set.Runs[0].Compare == nil || !set.Cluster.ContainerMode || set.Cluster.Machines != 4 {
		t.Fatalf("runs %d, baseline %q, cluster %+v", len(set.Runs), set.Baseline, set.Cluster)
	}
	for _, a := range set.Runs[0].Ownership.Apps {
		if a.Containers != 2 {
			t.Errorf("%s owns %d containers, want 2", a.Application, a.Containers)
		}
	}
	o.Simulate, o.SimulateBaseline = []string{"fifo"}, "none"
	res, err = Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	ws := res.Warnings()
	if len(ws) != 1 || ws[0].Step != plan.StepSimulation || !strings.HasPrefix(ws[0].Message, "under fifo, A held less than 90%") {
		t.Errorf("warnings %v", ws)
	}
	if f := res.Bundle.Plan.Flags; f["simulate"] != "fifo" || f["simulateBaseline"] != "" || len(res.Bundle.Simulation.Runs) != 1 {
		t.Errorf("flags %v", f)
	}
	o.Simulate = []string{}
	o.SimulateBaseline = ""
	res, err = Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bundle.Simulation != nil || res.Bundle.Plan.Flags["simulate"] != "none" {
		t.Errorf("--simulate none ran a simulation, flags %v", res.Bundle.Plan.Flags)
	}
}

// TestShareSeries: values over [a, b) land in 0-aligned buckets, which
// double in width (merging pairs) when time passes the last; export
// averages over [from, to). Four buckets of 1 tick: 2 over [1, 3) gives
// ∫ = 2, 2 in buckets 1, 2; then 4 over [6, 8) doubles the width to 2
// (buckets [0,2): 2, [2,4): 2, [4,6): 0, [6,8): 8); the means over [1, 8)
// are 2/1, 2/2, 0/2, 8/2.
func TestShareSeries(t *testing.T) {
	s := newShareSeries(4, 1)
	s.add(1, 3, 0, 2)
	s.add(6, 8, 0, 4)
	start, step, out := s.export(1, 8)
	want := []float64{2, 1, 0, 4}
	if start != 0 || step != 2 || len(out[0]) != len(want) {
		t.Fatalf("start %d step %d series %v", start, step, out[0])
	}
	for i, w := range want {
		if math.Abs(out[0][i]-w) > 1e-12 {
			t.Errorf("bucket %d: %v, want %v", i, out[0][i], w)
		}
	}
}
