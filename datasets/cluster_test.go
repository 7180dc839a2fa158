package datasets

import (
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/inputerr"
)

// clusterHead is the header of the cluster test inputs.
const clusterHead = "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory, gpu]\n"

func TestParseClusterModel(t *testing.T) {
	in := clusterHead + `nodes:
  - name: std
    count: 5
    racks: [r1, r2]
    labels: {zone: a}
    capacity: {cpu: 7910m, memory: 64Gi}
  - name: gpu
    count: 2
    rack: r9
    labels: {gpu: "true", rack: fixed}
    capacity: {cpu: 64, memory: 512Gi, gpu: 8}
  - {name: bare, count: 1, capacity: {cpu: 0.5}}
`
	c := mustCluster(t, "c.yaml", []byte(in))
	if c.Source != "c.yaml" || !slices.Equal(c.Resources, []string{"cpu", "memory", "gpu"}) {
		t.Fatalf("Source %q, Resources %v", c.Source, c.Resources)
	}
	nodes := c.Nodes()
	if len(nodes) != 8 || c.NumNodes() != 8 {
		t.Fatalf("got %d nodes (NumNodes %d), want 5+2+1 = 8", len(nodes), c.NumNodes())
	}
	cases := []struct {
		node              int
		name, group, rack string
		labels            string
		milli             []int64
	}{
		// racks are round-robin: std-0 r1, std-1 r2, std-2 r1, ...
		{0, "std-0", "std", "r1", "rack=r1,zone=a", []int64{7910, 64 << 30 * 1000, 0}},
		{3, "std-3", "std", "r2", "rack=r2,zone=a", []int64{7910, 64 << 30 * 1000, 0}},
		// a node's own rack label wins over its rack
		{6, "gpu-1", "gpu", "r9", "gpu=true,rack=fixed", []int64{64000, 512 << 30 * 1000, 8000}},
		// no rack: no rack label; cpu 0.5 = 500m
		{7, "bare-0", "bare", "", "", []int64{500, 0, 0}},
	}
	for _, tc := range cases {
		n := nodes[tc.node]
		if n.Name != tc.name || n.Group != tc.group || n.Rack != tc.rack || labelsText(n.Labels) != tc.labels || !slices.Equal(n.Capacity.Milli(), tc.milli) {
			t.Errorf("node %d = {%s %s %s %s %v}, want {%s %s %s %s %v}", tc.node, n.Name, n.Group, n.Rack, labelsText(n.Labels), n.Capacity.Milli(),
				tc.name, tc.group, tc.rack, tc.labels, tc.milli)
		}
	}
	if got := nodes[7].Capacity.Base(); !slices.Equal(got, []float64{0.5, 0, 0}) {
		t.Errorf("Base() = %v, want [0.5 0 0]", got)
	}
	if len(c.Groups[0].Labels) != 1 {
		t.Errorf("group labels gained the rack: %v", c.Groups[0].Labels)
	}
}

func TestParseClusterJSONEqualsYAML(t *testing.T) {
	yamlIn := clusterHead + "nodes: [{name: a, count: 2, racks: [r1, r2], labels: {k: v}, capacity: {cpu: 2.5, memory: 1Gi}}]\n"
	jsonIn := "{\n\t\"apiVersion\": \"capplan/v1\", \"kind\": \"Cluster\", \"resources\": [\"cpu\", \"memory\", \"gpu\"],\n" +
		"\t\"nodes\": [{\"name\": \"a\", \"count\": 2, \"racks\": [\"r1\", \"r2\"], \"labels\": {\"k\": \"v\"}, \"capacity\": {\"cpu\": 2.5, \"memory\": \"1Gi\"}}]\n}\n"
	y, _ := MarshalYAML(mustCluster(t, "c.yaml", []byte(yamlIn)))
	j, _ := MarshalYAML(mustCluster(t, "c.json", []byte(jsonIn)))
	if string(y) != string(j) {
		t.Errorf("YAML and JSON inputs differ:\n%s\nvs\n%s", y, j)
	}
}

func TestValidationErrorShortens(t *testing.T) {
	var in strings.Builder
	in.WriteString(clusterHead + "nodes:\n")
	for i := 0; i < 30; i++ {
		in.WriteString("  - {name: g" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ", count: 0, capacity: {cpu: 1}}\n")
	}
	_, err := ParseCluster("c.yaml", []byte(in.String()), LoadOptions{})
	ve, ok := err.(*inputerr.Error)
	if !ok || len(ve.Problems) != 30 {
		t.Fatalf("got %v, want 30 problems", err)
	}
	lines := strings.Split(err.Error(), "\n")
	// 20 problems, then "... and 10 more"
	if len(lines) != 21 || lines[20] != "... and 10 more" {
		t.Errorf("Error() has %d lines ending %q", len(lines), lines[len(lines)-1])
	}
	if lines[0] != "c.yaml: nodes[0].count: node group \"gaa\" must have at least 1 node, got 0 (leave count out for one node)" {
		t.Errorf("first line %q", lines[0])
	}
}

// labelsText renders labels as sorted k=v pairs.
func labelsText(l map[string]string) string {
	parts := make([]string, 0, len(l))
	for _, k := range sortedKeys(l) {
		parts = append(parts, k+"="+l[k])
	}
	return strings.Join(parts, ",")
}
