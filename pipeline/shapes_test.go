package pipeline

import (
	"testing"
	"time"

	"github.com/capplan/capplan/plan"
)

// Ten nodes of 8 cpu and 32Gi: the catalog's cost unit is the cluster's
// aggregate 80 cpu and 320Gi. Ten requests each of 1, 2 and 4 cpu with as
// many Gi, whose sum costs c/80 + m/320:
//
//	{1, 1Gi}: 0.0125 + 0.003125 = 0.015625
//	{2, 2Gi}: 0.025  + 0.00625  = 0.03125
//	{4, 4Gi}: 0.05   + 0.0125   = 0.0625
const (
	shapesCluster = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: node, count: 10, capacity: {cpu: 8, memory: 32Gi}}
`
	shapesDemand = `apiVersion: capplan/v1
kind: Demand
applications:
  - name: a
    requests:
      - {shape: {cpu: 1, memory: 1Gi}, count: 10}
      - {shape: {cpu: 2, memory: 2Gi}, count: 10}
      - {shape: {cpu: 4, memory: 4Gi}, count: 10}
`
)

func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     ShapesOptions
		wantCost float64
		// wantCPU lists the shapes' cpu, cheapest first.
		wantCPU []float64
		optimal bool
	}{
		// K = 3: every request its own shape, no waste:
		// 10·(0.015625 + 0.03125 + 0.0625) = 1.09375.
		{"exact K=3", ShapesOptions{K: 3, Method: ShapesExact}, 1.09375, []float64{1, 2, 4}, true},
		// K = 2: {4,4Gi} must be there; the other shape best covers
		// {1,1Gi} and {2,2Gi} as {2,2Gi}: 20·0.03125 + 10·0.0625 = 1.25
		// (against 10·0.015625 + 20·0.0625 = 1.40625 with {1,1Gi}).
		{"exact K=2", ShapesOptions{K: 2, Method: ShapesExact}, 1.25, []float64{2, 4}, true},
		{"ptas K=2", ShapesOptions{K: 2}, 1.25, []float64{2, 4}, false},
		{"local K=2", ShapesOptions{K: 2, Method: ShapesLocal}, 1.25, []float64{2, 4}, false},
		// K = 1: {4,4Gi} for all 30: 30·0.0625 = 1.875.
		{"exact K=1", ShapesOptions{K: 1, Method: ShapesExact}, 1.875, []float64{4}, true},
		// Max cost, max(c/80, m/320): 0.0125, 0.025, 0.05; K = 2:
		// 20·0.025 + 10·0.05 = 1.
		{"maxdp K=2", ShapesOptions{K: 2, Cost: "max"}, 1, []float64{2, 4}, true},
		// Rounded up to 4 cpu: {2,2Gi} becomes {4,2Gi}, costing 0.05 +
		// 0.00625 = 0.05625: 20·0.05625 + 10·0.0625 = 1.75.
		{"rounded", ShapesOptions{K: 2, Method: ShapesExact, Round: "cpu=4"}, 1.75, []float64{4, 4}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeFiles(t, map[string]string{"c.yaml": shapesCluster, "d.yaml": shapesDemand})
			o := tc.opts
			o.Inputs = Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
			o.Eps, o.Seed = 0.1, 1
			res, err := Shapes(o)
			if err != nil {
				t.Fatal(err)
			}
			doc := res.Doc
			if !near(doc.Cost, tc.wantCost) || len(doc.Shapes) != len(tc.wantCPU) || (tc.optimal && !doc.Optimal) {
				t.Fatalf("cost %v with %d shapes (optimal %v), want %v with %d", doc.Cost, len(doc.Shapes), doc.Optimal, tc.wantCost, len(tc.wantCPU))
			}
			for i, cpu := range tc.wantCPU {
				if doc.Shapes[i].Size["cpu"] != cpu {
					t.Errorf("shape %d: %v, want cpu %v", i, doc.Shapes[i].Size, cpu)
				}
			}
			if doc.LowerBound > doc.Cost+1e-12 || doc.Kind != plan.KindShapeCatalog || len(doc.Assignments) != 3 {
				t.Errorf("lower bound %v, kind %s, %d assignments", doc.LowerBound, doc.Kind, len(doc.Assignments))
			}
			if searches := doc.Method == ShapesPTAS || doc.Method == ShapesLocal; searches != (doc.Search != nil) {
				t.Errorf("method %s with search %+v", doc.Method, doc.Search)
			}
			if res.Stats.Requests != 3 || res.Stats.Dims != 2 || res.Stats.NodeTypes != 1 {
				t.Errorf("stats %+v", res.Stats)
			}
		})
	}
}

// The PTAS counts its work in DP states; a time limit that does not bind
// is recorded but changes nothing else, and the catalog says it did not
// cut the search.
func TestShapesSearchRecord(t *testing.T) {
	files := writeFiles(t, map[string]string{"c.yaml": shapesCluster, "d.yaml": shapesDemand})
	in := Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
	free, err := Shapes(ShapesOptions{Inputs: in, K: 2, Eps: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	limited, err := Shapes(ShapesOptions{Inputs: in, K: 2, Eps: 0.1, TimeLimit: time.Hour, MaxWork: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s := limited.Doc.Search
	if s == nil || s.WorkUsed <= 0 || s.WorkUsed != free.Doc.Search.WorkUsed || s.TimeLimit != 3600 || s.CutByTimeLimit || s.WorkBudget != 1<<20 {
		t.Fatalf("search %+v (free run %+v)", s, free.Doc.Search)
	}
	if limited.Doc.Flags["timeLimit"] != "1h0m0s" || limited.Doc.Flags["budget"] != "1048576" || free.Doc.Flags["budget"] != "" {
		t.Errorf("flags %v / %v", limited.Doc.Flags, free.Doc.Flags)
	}
	if limited.Doc.Cost != free.Doc.Cost || limited.Doc.Epsilon != free.Doc.Epsilon {
		t.Errorf("cost %v ε %v, without limits %v ε %v", limited.Doc.Cost, limited.Doc.Epsilon, free.Doc.Cost, free.Doc.Epsilon)
	}
}

func TestShapesOptionErrors(t *testing.T) {
	files := writeFiles(t, map[string]string{"c.yaml": shapesCluster, "d.yaml": shapesDemand})
	in := Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
	for name, o := range map[string]ShapesOptions{
		"no shapes":           {K: 0, Eps: 0.1},
		"eps above 1":         {K: 2, Eps: 2},
		"unknown cost":        {K: 2, Eps: 0.1, Cost: "median"},
		"maxdp for sum":       {K: 2, Eps: 0.1, Method: ShapesMaxDP},
		"ptas for max":        {K: 2, Eps: 0.1, Method: ShapesPTAS, Cost: "max"},
		"budget for exact":    {K: 2, Eps: 0.1, Method: ShapesExact, MaxWork: 10},
		"negative budget":     {K: 2, Eps: 0.1, MaxWork: -1},
		"rounding not a list": {K: 2, Eps: 0.1, Round: "cpu"},
		"rounding to zero":    {K: 2, Eps: 0.1, Round: "cpu=0"},
		"rounding unknown":    {K: 2, Eps: 0.1, Round: "disk=1"},
		"weight":              {K: 2, Eps: 0.1, WeightBy: "size"},
	} {
		o.Inputs = in
		if _, err := Shapes(o); !IsOptionError(err) {
			t.Errorf("%s: error %v, want an option error", name, err)
		}
	}
}
