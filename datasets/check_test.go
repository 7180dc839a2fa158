package datasets

import (
	"testing"
)

// checkCluster has a zone-a group of small nodes and a zone-b group of big
// ones: cpu 8 / memory 32Gi and cpu 64 / memory 512Gi.
const checkCluster = clusterHead + `nodes:
  - {name: small, count: 4, racks: [r1, r2], labels: {zone: a}, capacity: {cpu: 8, memory: 32Gi}}
  - {name: big, count: 2, rack: r3, labels: {zone: b}, capacity: {cpu: 64, memory: 512Gi, gpu: 2}}
`

func TestCheckDemand(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(checkCluster))
	cases := []struct {
		name string
		apps string
		want []wantProblem
	}{
		{"all fine", `- {name: a, selector: "zone=a", requests: [{shape: {cpu: 8, memory: 32Gi}, count: 1}]}
- {name: b, minCapacity: {gpu: 1}, requests: [{shape: {gpu: 2}, count: 1}]}
- {name: r, selector: "rack=r2"}`, nil},
		{"minCapacity names an undeclared resource", `- {name: a, minCapacity: {gpus: 1}}`,
			[]wantProblem{{"applications[0].minCapacity.gpus", `resource "gpus" is not declared by cluster c.yaml (resources: cpu, memory, gpu); did you mean "gpu"?`}}},
		{"request shape names an undeclared resource", `- {name: a, requests: [{shape: {cpu: 1, disk: 1Gi}, count: 1}]}`,
			[]wantProblem{{"applications[0].requests[0].shape.disk", `resource "disk" is not declared`}}},
		{"selector matches no node", `- {name: a, selector: "zone=c"}`,
			[]wantProblem{{"applications[0].selector", `application "a" can run on no node: selector "zone=c" matches no node`}}},
		{"no matching node has enough memory", `- {name: a, selector: "zone=a", minCapacity: {cpu: 4, memory: 64Gi}}`,
			[]wantProblem{{"applications[0].minCapacity", `application "a" can run on no node: no node matching its selector has enough memory (needs 64Gi, largest is 32Gi)`}}},
		{"no node at all has enough", `- {name: a, minCapacity: {cpu: 128, gpu: 4}}`,
			[]wantProblem{{"applications[0].minCapacity", `no node has enough cpu (needs 128, largest is 64), gpu (needs 4, largest is 2)`}}},
		{"request fits none of the application's nodes", `- {name: a, selector: "zone=a", requests: [{shape: {cpu: 4}, count: 1}, {shape: {cpu: 16, memory: 8Gi}, count: 2}]}`,
			[]wantProblem{{"applications[0].requests[1].shape", `shape cpu=16, memory=8Gi fits no node application "a" may run on`}}},
		{"every problem at once", `- {name: a, selector: "zone=c", minCapacity: {tpu: 1}}
- {name: b, selector: "zone=b", minCapacity: {memory: 1Ti}}
- {name: c, requests: [{shape: {cpu: 65}, count: 1}, {shape: {fpga: 1}, count: 1}]}`,
			[]wantProblem{
				{"applications[0].minCapacity.tpu", "not declared"},
				{"applications[1].minCapacity", "needs 1Ti, largest is 512Gi"},
				{"applications[2].requests[0].shape", "fits no node"},
				{"applications[2].requests[1].shape.fpga", "not declared"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustDemand(t, "d.yaml", []byte(demandHead+tc.apps+"\n"))
			err := CheckDemand(c, d)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("CheckDemand: %v", err)
				}
				return
			}
			checkProblems(t, err, "d.yaml", tc.want)
		})
	}
}

// TestCheckDemandNotAtOnce: each minCapacity resource is on offer, but
// never on one node.
func TestCheckDemandNotAtOnce(t *testing.T) {
	// Two kinds of node, each with one of the two resources.
	split := mustCluster(t, "s.yaml", []byte(clusterHead+`nodes:
  - {name: cpu-heavy, count: 1, capacity: {cpu: 64, memory: 8Gi}}
  - {name: mem-heavy, count: 1, capacity: {cpu: 4, memory: 1Ti}}
`))
	d := mustDemand(t, "d.yaml", []byte(demandHead+"- {name: a, minCapacity: {cpu: 32, memory: 512Gi}}\n"))
	checkProblems(t, CheckDemand(split, d), "d.yaml", []wantProblem{
		{"applications[0].minCapacity", `application "a" can run on no node: no node has all of cpu=32, memory=512Gi at once`}})
}

func TestCheckWorkload(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(checkCluster))
	in := workloadHead + `- name: j
  stages:
    - {name: a, tasks: 1, duration: 1, demand: {cpu: 64, memory: 512Gi, gpu: 2}}
    - {name: b, tasks: 1, duration: 1, demand: {cpu: 1, disk: 10Gi}}
    - {name: c, tasks: 1, duration: 1, demand: {cpu: 8, memory: 600Gi}}
- name: k
  tasks:
    - {id: t, duration: 1, demand: {gpu: 3}}
    - {id: u, duration: 1, demand: {cpu: 0}}
`
	w, err := ParseWorkload("w.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	checkProblems(t, CheckWorkload(c, w), "w.yaml", []wantProblem{
		{"jobs[0].stages[1].demand.disk", `resource "disk" is not declared by cluster c.yaml`},
		{"jobs[0].stages[2].demand", "demand cpu=8, memory=600Gi fits no node of cluster c.yaml"},
		{"jobs[1].tasks[0].demand", "demand gpu=3 fits no node"},
	})
}
