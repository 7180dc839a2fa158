package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/internal/inputerr"
)

// The fuzz targets assert that the parsers never panic, that they return
// either a model or an *inputerr.Error whose problems all name the file,
// and that a model they return keeps its invariants (model_test.go) and
// survives a WriteYAML round trip.

func addSeeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

func checkOutcome(t *testing.T, ok bool, err error) {
	t.Helper()
	if ok == (err != nil) {
		t.Fatalf("got a model %v and an error %v", ok, err)
	}
	if err == nil {
		return
	}
	var ve *inputerr.Error
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		t.Fatalf("error %v is not an *inputerr.Error with problems", err)
	}
	for _, p := range ve.Problems {
		if p.File != "fuzz" || p.Msg == "" {
			t.Fatalf("malformed problem %+v", p)
		}
	}
	_ = err.Error()
}

func fuzzCluster(t *testing.T, data []byte) {
	c, err := ParseCluster("fuzz", data, LoadOptions{})
	checkOutcome(t, c != nil, err)
	if c == nil {
		return
	}
	if bad := clusterInvariant(c); bad != "" {
		t.Fatalf("accepted a broken cluster: %s", bad)
	}
	back := roundTrip(t, "fuzz", c, parseClusterDefault, clusterInvariant)
	kubectl := len(c.Groups) > 0 && c.Groups[0].Members != nil
	if c.NumNodes() <= 10000 {
		if diff := nodesDiff(c.Nodes(), back.Nodes(), kubectl); diff != "" {
			t.Fatalf("round trip changed the nodes: %s", diff)
		}
	}
}

func FuzzParseCluster(f *testing.F) {
	addSeeds(f, "examples/cluster.yaml", "testdata/*-cluster.yaml")
	f.Add([]byte(checkCluster))
	f.Add([]byte(clusterHead + "nodes: [{name: a, count: 2, racks: [r1, r2], labels: {rack: x}, capacity: {cpu: 100m, memory: 1.5Gi}}]\n"))
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "Cluster", "resources": ["cpu"], "nodes": [{"name": "a", "count": 1, "capacity": {"cpu": 1e3}}]}`))
	f.Fuzz(fuzzCluster)
}

func FuzzParseKubectl(f *testing.F) {
	addSeeds(f, "testdata/kubectl-nodes.json")
	f.Add([]byte(`{"apiVersion": "v1", "kind": "NodeList", "items": [{"metadata": {"name": "n", "labels": {"rack": "r1"}}, "status": {"capacity": {"cpu": "2", "memory": "1Gi", "example.com/fpga": "1", "hugepages-2Mi": "0"}}}]}`))
	f.Add([]byte(`{"apiVersion": "v1", "kind": "List", "items": [{"kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "0"}}}, {"kind": "Node", "metadata": {"name": "b"}, "status": {"allocatable": {"memory": "-1"}}}]}`))
	f.Fuzz(fuzzCluster)
}

func FuzzParseDemand(f *testing.F) {
	addSeeds(f, "examples/demand.yaml", "testdata/*-demand.yaml")
	f.Add([]byte(demandHead + "- {name: a, weight: 2.25, maxMachines: 3, selector: 'zone in (a,b),!spot', minCapacity: {memory: 1Gi}, sharing: {bound: 0.5}, requests: [{shape: {cpu: 1}, count: 2, duration: 1.5}]}\n"))
	f.Add([]byte(`{"apiVersion": "capplan/v1", "kind": "Demand", "applications": [{"name": "a", "weight": 0.1}, {"name": "b", "sharing": {"alone": true}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDemand("fuzz", data)
		checkOutcome(t, d != nil, err)
		if d == nil {
			return
		}
		if bad := demandInvariant(d); bad != "" {
			t.Fatalf("accepted a broken demand: %s", bad)
		}
		back := roundTrip(t, "fuzz", d, ParseDemand, demandInvariant)
		for i := range d.Applications {
			a, b := &d.Applications[i], &back.Applications[i]
			if a.Weight.Cmp(b.Weight) != 0 || a.Selector.String() != b.Selector.String() {
				t.Fatalf("round trip changed application %q: weight %v→%v, selector %v→%v", a.Name, a.Weight, b.Weight, a.Selector, b.Selector)
			}
		}
	})
}

func FuzzParseWorkload(f *testing.F) {
	addSeeds(f, "examples/workload.yaml")
	f.Add([]byte(workloadHead + "- {name: j, tasks: [{id: 1, duration: 1, demand: {cpu: 1}}, {id: 2, duration: 1, demand: {cpu: 0}, after: [1]}]}\n"))
	f.Add([]byte(workloadHead + "- {name: j, stages: [{name: a, tasks: 2, duration: 1, demand: {cpu: 1}}, {name: b, tasks: 2, duration: 1, demand: {cpu: 1}, after: [a], edge: one-to-one}]}\n"))
	f.Add([]byte(workloadHead + "- {name: j, stages: [{name: a, tasks: 2, duration: 1, demand: {cpu: 1}, after: [b]}, {name: b, tasks: 2, duration: 1, demand: {cpu: 1}, after: [a]}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorkload("fuzz", data)
		checkOutcome(t, w != nil, err)
		if w == nil {
			return
		}
		if bad := workloadInvariant(w); bad != "" {
			t.Fatalf("accepted a broken workload: %s", bad)
		}
		roundTrip(t, "fuzz", w, ParseWorkload, workloadInvariant)
	})
}
