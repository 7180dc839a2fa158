package datasets

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestTolerates checks Kubernetes' taint/toleration semantics on the cases
// of the Kubernetes documentation ("Taints and Tolerations"): a node is
// allowed when each of its NoSchedule/NoExecute taints is tolerated.
func TestTolerates(t *testing.T) {
	cp := corev1.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule}
	gpu := corev1.Taint{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoExecute}
	soft := corev1.Taint{Key: "spot", Value: "true", Effect: corev1.TaintEffectPreferNoSchedule}
	level := corev1.Taint{Key: "level", Value: "5", Effect: corev1.TaintEffectNoSchedule}
	cases := []struct {
		name   string
		tols   []corev1.Toleration
		taints []corev1.Taint
		want   bool
	}{
		{"no taints", nil, nil, true},
		{"a PreferNoSchedule taint does not bind", nil, []corev1.Taint{soft}, true},
		{"untolerated NoSchedule", nil, []corev1.Taint{cp}, false},
		{"Exists on the key", []corev1.Toleration{{Key: cp.Key, Operator: corev1.TolerationOpExists}}, []corev1.Taint{cp}, true},
		{"Equal needs the value", []corev1.Toleration{{Key: "dedicated", Value: "cpu", Effect: corev1.TaintEffectNoExecute}}, []corev1.Taint{gpu}, false},
		{"Equal with the value", []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "gpu"}}, []corev1.Taint{gpu}, true},
		{"the effect must match when given", []corev1.Toleration{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}, []corev1.Taint{gpu}, false},
		{"an empty key with Exists tolerates everything", []corev1.Toleration{{Operator: corev1.TolerationOpExists}}, []corev1.Taint{cp, gpu}, true},
		{"each taint needs a toleration", []corev1.Toleration{{Key: cp.Key, Operator: corev1.TolerationOpExists}}, []corev1.Taint{cp, gpu}, false},
		// 5 < 7: Lt tolerates a taint value below its own
		{"Lt compares numbers", []corev1.Toleration{{Key: "level", Operator: corev1.TolerationOpLt, Value: "7"}}, []corev1.Taint{level}, true},
		{"Gt compares numbers", []corev1.Toleration{{Key: "level", Operator: corev1.TolerationOpGt, Value: "7"}}, []corev1.Taint{level}, false},
	}
	for _, tc := range cases {
		if got := tolerates(tc.tols, tc.taints); got != tc.want {
			t.Errorf("%s: tolerates = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReadTolerations(t *testing.T) {
	d := mustDemand(t, "d.yaml", []byte(`apiVersion: capplan/v1
kind: Demand
applications:
  - name: a
    tolerations:
      - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}
      - {key: dedicated, value: gpu}
`))
	if got := d.Applications[0].Tolerations; len(got) != 2 || got[0].Operator != corev1.TolerationOpExists || got[1].Value != "gpu" {
		t.Errorf("tolerations = %+v", got)
	}
	_, err := ParseDemand("d.yaml", []byte(`apiVersion: capplan/v1
kind: Demand
applications:
  - name: a
    tolerations:
      - {key: k, operator: Exists, value: v}
      - {operator: Equal, value: v}
      - {key: k, effect: Sometimes}
      - {key: k, colour: red}
      - {key: k, operator: Lt, value: ten}
      - {key: k, effect: NoSchedule, tolerationSeconds: 30}
`))
	checkProblems(t, err, "d.yaml", []wantProblem{
		{"applications[0].tolerations[0].value", "must be empty when operator is Exists"},
		{"applications[0].tolerations[1].operator", "a toleration without a key must have operator Exists"},
		{"applications[0].tolerations[2].effect", `unknown effect "Sometimes"`},
		{"applications[0].tolerations[3].colour", "unknown field: not part of a Kubernetes toleration"},
		{"applications[0].tolerations[4].value", "operator Lt compares numbers"},
		{"applications[0].tolerations[5].tolerationSeconds", "only a NoExecute toleration"},
	})
}

// TestKubectlInventory is issue 12's acceptance inventory (item 1): the
// example nodes.json has a control-plane node tainted NoSchedule, a
// cordoned m5.2xlarge, three worker instance types and
// attachable-volumes-aws-ebs in every allocatable.
func TestKubectlInventory(t *testing.T) {
	files := ExampleFiles()
	c, err := ParseCluster("nodes.json", files["nodes.json"], LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := mustDemand(t, "nodes-demand.yaml", files["nodes-demand.yaml"])
	// Only schedulable resources are dimensions: no pods, no
	// attachable-volumes-*, no hugepages-* of zero.
	if want := []string{"cpu", "memory", "ephemeral-storage"}; !slices.Equal(c.Resources, want) {
		t.Errorf("Resources = %v, want %v", c.Resources, want)
	}
	if want := []Exclusion{{"ip-10-0-3-23", "cordoned (spec.unschedulable)"}}; !slices.Equal(c.Excluded, want) {
		t.Errorf("Excluded = %v, want %v", c.Excluded, want)
	}
	// ip-10-0-1-21 and ip-10-0-2-22 differ by 8Ki of allocatable memory.
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "node group m5.2xlarge: its 2 nodes differ in allocatable (memory 31068712Ki to 31068720Ki)") {
		t.Errorf("Notes = %q", c.Notes)
	}
	if err := CheckDemand(c, d); err != nil {
		t.Fatal(err)
	}
	s := Schedulable(c, d)
	if want := []Exclusion{{"ip-10-0-3-23", "cordoned (spec.unschedulable)"},
		{"ip-10-0-1-10", "taint node-role.kubernetes.io/control-plane:NoSchedule, which no application tolerates"}}; !slices.Equal(s.Excluded, want) {
		t.Errorf("Excluded = %v, want %v", s.Excluded, want)
	}
	if len(c.Groups) != 4 {
		t.Errorf("Schedulable changed its input: %d groups", len(c.Groups))
	}
	inst, err := Coalesce(s, d)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var nodes int64
	for _, mt := range inst.Types {
		names = append(names, mt.Name)
		nodes += mt.Count
	}
	if want := []string{"m5.2xlarge", "r5.2xlarge", "c5.4xlarge"}; !slices.Equal(names, want) || nodes != 7 {
		t.Errorf("types %v with %d nodes, want %v with 7", names, nodes, want)
	}
	// An application that tolerates the control-plane taint brings the
	// node back, as a type only it may use.
	tol := mustDemand(t, "d.yaml", []byte(`apiVersion: capplan/v1
kind: Demand
applications:
  - {name: web}
  - name: monitoring
    tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]
`))
	s = Schedulable(c, tol)
	if len(s.Excluded) != 1 || len(s.Groups) != 4 {
		t.Errorf("with a toleration: %d groups, excluded %v", len(s.Groups), s.Excluded)
	}
	inst, err = Coalesce(s, tol)
	if err != nil {
		t.Fatal(err)
	}
	if cp := inst.Types[0]; cp.Name != "m5.xlarge" || !slices.Equal(inst.Applications[0].Types, []int{1, 2, 3}) || !slices.Equal(inst.Applications[1].Types, []int{0, 1, 2, 3}) {
		t.Errorf("types %v; web %v, monitoring %v", cp.Name, inst.Applications[0].Types, inst.Applications[1].Types)
	}
	// The simulator keeps a tainted node only when every application
	// tolerates it.
	if all := SchedulableByAll(c, tol); len(all.Groups) != 3 || !strings.Contains(all.Excluded[1].Reason, "not every application tolerates") {
		t.Errorf("SchedulableByAll: %d groups, excluded %v", len(all.Groups), all.Excluded)
	}
}

func TestTaintExplainsIneligibility(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(clusterHead+"nodes: [{name: gpu, count: 2, labels: {gpu: \"true\"}, taints: [{key: dedicated, value: gpu, effect: NoSchedule}], capacity: {cpu: 8}}]\n"))
	d := mustDemand(t, "d.yaml", []byte("apiVersion: capplan/v1\nkind: Demand\napplications: [{name: ml, selector: gpu=true}]\n"))
	checkProblems(t, CheckDemand(c, d), "d.yaml", []wantProblem{{"applications[0].tolerations",
		`application "ml" can run on no node: every node matching its selector has a taint it does not tolerate (e.g. dedicated=gpu:NoSchedule)`}})
}
