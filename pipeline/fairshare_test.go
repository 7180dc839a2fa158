package pipeline

import (
	"errors"
	"slices"
	"testing"

	"github.com/capplan/capplan/plan"
)

// Two machine types: xa, 2 nodes in zone a; yb, 1 node in zone b.
const fsCluster = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu]
nodes:
  - {name: xa, count: 2, labels: {zone: a}, capacity: {cpu: 4}}
  - {name: yb, count: 1, labels: {zone: b}, capacity: {cpu: 4}}
`

func TestFairShare(t *testing.T) {
	for _, tc := range []struct {
		name   string
		demand string
		opts   FairShareOptions
		want   []float64 // machines per application, in demand order
	}{
		{
			// 3 machines, weights 1 and 2: levels equal at 1, so 1 and 2.
			name: "weighted", want: []float64{1, 2},
			demand: "applications:\n  - {name: a, weight: 1}\n  - {name: b, weight: 2}\n",
		},
		{
			// a may use only the 2 xa nodes, b all 3: equal levels 1.5 each
			// (a 1.5 of xa; b 0.5 of xa and yb whole).
			name: "constrained", want: []float64{1.5, 1.5},
			demand: "applications:\n  - {name: a, selector: zone=a}\n  - {name: b}\n",
		},
		{
			// The same with the iterative LP: its numbers, within 1e-9.
			name: "constrained lp", want: []float64{1.5, 1.5}, opts: FairShareOptions{Method: MethodLP},
			demand: "applications:\n  - {name: a, selector: zone=a}\n  - {name: b}\n",
		},
		{
			// Capped at 1 machine, a leaves 2 to b.
			name: "demand cap", want: []float64{1, 2},
			demand: "applications:\n  - {name: a, maxMachines: 1}\n  - {name: b}\n",
		},
		{
			// Whole machines, weights 1 and 1 on 3 machines: 1.5 each is
			// not integral; the leximin-optimal sorted vector is (1, 2),
			// whoever gets two (compared sorted).
			name: "integral", want: []float64{1, 2}, opts: FairShareOptions{Integral: true, PerNode: true},
			demand: "applications:\n  - {name: a}\n  - {name: b}\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeFiles(t, map[string]string{"c.yaml": fsCluster,
				"d.yaml": "apiVersion: capplan/v1\nkind: Demand\n" + tc.demand})
			o := tc.opts
			o.Inputs = Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
			o.Generator = "test"
			res, err := FairShare(o)
			if err != nil {
				t.Fatal(err)
			}
			doc := res.Doc
			var got []float64
			for _, s := range doc.Shares {
				got = append(got, s.Machines)
			}
			if o.Integral {
				slices.Sort(got)
			}
			if len(got) != len(tc.want) || !near(got[0], tc.want[0]) || !near(got[1], tc.want[1]) {
				t.Errorf("machines %v, want %v", got, tc.want)
			}
			if !doc.Certificate.Verified || doc.Kind != plan.KindFairShare || doc.Generator != "test" || len(doc.Inputs) != 2 {
				t.Errorf("certificate %+v, header %+v", doc.Certificate, doc.Header)
			}
			if (o.Method == MethodLP) != (doc.Certificate.LPMaxRelDiff != nil) || doc.Flags["method"] != doc.Method {
				t.Errorf("method %s, lp diff %v, flags %v", doc.Method, doc.Certificate.LPMaxRelDiff, doc.Flags)
			}
			if o.PerNode && len(doc.Nodes) != 3 {
				t.Errorf("%d nodes assigned, want 3", len(doc.Nodes))
			}
			if res.Stats.Machines != 3 || res.Stats.Applications != 2 {
				t.Errorf("stats %+v", res.Stats)
			}
		})
	}
}

func TestFairShareOptionErrors(t *testing.T) {
	ex := Inputs{Example: true}
	for name, o := range map[string]FairShareOptions{
		"unknown method":   {Inputs: ex, Method: "simplex"},
		"lp integral":      {Inputs: ex, Method: MethodLP, Integral: true},
		"backend for flow": {Inputs: ex, LPBackend: "simplex"},
		"unknown backend":  {Inputs: ex, Method: MethodLP, LPBackend: "cplex"},
	} {
		if _, err := FairShare(o); !IsOptionError(err) {
			t.Errorf("%s: error %v, want an option error", name, err)
		}
	}
	// A missing file is an input error, not an option error.
	_, err := FairShare(FairShareOptions{Inputs: Inputs{ClusterPath: "/nonexistent/c.yaml", DemandPath: "/nonexistent/d.yaml"}})
	if err == nil || IsOptionError(err) {
		t.Errorf("missing files: %v", err)
	}
	var oe *OptionError
	if errors.As(err, &oe) {
		t.Error("missing file reported as an option error")
	}
}

// The embedded example through the pipeline: eight applications, 240
// machines, every share with its level, the document's inputs naming the
// example files.
func TestFairShareExample(t *testing.T) {
	res, err := FairShare(FairShareOptions{Inputs: Inputs{Example: true}})
	if err != nil {
		t.Fatal(err)
	}
	doc := res.Doc
	// 96 + 48 + 32 + 16 + 48 nodes in cluster.yaml.
	if doc.Summary.Machines != 240 || len(doc.Shares) != 8 {
		t.Errorf("machines %d, shares %d", doc.Summary.Machines, len(doc.Shares))
	}
	paths := []string{doc.Inputs[0].Path, doc.Inputs[1].Path}
	if !slices.Equal(paths, []string{"example:cluster.yaml", "example:demand.yaml"}) {
		t.Errorf("inputs %v", paths)
	}
}
