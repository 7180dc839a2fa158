package datasets

import (
	"strings"
	"testing"
)

// feasibleCluster: 2 std nodes (8 cores, 32Gi) and 1 big node (32 cores,
// 128Gi, tier=big).
const feasibleCluster = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: std, count: 2, capacity: {cpu: 8, memory: 32Gi}}
  - {name: big, count: 1, labels: {tier: big}, capacity: {cpu: 32, memory: 128Gi}}
`

func TestFeasibleDemand(t *testing.T) {
	c, err := ParseCluster("c.yaml", []byte(feasibleCluster), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		demand string
		keep   string // application:requests kept, in order
		want   []wantProblem
		err    string
	}{
		{"all feasible", `
  - {name: a, requests: [{shape: {cpu: 1}, count: 3}]}
  - {name: b, selector: "tier=big", requests: [{shape: {cpu: 32}, count: 1}]}`, "a:1 b:1", nil, ""},
		{"a request larger than every eligible node", `
  - {name: a, requests: [{shape: {cpu: 1}, count: 3}, {shape: {cpu: 33}, count: 1}]}
  - {name: b, selector: "!tier", requests: [{shape: {cpu: 16}, count: 1}]}`, "a:1 b:0",
			[]wantProblem{{"applications[0].requests[1].shape", `fits no node application "a" may run on`},
				{"applications[1].requests[0].shape", `fits no node application "b" may run on`}}, ""},
		{"no eligible node, colocation and exlocation", `
  - {name: a, exlocateWith: [gpu], requests: [{shape: {cpu: 1}, count: 3}]}
  - {name: gpu, selector: "gpu=true", requests: [{shape: {cpu: 1}, count: 1}]}
  - {name: side, colocateWith: [gpu]}
  - {name: side2, colocateWith: [side]}
  - {name: mem, minCapacity: {memory: 1Ti}}`, "a:1",
			[]wantProblem{{"applications[1].selector", `application "gpu" can run on no node: selector "gpu=true" matches no node`},
				{"applications[4].minCapacity", `application "mem" can run on no node`},
				{"applications[2].colocateWith", `"side" may only run beside "gpu"`},
				{"applications[3].colocateWith", `"side2" may only run beside "side"`}}, ""},
		{"undeclared resource", `
  - {name: a, requests: [{shape: {gpu: 1}, count: 1}]}`, "", nil, `resource "gpu" is not declared`},
		{"nothing can run", `
  - {name: a, selector: "gpu=true"}`, "", nil, "no application can run on any node"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDemand("d.yaml", []byte("apiVersion: capplan/v1\nkind: Demand\napplications:"+tc.demand+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			before := len(d.Applications[0].Requests)
			got, problems, err := FeasibleDemand(c, d)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var keep []string
			for _, a := range got.Applications {
				keep = append(keep, a.Name+":"+string(rune('0'+len(a.Requests))))
				if a.Name == "a" && len(a.ExlocateWith) != 0 {
					t.Errorf("a keeps exlocateWith %v of an application left out", a.ExlocateWith)
				}
			}
			if strings.Join(keep, " ") != tc.keep {
				t.Errorf("kept %v, want %s", keep, tc.keep)
			}
			if len(problems) != len(tc.want) {
				t.Fatalf("problems %v, want %d", problems, len(tc.want))
			}
			for i, p := range problems {
				if p.File != "d.yaml" || p.Path != tc.want[i].path || !strings.Contains(p.Msg, tc.want[i].msg) {
					t.Errorf("problem %d: %s, want %s: …%s…", i, p, tc.want[i].path, tc.want[i].msg)
				}
			}
			if len(d.Applications[0].Requests) != before {
				t.Error("the input demand was changed")
			}
			// What is kept passes CheckDemand.
			if err := CheckDemand(c, got); err != nil {
				t.Errorf("the feasible part fails CheckDemand: %v", err)
			}
		})
	}
}
