package pipeline

import (
	"bytes"
	"encoding/json"

	"strings"
	"testing"
)

// badPlanFiles is a small cluster, demand and workload with one of each
// problem Plan must survive (hand arithmetic in the comments):
//
//   - std: 4 nodes of 8 cores, 32Gi; big: 1 node of 32 cores, 128Gi,
//     tier=big. 5 machines in all.
//   - web runs anywhere; batch's second request (64 cores) fits no node, so
//     it is left out; train wants gpu=true, which no node has, so it is
//     left out, and helper, colocated with train, with it; bigdb may only
//     use tier=big.
//   - the workload's job small (of web) fits; huge (of batch) has a
//     64-core task, larger than every machine, and is left out: of the
//     DAG schedules, with a warning, and of the simulated check, where it
//     is not warned about again.
var badPlanFiles = map[string]string{
	"cluster.yaml": `apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: std, count: 4, capacity: {cpu: 8, memory: 32Gi}}
  - {name: big, count: 1, labels: {tier: big}, capacity: {cpu: 32, memory: 128Gi}}
`,
	"demand.yaml": `apiVersion: capplan/v1
kind: Demand
applications:
  - name: web
    requests: [{shape: {cpu: 2, memory: 4Gi}, count: 10}]
  - name: batch
    requests:
      - {shape: {cpu: 1, memory: 2Gi}, count: 8}
      - {shape: {cpu: 64, memory: 2Gi}, count: 1}
  - name: train
    selector: "gpu=true"
    requests: [{shape: {cpu: 4, memory: 8Gi}, count: 2}]
  - name: helper
    colocateWith: [train]
    requests: [{shape: {cpu: 1, memory: 1Gi}, count: 2}]
  - name: bigdb
    selector: "tier=big"
    requests: [{shape: {cpu: 8, memory: 64Gi}, count: 2}]
`,
	"workload.yaml": `apiVersion: capplan/v1
kind: Workload
jobs:
  - name: small
    group: web
    stages:
      - {name: a, tasks: 4, duration: 10, demand: {cpu: 2, memory: 4Gi}}
      - {name: b, tasks: 2, duration: 5, demand: {cpu: 4, memory: 8Gi}, after: [a]}
  - name: huge
    group: batch
    tasks:
      - {id: t, duration: 10, demand: {cpu: 64, memory: 4Gi}}
`,
}

func badPlanOptions(t *testing.T) PlanOptions {
	paths := writeFiles(t, badPlanFiles)
	return PlanOptions{
		Inputs:       Inputs{ClusterPath: paths["cluster.yaml"], DemandPath: paths["demand.yaml"]},
		WorkloadPath: paths["workload.yaml"],
		K:            3, Seed: 1, Generator: "capplan test", CommandLine: []string{"capplan", "plan"},
	}
}

// TestPlanWarnings runs Plan on badPlanFiles: every problem is a warning
// naming it, and the feasible part is planned.
func TestPlanWarnings(t *testing.T) {
	o := badPlanOptions(t)
	o.Size = "std=1" // bigdb may not use std: no feasible node mix
	res, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle
	var got []string
	for _, w := range res.Warnings() {
		got = append(got, w.Step+": "+w.Message)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`demand: cannot be met, left out of the plan: ` + o.Inputs.DemandPath + `: applications[1].requests[1].shape: shape cpu=64, memory=2Gi fits no node application "batch" may run on`,
		`application "train" can run on no node: selector "gpu=true" matches no node`,
		`application "helper" may only run beside "train", which can run on no node`,
		"sizing: no feasible node mix of std=1 holds the forecast",
		"application bigdb may run on none of the node groups std",
		"dag: job huge cannot run on any machine of the cluster, left out",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning containing %q in:\n%s", want, all)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d warnings, want 5 (2 demand problems, helper, sizing, huge):\n%s", len(got), all)
	}
	// The feasible part: shares for web, batch, bigdb (5 machines), capped
	// at their forecasts: batch's 8 requests of 1 core and 2Gi fill one
	// machine of either type (8 per std node, 32 per big node), bigdb's 2
	// requests of 8 cores and 64Gi one big node; web's 10 requests of 2
	// cores and 4Gi fill 3 std nodes (4 per node) or 1 big node. So batch
	// and bigdb stop at 1 and web takes the 3 std nodes left; shapes,
	// packing and the small job; no sizing.
	if b.FairShare == nil || len(b.FairShare.Shares) != 3 || b.Shapes == nil || b.Ownership == nil || b.Sizing != nil || b.DAG == nil {
		t.Fatalf("documents: fairshare %v shapes %v ownership %v sizing %v dag %v", b.FairShare != nil, b.Shapes != nil, b.Ownership != nil, b.Sizing != nil, b.DAG != nil)
	}
	for _, s := range b.FairShare.Shares {
		want := map[string]string{"web": "3", "batch": "1", "bigdb": "1"}[s.Application]
		if s.MachinesExact != want {
			t.Errorf("%s: %s machines, want %s", s.Application, s.MachinesExact, want)
		}
	}
	if len(b.DAG.Jobs) != 1 || b.DAG.Jobs[0].Name != "small" || len(b.DAG.Rejected) != 1 {
		t.Errorf("DAG jobs %d, rejected %v", len(b.DAG.Jobs), b.DAG.Rejected)
	}
	var names []string
	for _, s := range b.Plan.Steps {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "fairshare,shapes,ownership,dag,simulation" {
		t.Errorf("steps %v", names)
	}
	if b.Plan.SizingCurve != nil {
		t.Errorf("a failed sizing has a curve: %v", b.Plan.SizingCurve)
	}
}

// TestPlanSizingCurve sizes badPlanFiles' feasible demand with both node
// groups: the forecast and the curve's points, in order; and the result
// does not depend on Workers.
func TestPlanSizingCurve(t *testing.T) {
	var docs [][]byte
	o := badPlanOptions(t)
	o.Size = "std=1,big=3"
	for _, workers := range []int{1, 3} {
		o.Workers = workers
		res, err := Plan(o)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Bundle
		if b.Sizing == nil {
			t.Fatalf("no sizing: %v", res.Warnings())
		}
		var labels []string
		for _, pt := range b.Plan.SizingCurve {
			labels = append(labels, pt.Label)
			if pt.Cost < pt.LowerBound {
				t.Errorf("%s: cost %v below its bound %v", pt.Label, pt.Cost, pt.LowerBound)
			}
		}
		if strings.Join(labels, ",") != "forecast,forecast × 0.5,forecast × 0.75" || b.Plan.Flags["sizeCurve"] != "0.5,0.75" {
			t.Errorf("curve %v, flags %v", labels, b.Plan.Flags)
		}
		// The forecast's point is the sizing: the mix holds web, batch's
		// small requests and bigdb; bigdb's 2 × (8 cores, 64Gi) need the
		// one big node type (3 per node): cost ≥ 3.
		if pt := b.Plan.SizingCurve[0]; pt.Cost != b.Sizing.Cost || pt.Nodes != b.Sizing.NodesUsed || pt.Cost < 3 {
			t.Errorf("forecast point %+v, sizing cost %v on %d nodes", pt, b.Sizing.Cost, b.Sizing.NodesUsed)
		}
		var buf bytes.Buffer
		for _, doc := range []any{b.Plan, b.FairShare, b.Shapes, b.Ownership, b.Sizing, b.DAG} {
			data, _ := json.Marshal(doc)
			buf.Write(data)
		}
		docs = append(docs, buf.Bytes())
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Error("the plan differs with 1 and 3 workers")
	}
}

func TestPlanOptionErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*PlanOptions)
		want   string
	}{
		{"k", func(o *PlanOptions) { o.K = 0 }, "invalid -k 0"},
		{"price", func(o *PlanOptions) { o.Size = "std=-1" }, "invalid --size std=-1: the cost must be a positive number"},
		{"group", func(o *PlanOptions) { o.Size = "gpu=1" }, `invalid --size: "gpu" is not a node group`},
		{"curve without size", func(o *PlanOptions) { o.SizeCurve = []float64{0.5} }, "--size-curve needs --size"},
		{"curve of one", func(o *PlanOptions) { o.Size, o.SizeCurve = "std", []float64{1} }, "invalid --size-curve multiplier 1"},
		{"workload without cluster file", func(o *PlanOptions) { o.Inputs = Inputs{Example: true} }, "--example plans the example workload"},
		// the simulated check
		{"unknown policy", func(o *PlanOptions) { o.Simulate = []string{"fifo", "lottery"} }, `unknown policy "lottery" (valid: `},
		{"unknown baseline", func(o *PlanOptions) { o.SimulateBaseline = "lottery" }, `unknown policy "lottery"`},
		{"policy twice", func(o *PlanOptions) { o.Simulate = []string{"fifo", "fifo"} }, "policy fifo is listed twice"},
		{"bad parameter", func(o *PlanOptions) { o.SimulateParams = map[string]map[string]string{"xschedule": {"grace": "-1"}} }, "invalid --simulate-param"},
		{"parameter of no policy", func(o *PlanOptions) { o.SimulateParams = map[string]map[string]string{"tetris": {"f": "1"}} }, "policy tetris is not simulated"},
		{"none with a baseline", func(o *PlanOptions) { o.Simulate, o.SimulateBaseline = []string{}, "drf" }, "--simulate none turns the simulated check off"},
		{"simulate without workload", func(o *PlanOptions) { o.WorkloadPath, o.Simulate = "", []string{"fifo"} }, "--simulate runs the workload on the plan: give -w"},
		{"simulate a trace", func(o *PlanOptions) { o.WorkloadPath, o.Simulate = "trace.csv", []string{"fifo"} }, "needs a capplan Workload"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := badPlanOptions(t)
			tc.change(&o)
			_, err := Plan(o)
			if !IsOptionError(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an option error containing %q", err, tc.want)
			}
		})
	}
}

// TestPlanBadInput: bad input files fail the whole plan (no document),
// and so does a demand of which nothing can run.
func TestPlanBadInput(t *testing.T) {
	o := badPlanOptions(t)
	paths := writeFiles(t, map[string]string{
		"undeclared.yaml": "apiVersion: capplan/v1\nkind: Demand\napplications:\n  - name: a\n    requests: [{shape: {gpu: 1}, count: 1}]\n",
		"nothing.yaml":    "apiVersion: capplan/v1\nkind: Demand\napplications:\n  - name: a\n    selector: \"gpu=true\"\n",
		"broken.yaml":     "apiVersion: capplan/v1\nkind: Workload\njobs: [{name: x, tasks: [{id: t, duration: -1}]}]\n",
	})
	for name, change := range map[string]func(*PlanOptions){
		`resource "gpu" is not declared`:     func(o *PlanOptions) { o.Inputs.DemandPath = paths["undeclared.yaml"] },
		"no application can run on any node": func(o *PlanOptions) { o.Inputs.DemandPath = paths["nothing.yaml"] },
		"broken.yaml":                        func(o *PlanOptions) { o.WorkloadPath = paths["broken.yaml"] },
	} {
		oo := o
		change(&oo)
		if _, err := Plan(oo); err == nil || !strings.Contains(err.Error(), name) || IsOptionError(err) {
			t.Errorf("error %v, want one containing %q", err, name)
		}
	}
}
