package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// TestShapesRespectPlacementOpenB (issue 12, item 4): on the Alibaba GPU
// trace (capplan import openb), where most applications may run only on
// one GPU model, every shape a request is assigned fits a machine type its
// application may use, and ownership packing with K = 8 shapes reaches a λ
// within 10% of K = 16 (before: 0.034 against 0.55, since requests of a
// T4-only application went to shapes that fit no T4 node).
func TestShapesRespectPlacementOpenB(t *testing.T) {
	root := testdatasets.Need(t, "alibaba-gpu-v2023-openb")
	dir := t.TempDir()
	in := filepath.Join(dir, "openb")
	if code, _, stderr := runCapplan(t, "import", "openb", "--nodes", filepath.Join(root, "openb_node_list_all_node.csv"),
		"--pods", filepath.Join(root, "openb_pod_list_gpuspec33.csv"), in); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	clusterPath, demandPath := filepath.Join(in, "cluster.yaml"), filepath.Join(in, "demand.yaml")
	c, err := datasets.LoadCluster(clusterPath, datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.LoadDemand(demandPath)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		t.Fatal(err)
	}
	// usable[app] lists the capacities (base units, in resource order) of
	// the machine types the application may use.
	usable := map[string][][]float64{}
	constrained := 0
	for _, app := range inst.Applications {
		for _, ty := range app.Types {
			usable[app.Name] = append(usable[app.Name], inst.Types[ty].Capacity.Base())
		}
		if len(app.Types) < len(inst.Types) {
			constrained++
		}
	}
	if constrained < 10 {
		t.Fatalf("only %d constrained applications: not the openb demand", constrained)
	}
	lambda := map[int]float64{}
	for _, k := range []int{8, 16} {
		cat := filepath.Join(dir, "catalog.json")
		if code, _, stderr := runCapplan(t, "shapes", "-c", clusterPath, "-d", demandPath, "-k", itoa(k), "-o", cat); code != exitOK {
			t.Fatalf("shapes -k %d: exit %d: %s", k, code, stderr)
		}
		var doc plan.ShapeCatalog
		data, err := os.ReadFile(cat)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		size := map[string][]float64{}
		for _, s := range doc.Shapes {
			v := make([]float64, len(c.Resources))
			for i, r := range c.Resources {
				v[i] = s.Size[r]
			}
			size[s.Name] = v
		}
		for _, as := range doc.Assignments {
			if binpack.FirstFit(size[as.Shape], usable[as.Application]) < 0 {
				t.Errorf("K=%d: %s's request %v is assigned shape %s %v, which fits no machine type it may use", k, as.Application, as.Request, as.Shape, size[as.Shape])
			}
		}
		if doc.LowerBound > doc.Cost || doc.Ratio < 1 {
			t.Errorf("K=%d: cost %v, lower bound %v", k, doc.Cost, doc.LowerBound)
		}
		code, out, stderr := runCapplan(t, "pack", "-c", clusterPath, "-d", demandPath, "--shapes", cat, "--json")
		if code != exitOK {
			t.Fatalf("pack with K=%d: exit %d: %s", k, code, stderr)
		}
		var pp plan.PackingPlan
		if err := json.Unmarshal([]byte(out), &pp); err != nil {
			t.Fatal(err)
		}
		if pp.Lambda > pp.LambdaUpperBound*(1+1e-9) {
			t.Errorf("K=%d: λ %v above its upper bound %v", k, pp.Lambda, pp.LambdaUpperBound)
		}
		lambda[k] = pp.Lambda
		t.Logf("K=%d: λ = %.4f (upper bound %.4f); %d shapes, cost %.4f (lower bound %.4f)", k, pp.Lambda, pp.LambdaUpperBound, len(doc.Shapes), doc.Cost, doc.LowerBound)
	}
	if lambda[8] < 0.9*lambda[16] {
		t.Errorf("λ at K=8 is %.4f, more than 10%% below λ at K=16 (%.4f)", lambda[8], lambda[16])
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
