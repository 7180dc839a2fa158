package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

func packJSON(t *testing.T, args ...string) *plan.PackingPlan {
	t.Helper()
	code, out, errOut := runCapplan(t, append([]string{"pack"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc plan.PackingPlan
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

// checkPlanCapacity re-checks a plan from the document alone: no node
// holds more than the node capacity in any dimension.
func checkPlanCapacity(t *testing.T, doc *plan.PackingPlan) int {
	t.Helper()
	n := 0
	for _, node := range doc.Nodes {
		for _, r := range doc.Resources {
			var used float64
			for _, c := range node.Containers {
				used += c.Size[r]
			}
			capacity := doc.NodeCapacity[r]
			if node.Capacity != nil {
				capacity = node.Capacity[r]
			}
			if used > capacity {
				t.Errorf("node %s holds %v of %s, capacity %v", node.Name, used, r, capacity)
			}
		}
		n += len(node.Containers)
	}
	if doc.NodesUsed != len(doc.Nodes) || doc.NodesUsed < doc.LowerBound {
		t.Errorf("nodes used %d (%d listed), lower bound %d", doc.NodesUsed, len(doc.Nodes), doc.LowerBound)
	}
	return n
}

// TestPackVBP sizes public benchmark instances and scores them against
// their published optimum: never below it, never below the lower bound.
func TestPackVBP(t *testing.T) {
	root := testdatasets.Need(t, "vbp-mommessin") + "/"
	summary, err := os.ReadFile(root + "panigrahy/Panigrahy_summary_known.csv")
	if err != nil {
		t.Fatal(err)
	}
	opt := map[string]string{}
	for _, line := range strings.Split(string(summary), "\n")[1:] {
		if f := strings.Fields(line); len(f) >= 3 {
			opt[f[0]] = f[2]
		}
	}
	for _, name := range []string{"class1/class1_20_3_0", "class4/class4_60_5_3", "class7/class7_120_10_1"} {
		doc := packJSON(t, "--min-nodes", root+"panigrahy/"+name+".vbp", "--json")
		items := checkPlanCapacity(t, doc)
		if items == 0 || doc.Resources[0] != "d0" || doc.Mode != "sizing" || doc.Kind != plan.KindPackingPlan {
			t.Errorf("%s: %d items, resources %v, mode %s", name, items, doc.Resources, doc.Mode)
		}
		base := filepath.Base(name)
		if o, err := strconv.Atoi(opt[base]); err == nil && o > 0 && doc.NodesUsed < o {
			t.Errorf("%s: %d nodes, below the proven optimum %d", name, doc.NodesUsed, o)
		}
	}
}

const sizingDemand = `apiVersion: capplan/v1
kind: Demand
applications:
  - name: web
    selector: "!spot"
    requests:
      - {shape: {cpu: 2, memory: 4Gi}, count: 100}
      - {shape: {cpu: 500m, memory: 1Gi}, count: 30}
  - name: db
    requests:
      - {shape: {cpu: 8, memory: 60Gi}, count: 6}
`

func TestPackClusterDemand(t *testing.T) {
	dir := t.TempDir()
	demand := filepath.Join(dir, "demand.yaml")
	if err := os.WriteFile(demand, []byte(sizingDemand), 0o644); err != nil {
		t.Fatal(err)
	}
	cluster := "../../datasets/examples/cluster.yaml"
	doc := packJSON(t, "--min-nodes", "-c", cluster, "-d", demand, "--node-type", "std", "--json")
	if n := checkPlanCapacity(t, doc); n != 136 {
		t.Errorf("%d containers, want 136", n)
	}
	// cpu: 200 + 15 + 48 = 263 cores on 32-core nodes ≥ 9 nodes; memory:
	// 400 + 30 + 360 = 790 Gi on 128Gi nodes ≥ 7: the bound is at least 9.
	if doc.LowerBound < 9 || doc.NodeCapacity["cpu"] != 32 {
		t.Errorf("lower bound %d, capacity %v", doc.LowerBound, doc.NodeCapacity)
	}
	if code, _, errOut := runCapplan(t, "pack", "--min-nodes", "-c", cluster, "-d", demand, "--node-type", "spot"); code != exitFailure || !strings.Contains(errOut, "web may not run on node group spot") {
		t.Errorf("spot: exit %d, %s", code, errOut)
	}
	for _, args := range [][]string{
		{"pack", "-c", cluster, "-d", demand, "--node-type", "std"},
		{"pack", "--min-nodes", "x.vbp", "-c", cluster},
		{"pack", "--min-nodes", "-c", cluster, "-d", demand},
		{"pack", "--min-nodes", "-c", cluster, "-d", demand, "--node-type", "nope"},
	} {
		if code, _, errOut := runCapplan(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}

// TestPackMixedSizing sizes the example demand on five priced node types:
// every container sits on a type its application may use and within the
// node's capacity, the cost is the sum of the nodes bought, at least the
// lower bound, and the per-type counts match the nodes listed.
func TestPackMixedSizing(t *testing.T) {
	c, d := loadExample(t)
	doc := packJSON(t, "--min-nodes", "--example", "--node-type", "std=1,highmem=3.5,gpu=9,spot=0.4,std-b=1", "--json")
	checkPlanCapacity(t, doc)
	group := map[string]*datasets.NodeGroup{}
	first := map[string]datasets.Node{}
	for i := range c.Groups {
		group[c.Groups[i].Name] = &c.Groups[i]
	}
	for _, n := range c.Nodes() {
		if _, ok := first[n.Group]; !ok {
			first[n.Group] = n
		}
	}
	apps := map[string]*datasets.Application{}
	for i := range d.Applications {
		apps[d.Applications[i].Name] = &d.Applications[i]
	}
	price := map[string]float64{"std": 1, "highmem": 3.5, "gpu": 9, "spot": 0.4, "std-b": 1}
	cost, count, containers := 0.0, map[string]int{}, 0
	for _, n := range doc.Nodes {
		node, ok := first[n.Type]
		if !ok {
			t.Fatalf("node %s has type %q, not a node group", n.Name, n.Type)
		}
		cost += price[n.Type]
		count[n.Type]++
		for _, ct := range n.Containers {
			app := apps[ct.Owner]
			if !app.Selector.Matches(labels.Set(node.Labels)) {
				t.Errorf("node %s (%s): %s's selector %q does not match", n.Name, n.Type, ct.Owner, app.SelectorText)
			}
			for r, q := range app.MinCapacity {
				if q.Cmp(node.Capacity[slices.Index(c.Resources, r)]) > 0 {
					t.Errorf("node %s (%s): %s needs %s %s", n.Name, n.Type, ct.Owner, q.String(), r)
				}
			}
			containers++
		}
	}
	var want int64
	for _, a := range d.Applications {
		for _, r := range a.Requests {
			want += r.Count
		}
	}
	if int64(containers) != want {
		t.Errorf("%d containers, the demand has %d requests", containers, want)
	}
	if diff := cost - doc.Cost; diff > 1e-9 || diff < -1e-9 || doc.CostLowerBound <= 0 || doc.CostLowerBound > doc.Cost+1e-9 {
		t.Errorf("cost %v (recomputed %v), lower bound %v", doc.Cost, cost, doc.CostLowerBound)
	}
	for _, nt := range doc.NodeTypes {
		if nt.Nodes != count[nt.Name] || nt.Cost != price[nt.Name] {
			t.Errorf("type %s: %d nodes at %v, plan lists %d", nt.Name, nt.Nodes, nt.Cost, count[nt.Name])
		}
	}
	// An application that may use none of the types is named.
	if code, _, errOut := runCapplan(t, "pack", "--min-nodes", "--example", "--node-type", "std=1,spot=0.4"); code != exitFailure || !strings.Contains(errOut, "ml-train may run on none of the node groups std, spot") {
		t.Errorf("no gpu type: exit %d %s", code, errOut)
	}
}
