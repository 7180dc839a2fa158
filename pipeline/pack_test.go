package pipeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/capplan/capplan/plan"
)

// Two nodes of 4 cpu and 4Gi (the cluster totals 8 cpu and 8Gi), a
// catalog of s1 = {1, 1Gi} and s2 = {2, 2Gi}, normalised volumes
// |s1| = 1/8 + 1/8 = 0.25 and |s2| = 0.5. Application a forecasts four
// {1, 1Gi} requests (volume V_a = 4·0.25 = 1), b two {2, 2Gi} (V_b = 1).
const (
	packCluster = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu, memory]
nodes:
  - {name: node, count: 2, capacity: {cpu: 4, memory: 4Gi}}
`
	gib = 1 << 30
)

func packCatalog() *plan.ShapeCatalog {
	return &plan.ShapeCatalog{Shapes: []plan.Shape{
		{Name: "s1", Size: map[string]float64{"cpu": 1, "memory": gib}, Cost: 0.25},
		{Name: "s2", Size: map[string]float64{"cpu": 2, "memory": 2 * gib}, Cost: 0.5},
	}}
}

func packDemand(weightB int) string {
	return `apiVersion: capplan/v1
kind: Demand
applications:
  - name: a
    requests: [{shape: {cpu: 1, memory: 1Gi}, count: 4}]
  - name: b
    weight: ` + strconv.Itoa(weightB) + `
    requests: [{shape: {cpu: 2, memory: 2Gi}, count: 2}]
`
}

func TestPack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shares  string
		weightB int
		// target shares and containers packed, a then b.
		share  [2]float64
		packed [2]int
	}{
		// Fair shares: 2 machines, weights 1 and 1, a machine each, volume
		// 1·(4/8 + 4/8) = 1 each: σ = ½, ½. Mixes m_a,s1 = σ·V·n/V_a =
		// ½·2·4/1 = 4 and m_b,s2 = ½·2·2/1 = 2. λ = 1 needs 4 s1 and 2 s2,
		// 8 cpu and 8Gi: the whole cluster, so λ = 1 = its fluid bound.
		{"fair", plan.SharesFair, 1, [2]float64{0.5, 0.5}, [2]int{4, 2}},
		// Forecast shares V_a/V, V_b/V = ½, ½: the same plan.
		{"forecast", plan.SharesForecast, 1, [2]float64{0.5, 0.5}, [2]int{4, 2}},
		// Weights 1 and 3: σ = ¼, ¾; m_a = ¼·2·4 = 2, m_b = ¾·2·2 = 3.
		// cpu used at λ is 2λ·1 + 3λ·2 = 8λ ≤ 8: λ = 1 with 2 s1 and 3
		// s2 (s2+s2 on one node, s2+s1+s1 on the other).
		{"weights", plan.SharesWeights, 3, [2]float64{0.25, 0.75}, [2]int{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeFiles(t, map[string]string{"c.yaml": packCluster, "d.yaml": packDemand(tc.weightB)})
			res, err := Pack(PackOptions{Inputs: Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]},
				Catalog: packCatalog(), ShapesPath: "catalog", Shares: tc.shares, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			doc := res.Doc
			if doc.Lambda != 1 || doc.LambdaUpperBound != 1 || doc.Mode != "ownership" || doc.SharesFrom != tc.shares {
				t.Errorf("λ %v, upper %v, mode %s, shares %s", doc.Lambda, doc.LambdaUpperBound, doc.Mode, doc.SharesFrom)
			}
			for i, o := range doc.Owners {
				if !near(o.TargetShare, tc.share[i]) || o.Packed != tc.packed[i] || o.Required != tc.packed[i] || !near(o.Deviation+1, 1) {
					t.Errorf("owner %s: %+v, want share %v and %d packed", o.Application, o, tc.share[i], tc.packed[i])
				}
			}
			// The cluster is full: nothing stranded.
			for _, s := range doc.Stranded {
				if s.Unused != 0 || s.Percent != 0 {
					t.Errorf("stranded %+v", s)
				}
			}
			if doc.Search == nil || doc.Search.CutByTimeLimit || res.Stats.Probes < 1 {
				t.Errorf("search %+v, stats %+v", doc.Search, res.Stats)
			}
		})
	}
}

// Incremental mode from the plan itself: nothing needs to change.
func TestPackIncrementalFromItself(t *testing.T) {
	files := writeFiles(t, map[string]string{"c.yaml": packCluster, "d.yaml": packDemand(1)})
	in := Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}
	first, err := Pack(PackOptions{Inputs: in, Catalog: packCatalog(), ShapesPath: "catalog", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(first.Doc); err != nil {
		t.Fatal(err)
	}
	prev := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(prev, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// Half of 2 nodes may change: MutableLimit 1.
	res, err := Pack(PackOptions{Inputs: in, Catalog: packCatalog(), ShapesPath: "catalog", Seed: 1, FromPath: prev, Mutable: 0.5,
		TimeLimit: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	doc := res.Doc
	if !doc.Incremental || len(doc.Changed) != 0 || doc.MutableLimit != 1 || doc.Lambda != 1 {
		t.Errorf("incremental %v, changed %v, limit %d, λ %v", doc.Incremental, doc.Changed, doc.MutableLimit, doc.Lambda)
	}
	if doc.Flags["from"] != prev || doc.Flags["mutable"] != "0.5" || doc.Flags["timeLimit"] != "1h0m0s" || len(doc.Inputs) != 3 {
		t.Errorf("flags %v, inputs %v", doc.Flags, doc.Inputs)
	}
	if s := doc.Search; s.TimeLimit != 3600 || s.CutByTimeLimit {
		t.Errorf("search %+v", s)
	}
}

// A request no shape holds is listed with its shortfall, and its
// application, left without containers, is skipped.
func TestPackUncovered(t *testing.T) {
	demand := packDemand(1) + "  - name: c\n    requests: [{shape: {cpu: 3, memory: 1Gi}, count: 1}]\n"
	files := writeFiles(t, map[string]string{"c.yaml": packCluster, "d.yaml": demand})
	res, err := Pack(PackOptions{Inputs: Inputs{ClusterPath: files["c.yaml"], DemandPath: files["d.yaml"]}, Catalog: packCatalog(), ShapesPath: "catalog"})
	if err != nil {
		t.Fatal(err)
	}
	doc := res.Doc
	if len(doc.Skipped) != 1 || doc.Skipped[0].Application != "c" {
		t.Errorf("skipped %+v", doc.Skipped)
	}
	var found bool
	for _, u := range doc.Unplaced {
		// The closest shape, s2, has 2 cpu for the 3 asked.
		found = found || u.Owner == "c" && u.Shape == "" && u.Count == 1 && u.Request["cpu"] == 3 &&
			u.Reason == "no catalog shape holds the request: cpu needs 3, shape s2 has 2"
	}
	if !found {
		t.Errorf("unplaced %+v", doc.Unplaced)
	}
}

func TestPackOptionErrors(t *testing.T) {
	ex := Inputs{Example: true}
	for name, o := range map[string]PackOptions{
		"shares":          {Inputs: ex, Catalog: packCatalog(), Shares: "equal"},
		"mutable":         {Inputs: ex, Catalog: packCatalog(), Mutable: 1.5},
		"negative budget": {Inputs: ex, Catalog: packCatalog(), MaxWork: -1},
	} {
		if _, err := Pack(o); !IsOptionError(err) {
			t.Errorf("%s: error %v, want an option error", name, err)
		}
	}
}
