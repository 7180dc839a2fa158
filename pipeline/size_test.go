package pipeline

import (
	"testing"

	"github.com/capplan/capplan/plan"
)

// Node groups std (4 cpu, 8Gi) and big (8 cpu, 16Gi); five requests of
// {2 cpu, 2Gi}: 10 cpu in all. Two fit a std node, four a big one.
const (
	sizeCluster = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: std, count: 10, capacity: {cpu: 4, memory: 8Gi}}
  - {name: big, count: 5, capacity: {cpu: 8, memory: 16Gi}}
`
	sizeDemand = `apiVersion: capplan/v1
kind: Demand
applications:
  - name: a
    requests: [{shape: {cpu: 2, memory: 2Gi}, count: 5}]
`
	// Two dimensions of capacity 10; two items (6, 4) and two (4, 6):
	// each pair fills a bin exactly, and the sizes sum to (20, 20).
	sizeVBP = "2\n10 10\n2\n6 4 2\n4 6 2\n"
)

func TestSize(t *testing.T) {
	files := writeFiles(t, map[string]string{"c.yaml": sizeCluster, "d.yaml": sizeDemand, "x.vbp": sizeVBP})
	in := Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
	for _, tc := range []struct {
		name  string
		opts  SizeOptions
		nodes int     // nodes used
		cost  float64 // mixed sizing only
	}{
		// ⌈5/2⌉ = 3 std nodes; the volume bound ⌈10/4⌉ = 3 proves it.
		{"one type", SizeOptions{Inputs: in, NodeTypes: "std"}, 3, 0},
		// ⌈5/4⌉ = 2 big nodes, and ⌈10/8⌉ = 2.
		{"one big type", SizeOptions{Inputs: in, NodeTypes: "big"}, 2, 0},
		// One big (4 requests, 1.5) and one std (1 request, 1) cost 2.5;
		// two big cost 3, three std 3: 2.5 is the cheapest mix.
		{"mixed", SizeOptions{Inputs: in, NodeTypes: "std=1,big=1.5"}, 2, 2.5},
		// (6,4)+(4,6) fill a bin twice: 2 bins, and (20,20)/10 = 2.
		{"vbp file", SizeOptions{VBPPath: files["x.vbp"]}, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.Seed = 1
			doc, err := Size(o)
			if err != nil {
				t.Fatal(err)
			}
			if doc.NodesUsed != tc.nodes || len(doc.Nodes) != tc.nodes || doc.Mode != "sizing" || doc.Kind != plan.KindPackingPlan {
				t.Fatalf("%d nodes used (%d listed), mode %s; want %d", doc.NodesUsed, len(doc.Nodes), doc.Mode, tc.nodes)
			}
			if tc.cost > 0 {
				if !near(doc.Cost, tc.cost) || doc.CostLowerBound > doc.Cost+1e-9 {
					t.Errorf("cost %v (lower bound %v, optimal %v), want %v", doc.Cost, doc.CostLowerBound, doc.Optimal, tc.cost)
				}
			} else if doc.LowerBound != tc.nodes || !doc.Optimal {
				t.Errorf("lower bound %d, optimal %v", doc.LowerBound, doc.Optimal)
			}
			if doc.Flags["minNodes"] != "true" || doc.Flags["nodeType"] != o.NodeTypes || len(doc.Inputs) == 0 {
				t.Errorf("flags %v, inputs %v", doc.Flags, doc.Inputs)
			}
		})
	}
}

func TestSizeOptionErrors(t *testing.T) {
	files := writeFiles(t, map[string]string{"c.yaml": sizeCluster, "d.yaml": sizeDemand})
	in := Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
	for _, nt := range []string{"", "nosuch", "std=-1", "std=x", "std,std", "std=1,nosuch=2"} {
		if _, err := Size(SizeOptions{Inputs: in, NodeTypes: nt}); !IsOptionError(err) {
			t.Errorf("--node-type %q: error %v, want an option error", nt, err)
		}
	}
}
