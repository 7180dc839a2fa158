package datasets

import (
	"strings"
	"testing"
)

func TestParseClusterRejects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []wantProblem
	}{
		{"empty file", "", []wantProblem{{"", "file is empty"}}},
		{"only comments", "# nothing\n\n", []wantProblem{{"", "file is empty"}}},
		{"YAML syntax error", clusterHead + "nodes:\n  - name: a\n   count: 1\n", []wantProblem{{"line 5", "invalid YAML: did not find expected '-' indicator"}}},
		{"duplicate YAML key", clusterHead + "resources: [cpu]\nnodes: []\n", []wantProblem{{"line 4", "duplicate key"}}},
		{"JSON syntax error", "{\n\"apiVersion\": \"capplan/v1\",\n\"kind\": \"Cluster\",,\n}", []wantProblem{{"line 3", "invalid JSON"}}},
		{"JSON trailing data", `{"apiVersion": "capplan/v1", "kind": "Cluster"} {}`, []wantProblem{{"line 1", "unexpected content after the JSON document"}}},
		{"two YAML documents", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n---\n" + clusterHead, []wantProblem{{"", "more than one YAML document"}}},
		{"not a mapping", "- a\n- b\n", []wantProblem{{"", "must be a mapping with apiVersion and kind, got a list"}}},
		{"missing apiVersion", "kind: Cluster\nresources: [cpu]\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"apiVersion", "missing required field; want capplan/v1"}}},
		{"wrong apiVersion", "apiVersion: capplan/v2\nkind: Cluster\nresources: [cpu]\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"apiVersion", `got the string "capplan/v2", want capplan/v1`}}},
		{"missing kind (the rest is still checked)", "apiVersion: capplan/v1\nresources: [cpu]\nnodes: [{name: a, count: 0, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"kind", `missing required field; want Cluster`}, {"nodes[0].count", "node group \"a\" must have at least 1 node, got 0"}}},
		{"wrong kind", "apiVersion: capplan/v1\nkind: Demand\napplications: []\n", []wantProblem{{"kind", `got "Demand", want "Cluster"`}}},
		{"kind not a string", "apiVersion: capplan/v1\nkind: 3\nresources: [cpu]\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"kind", "must be a string, got the number 3"}}},
		{"unknown top-level field and missing nodes", clusterHead + "nodess: []\n",
			[]wantProblem{{"nodess", `unknown field; did you mean "nodes"?`}, {"nodes", "missing required field"}}},
		{"missing resources", "apiVersion: capplan/v1\nkind: Cluster\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"resources", "missing required field"}}},
		{"resources not a list", "apiVersion: capplan/v1\nkind: Cluster\nresources: cpu\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"resources", `must be a list, got the string "cpu"`}}},
		{"resources empty", "apiVersion: capplan/v1\nkind: Cluster\nresources: []\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"resources", "list at least one resource"}}},
		{"resource names: duplicate, empty, invalid, not a string", "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory, cpu, '', 'a b', 7]\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"resources[5]", `must be a string, got the number 7 (quote it: "7")`}}},
		{"resource names: duplicate, empty, invalid", "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory, cpu, '', 'a b']\nnodes: [{name: a, count: 1, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"resources[2]", `duplicate resource "cpu" (also resources[0])`}, {"resources[3]", "resource name must not be empty"}, {"resources[4]", `invalid resource name "a b"`}}},
		{"nodes empty", clusterHead + "nodes: []\n", []wantProblem{{"nodes", "the cluster has no node groups"}}},
		{"nodes not a list", clusterHead + "nodes: {name: a}\n", []wantProblem{{"nodes", "must be a list, got a mapping"}}},
		{"group not a mapping", clusterHead + "nodes: [a]\n", []wantProblem{{"nodes[0]", `must be a mapping, got the string "a"`}}},
		{"group name missing", clusterHead + "nodes: [{count: 1, capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].name", "missing required field"}}},
		{"group name empty", clusterHead + "nodes: [{name: '', count: 1, capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].name", "must not be empty"}}},
		{"duplicate group names", clusterHead + "nodes:\n- {name: a, count: 1, capacity: {cpu: 1}}\n- {name: b, count: 1, capacity: {cpu: 1}}\n- {name: a, count: 2, capacity: {cpu: 1}}\n",
			[]wantProblem{{"nodes[2].name", `duplicate group name "a" (first used by nodes[0])`}}},
		{"count zero", clusterHead + "nodes: [{name: a, count: 0, capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].count", "node group \"a\" must have at least 1 node, got 0"}}},
		{"count negative", clusterHead + "nodes: [{name: a, count: -4, capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].count", "got -4"}}},
		{"count fractional", clusterHead + "nodes: [{name: a, count: 2.5, capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].count", "must be a whole number, got 2.5"}}},
		{"count quoted", clusterHead + "nodes: [{name: a, count: '3', capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].count", `must be a number, got the string "3" (remove the quotes)`}}},
		{"too many nodes in all", clusterHead + "nodes:\n- {name: a, count: 60000, capacity: {cpu: 1}}\n- {name: b, count: 60000, capacity: {cpu: 1}}\n",
			[]wantProblem{{"nodes", "120000 nodes in all; at most 100000"}}},
		{"rack and racks", clusterHead + "nodes: [{name: a, count: 1, rack: r1, racks: [r1, r2], capacity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].racks", "give rack or racks, not both"}}},
		{"racks empty", clusterHead + "nodes: [{name: a, count: 1, racks: [], capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].racks", "is empty"}}},
		{"rack invalid", clusterHead + "nodes: [{name: a, count: 1, racks: [r1, 'r 2'], capacity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].racks[1]", `invalid label value "r 2"`}}},
		{"rack empty", clusterHead + "nodes: [{name: a, count: 1, rack: '', capacity: {cpu: 1}}]\n", []wantProblem{{"nodes[0].rack", "must not be empty"}}},
		{"label key invalid", clusterHead + "nodes: [{name: a, count: 1, labels: {-bad: x}, capacity: {cpu: 1}}]\n",
			[]wantProblem{{`nodes[0].labels["-bad"]`, `invalid label key "-bad"`}}},
		{"label value invalid", clusterHead + "nodes: [{name: a, count: 1, labels: {zone: 'a b'}, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].labels.zone", `invalid label value "a b"`}}},
		{"label value a YAML boolean", clusterHead + "nodes: [{name: a, count: 1, labels: {spot: yes}, capacity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].labels.spot", `label value must be a string, got true (quote it: "true")`}}},
		{"labels not a mapping", clusterHead + "nodes: [{name: a, count: 1, labels: [x], capacity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].labels", "must be a mapping, got a list"}}},
		{"capacity missing", clusterHead + "nodes: [{name: a, count: 1}]\n", []wantProblem{{"nodes[0].capacity", "missing required field"}}},
		{"capacity empty", clusterHead + "nodes: [{name: a, count: 1, capacity: {}}]\n", []wantProblem{{"nodes[0].capacity", "is empty"}}},
		{"capacity names an undeclared resource", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 1, gpus: 2}}]\n",
			[]wantProblem{{"nodes[0].capacity.gpus", `resource "gpus" is not declared in resources [cpu, memory, gpu]; did you mean "gpu"?`}}},
		{"capacity unparsable", clusterHead + "nodes: [{name: a, count: 1, capacity: {memory: 12GB}}]\n",
			[]wantProblem{{"nodes[0].capacity.memory", `invalid quantity "12GB"`}}},
		{"capacity negative", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: -2}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", "must not be negative, got -2"}}},
		{"capacity zero", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 1, gpu: 0}}]\n",
			[]wantProblem{{"nodes[0].capacity.gpu", "must be > 0, got 0"}}},
		{"capacity overflows int64 milli-units", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 1, memory: 10Ei}}]\n",
			[]wantProblem{{"nodes[0].capacity.memory", "too large: its milli-value overflows int64"}}},
		{"capacity at int64 max base units overflows in milli-units", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 9223372036854775807}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", "too large"}}},
		{"capacity finer than 1m", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: 100u}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", "finer than 1m"}}},
		{"capacity with a huge exponent", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: '1e-9999999'}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", `quantity "1e-9999999" has an exponent outside ±30`}}},
		{"capacity text too long", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: '" + strings.Repeat("1", 41) + "'}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", "is too long (at most 40 characters)"}}},
		{"capacity not a quantity", clusterHead + "nodes: [{name: a, count: 1, capacity: {cpu: [1]}}]\n",
			[]wantProblem{{"nodes[0].capacity.cpu", "must be a quantity such as 64Gi, 500m or 8, got a list"}}},
		{"unknown group field", clusterHead + "nodes: [{name: a, count: 1, capcity: {cpu: 1}}]\n",
			[]wantProblem{{"nodes[0].capcity", `unknown field; did you mean "capacity"?`}, {"nodes[0].capacity", "missing required field"}}},
		{"every problem of a file", clusterHead + `nodes:
  - {name: std, count: 0, capacity: {cpu: 32, memory: 128GB}}
  - {name: gpu, count: 2, labels: {gpu: true}, capacity: {cpu: 8, gpus: 1}}
  - {name: std, count: 1, rack: r1, racks: [r2], capacity: {cpu: -1}}
  - {name: '', count: 1, colour: blue, capacity: {cpu: 1}}
`, []wantProblem{
			{"nodes[0].count", "got 0"},
			{"nodes[0].capacity.memory", `invalid quantity "128GB"`},
			{"nodes[1].labels.gpu", `(quote it: "true")`},
			{"nodes[1].capacity.gpus", `not declared`},
			{"nodes[2].racks", "give rack or racks, not both"},
			{"nodes[2].capacity.cpu", "must not be negative"},
			{"nodes[2].name", `duplicate group name "std"`},
			{"nodes[3].colour", "unknown field"},
			{"nodes[3].name", "must not be empty"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCluster("c.yaml", []byte(tc.in), LoadOptions{})
			if c != nil {
				t.Errorf("got a cluster despite problems")
			}
			checkProblems(t, err, "c.yaml", tc.want)
		})
	}
}

// TestGroupCount (issue 12, item 2): a listed node group without count is
// one machine; a count of zero or below is an error naming the group.
func TestGroupCount(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(clusterHead+"nodes:\n- {name: solo, capacity: {cpu: 4}}\n- {name: pair, count: 2, capacity: {cpu: 8}}\n"))
	if got := []int{c.Groups[0].Count, c.Groups[1].Count}; got[0] != 1 || got[1] != 2 {
		t.Errorf("counts = %v, want [1 2]", got)
	}
	if n := c.NumNodes(); n != 3 {
		t.Errorf("NumNodes = %d, want 3", n)
	}
	for _, tc := range []struct{ count, want string }{
		{"0", `node group "g" must have at least 1 node, got 0`},
		{"-2", `node group "g" must have at least 1 node, got -2`},
	} {
		_, err := ParseCluster("c.yaml", []byte(clusterHead+"nodes: [{name: g, count: "+tc.count+", capacity: {cpu: 1}}]\n"), LoadOptions{})
		checkProblems(t, err, "c.yaml", []wantProblem{{"nodes[0].count", tc.want}})
	}
}
