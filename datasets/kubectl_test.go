package datasets

import (
	"slices"
	"testing"
)

func TestParseKubectlNodes(t *testing.T) {
	c, err := LoadCluster("testdata/kubectl-nodes.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// cpu and memory first, then the other schedulable resources sorted;
	// pods and hugepages-* of zero are left out.
	if want := []string{"cpu", "memory", "ephemeral-storage", "nvidia.com/gpu"}; !slices.Equal(c.Resources, want) {
		t.Errorf("Resources = %v, want %v", c.Resources, want)
	}
	nodes := c.Nodes()
	cases := []struct {
		name, group, rack string
		milli             []int64
	}{
		// allocatable wins over capacity: 7910m cores, 31068720Ki bytes,
		// 93478772582 bytes of ephemeral storage
		{"node-a1", "m5.2xlarge", "r1", []int64{7910, 31068720 * 1024 * 1000, 93478772582 * 1000, 0}},
		{"node-a2", "m5.2xlarge", "r1", []int64{7910, 31068720 * 1024 * 1000, 93478772582 * 1000, 0}},
		{"node-b1", "m5.2xlarge", "r2", []int64{7910, 31068720 * 1024 * 1000, 93478772582 * 1000, 0}},
		{"gpu-b1", "g4dn.4xlarge", "r2", []int64{15890, 63626256 * 1024 * 1000, 93478772582 * 1000, 4000}},
		// no allocatable: capacity; no rack label: no rack; no instance
		// type: the group is named after the node
		{"edge-c1", "edge-c1", "", []int64{4000, 16 << 30 * 1000, 0, 0}},
	}
	if len(nodes) != len(cases) {
		t.Fatalf("got %d nodes, want %d", len(nodes), len(cases))
	}
	for i, tc := range cases {
		n := nodes[i]
		if n.Name != tc.name || n.Group != tc.group || n.Rack != tc.rack || !slices.Equal(n.Capacity.Milli(), tc.milli) {
			t.Errorf("node %d = {%s %s %s %v}, want {%s %s %s %v}", i, n.Name, n.Group, n.Rack, n.Capacity.Milli(), tc.name, tc.group, tc.rack, tc.milli)
		}
	}
	if got := nodes[0].Labels["node.kubernetes.io/instance-type"]; got != "m5.2xlarge" {
		t.Errorf("labels not read: instance-type = %q", got)
	}
	// Per-node labels stay the node's own: the hostname differs.
	if nodes[0].Labels["kubernetes.io/hostname"] != "node-a1" || nodes[1].Labels["kubernetes.io/hostname"] != "node-a2" {
		t.Errorf("hostname labels %q, %q", nodes[0].Labels["kubernetes.io/hostname"], nodes[1].Labels["kubernetes.io/hostname"])
	}
	if g := c.Groups[0]; g.Count != 3 || g.Labels["kubernetes.io/hostname"] != "" || g.Labels["node.kubernetes.io/instance-type"] != "m5.2xlarge" {
		t.Errorf("group %s: count %d, common labels %v", g.Name, g.Count, g.Labels)
	}
}

func TestParseKubectlRackLabel(t *testing.T) {
	c, err := ParseCluster("nodes.json", readFixture(t, "kubectl-nodes.json"), LoadOptions{RackLabel: "topology.kubernetes.io/zone"})
	if err != nil {
		t.Fatal(err)
	}
	nodes := c.Nodes()
	// The zone becomes the rack; the nodes' own "rack" label stays.
	if nodes[0].Rack != "eu-west-1a" || nodes[4].Rack != "eu-west-1c" || nodes[0].Labels[RackLabel] != "r1" {
		t.Errorf("racks %q, %q, rack label %q", nodes[0].Rack, nodes[4].Rack, nodes[0].Labels[RackLabel])
	}
	// edge-c1 has no "rack" label, so its rack is exposed under it.
	if nodes[4].Labels[RackLabel] != "eu-west-1c" {
		t.Errorf("edge-c1 rack label = %q", nodes[4].Labels[RackLabel])
	}
}

// TestKubectlCoalescing: node-a1 and node-a2 are identical apart from
// their hostname; node-b1 differs from them only by zone and rack; all
// three are m5.2xlarge.
func TestKubectlCoalescing(t *testing.T) {
	c, err := LoadCluster("testdata/kubectl-nodes.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		demand string
		types  [][]string // nodes of each type
		names  []string
	}{
		{"no constraint: the instance type is one machine type",
			"[{name: all}]",
			[][]string{{"node-a1", "node-a2", "node-b1"}, {"gpu-b1"}, {"edge-c1"}},
			[]string{"m5.2xlarge", "g4dn.4xlarge", "edge-c1"}},
		{"a zone constraint splits b1 off",
			`[{name: all}, {name: zone-a, selector: "topology.kubernetes.io/zone=eu-west-1a"}]`,
			[][]string{{"node-a1", "node-a2"}, {"node-b1"}, {"gpu-b1"}, {"edge-c1"}},
			[]string{"m5.2xlarge", "m5.2xlarge-2", "g4dn.4xlarge", "edge-c1"}},
		{"a hostname constraint splits the identical twins",
			`[{name: all}, {name: pinned, selector: "kubernetes.io/hostname=node-a2"}]`,
			[][]string{{"node-a1", "node-b1"}, {"node-a2"}, {"gpu-b1"}, {"edge-c1"}},
			[]string{"m5.2xlarge", "m5.2xlarge-2", "g4dn.4xlarge", "edge-c1"}},
		{"the same constraint on both twins keeps them together",
			`[{name: all}, {name: m5, selector: "node.kubernetes.io/instance-type=m5.2xlarge,rack=r1"}]`,
			[][]string{{"node-a1", "node-a2"}, {"node-b1"}, {"gpu-b1"}, {"edge-c1"}},
			[]string{"m5.2xlarge", "m5.2xlarge-2", "g4dn.4xlarge", "edge-c1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustDemand(t, "d.yaml", []byte("apiVersion: capplan/v1\nkind: Demand\napplications: "+tc.demand+"\n"))
			inst, err := Coalesce(c, d)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			var names []string
			for _, mt := range inst.Types {
				got = append(got, mt.Nodes)
				names = append(names, mt.Name)
			}
			if !slices.EqualFunc(got, tc.types, slices.Equal) {
				t.Errorf("types = %v, want %v", got, tc.types)
			}
			if !slices.Equal(names, tc.names) {
				t.Errorf("type names = %v, want %v", names, tc.names)
			}
		})
	}
}

func TestParseKubectlRejects(t *testing.T) {
	const head = `{"apiVersion": "v1", "kind": "List", "items": [`
	node := func(name, alloc string) string {
		return `{"kind": "Node", "metadata": {"name": "` + name + `", "labels": {"rack": "r1"}}, "status": {"allocatable": ` + alloc + `}}`
	}
	cases := []struct {
		name string
		in   string
		want []wantProblem
	}{
		{"no items field", `{"apiVersion": "v1", "kind": "NodeList"}`, []wantProblem{{"items", "missing required field"}}},
		{"no nodes", head + `]}`, []wantProblem{{"items", "the node list has no nodes"}}},
		{"a pod in the list", head + `{"kind": "Pod", "metadata": {"name": "p"}}]}`, []wantProblem{{"items[0].kind", `got "Pod", want Node`}}},
		{"node without a name", head + `{"kind": "Node", "metadata": {}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items[0].metadata.name", "missing required field"}}},
		{"node without metadata or status", head + `{"kind": "Node"}]}`,
			[]wantProblem{{"items[0].metadata.name", "missing required field"}, {"items[0].status", "has neither allocatable nor capacity"}}},
		{"status without capacity", head + `{"metadata": {"name": "n"}, "status": {"phase": "Running"}}]}`,
			[]wantProblem{{"items[0].status", "has neither allocatable nor capacity"}}},
		{"nothing allocatable", head + node("n1", `{"cpu": "0", "pods": "110"}`) + `]}`,
			[]wantProblem{{"items[0].status.allocatable", "gives no schedulable resource"}}},
		{"duplicate node names", head + node("n1", `{"cpu": "1"}`) + "," + node("n1", `{"cpu": "2"}`) + `]}`,
			[]wantProblem{{"items[1].metadata.name", `duplicate node name "n1" (also items[0])`}}},
		{"bad quantities", head + node("n1", `{"cpu": "-1", "memory": "lots", "pods": "many"}`) + `]}`,
			[]wantProblem{{"items[0].status.allocatable.cpu", "must not be negative"}, {"items[0].status.allocatable.memory", `invalid quantity "lots"`},
				{"items[0].status.allocatable.pods", `invalid quantity "many"`}}},
		{"bad label", head + `{"metadata": {"name": "n", "labels": {"zone": "a b"}}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items[0].metadata.labels.zone", "invalid label value"}}},
		// Strict decoding into k8s.io/api's Node: a field a Node does not
		// have, a value of the wrong type.
		{"unknown node field", head + `{"metadata": {"name": "n", "colour": "red"}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items[0].metadata.colour", "unknown field: not part of a Kubernetes Node"}}},
		{"wrong type", head + `{"metadata": {"name": "n"}, "spec": {"unschedulable": "yes"}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items[0].spec.unschedulable", "must be true or false, got a string"}}},
		{"bad taint effect", head + `{"metadata": {"name": "n"}, "spec": {"taints": [{"key": "k", "effect": "Never"}]}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items[0].spec.taints[0].effect", `unknown taint effect "Never"`}}},
		{"every node cordoned", head + `{"metadata": {"name": "n"}, "spec": {"unschedulable": true}, "status": {"capacity": {"cpu": "1"}}}]}`,
			[]wantProblem{{"items", "no schedulable node: its only node is cordoned"}}},
		{"every problem of a file", head + node("n1", `{"cpu": "x"}`) + `, {"kind": "Service"}, ` + node("n1", `{"cpu": "1"}`) + `]}`,
			[]wantProblem{{"items[0].status.allocatable.cpu", "invalid quantity"}, {"items[1].kind", "want Node"}, {"items[2].metadata.name", "duplicate node name"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCluster("nodes.json", []byte(tc.in), LoadOptions{})
			checkProblems(t, err, "nodes.json", tc.want)
		})
	}
}

func TestKubectlListIsNotADemand(t *testing.T) {
	_, err := ParseDemand("nodes.json", readFixture(t, "kubectl-nodes.json"))
	checkProblems(t, err, "nodes.json", []wantProblem{{"kind", "got a kubectl List, want kind: Demand"}})
}
