package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// exampleCatalog writes the example's X-Size catalog (K = 8) to dir.
func exampleCatalog(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "catalog.json")
	if code, _, errOut := runCapplan(t, "shapes", "--example", "-k", "8", "--eps", "0.25", "-o", path); code != 0 {
		t.Fatalf("shapes: exit %d: %s", code, errOut)
	}
	return path
}

// checkOwnership verifies an ownership plan from the document and the
// inputs alone, independently of the packer: every node exists with the
// capacity the document says and is not overfull; every container has a
// catalog shape's size, an owner of the demand allowed on the node
// (selector, minCapacity); maxPerNode, colocateWith and exlocateWith hold
// on every node; owners' packed counts and charged sizes add up; λ is at
// most its upper bound. It returns the containers per node name.
func checkOwnership(t *testing.T, doc *plan.PackingPlan, c *datasets.Cluster, d *datasets.Demand, cat *plan.ShapeCatalog) map[string][]plan.PackedContainer {
	t.Helper()
	if doc.Kind != plan.KindPackingPlan || doc.Mode != "ownership" {
		t.Fatalf("kind %s mode %s", doc.Kind, doc.Mode)
	}
	nodes := map[string]datasets.Node{}
	total := map[string]float64{}
	for _, n := range c.Nodes() {
		nodes[n.Name] = n
		for i, r := range c.Resources {
			total[r] += datasets.Base(n.Capacity[i])
		}
	}
	shapes := map[string]map[string]float64{}
	for _, s := range cat.Shapes {
		shapes[s.Name] = s.Size
	}
	apps := map[string]*datasets.Application{}
	for i := range d.Applications {
		apps[d.Applications[i].Name] = &d.Applications[i]
	}
	packed := map[string]int{}
	charged := map[string]float64{}
	byNode := map[string][]plan.PackedContainer{}
	for _, pn := range doc.Nodes {
		node, ok := nodes[pn.Name]
		if !ok {
			t.Fatalf("plan names node %s, not in the cluster", pn.Name)
		}
		if _, dup := byNode[pn.Name]; dup {
			t.Fatalf("node %s listed twice", pn.Name)
		}
		byNode[pn.Name] = pn.Containers
		used := map[string]float64{}
		count := map[string]int{}
		for _, ct := range pn.Containers {
			size, ok := shapes[ct.Shape]
			if !ok {
				t.Fatalf("node %s: shape %s not in the catalog", pn.Name, ct.Shape)
			}
			for r, v := range ct.Size {
				if size[r] != v {
					t.Fatalf("node %s: container %s size %v, catalog says %v", pn.Name, ct.Shape, ct.Size, size)
				}
			}
			app, ok := apps[ct.Owner]
			if !ok {
				t.Fatalf("node %s: owner %s not in the demand", pn.Name, ct.Owner)
			}
			if !app.Selector.Matches(labels.Set(node.Labels)) {
				t.Errorf("node %s: owner %s's selector %q does not match", pn.Name, ct.Owner, app.SelectorText)
			}
			for r, q := range app.MinCapacity {
				i := slices.Index(c.Resources, r)
				if q.Cmp(node.Capacity[i]) > 0 {
					t.Errorf("node %s: owner %s needs %s %s", pn.Name, ct.Owner, q.String(), r)
				}
			}
			for r, v := range size {
				used[r] += v
				charged[ct.Owner] += v / total[r]
			}
			count[ct.Owner]++
			packed[ct.Owner]++
		}
		for i, r := range c.Resources {
			if capacity := datasets.Base(node.Capacity[i]); used[r] > capacity*(1+1e-9) || pn.Capacity[r] != capacity {
				t.Errorf("node %s: %s used %v, capacity %v (document says %v)", pn.Name, r, used[r], capacity, pn.Capacity[r])
			}
		}
		for owner, n := range count {
			app := apps[owner]
			if app.MaxPerNode > 0 && int64(n) > app.MaxPerNode {
				t.Errorf("node %s: %d containers of %s, maxPerNode %d", pn.Name, n, owner, app.MaxPerNode)
			}
			for _, other := range app.ColocateWith {
				if count[other] == 0 {
					t.Errorf("node %s: %s without %s (colocateWith)", pn.Name, owner, other)
				}
			}
			for _, other := range app.ExlocateWith {
				if count[other] > 0 {
					t.Errorf("node %s: %s with %s (exlocateWith)", pn.Name, owner, other)
				}
			}
		}
	}
	for _, o := range doc.Owners {
		if o.Packed != packed[o.Application] || o.Packed < o.Required {
			t.Errorf("owner %s: document says %d packed (%d required), nodes hold %d", o.Application, o.Packed, o.Required, packed[o.Application])
		}
		if diff := o.ChargedSize - charged[o.Application]; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("owner %s: charged size %v, recomputed %v", o.Application, o.ChargedSize, charged[o.Application])
		}
	}
	if doc.Lambda <= 0 || doc.Lambda > doc.LambdaUpperBound*(1+1e-12) {
		t.Errorf("λ %v, upper bound %v", doc.Lambda, doc.LambdaUpperBound)
	}
	return byNode
}

func loadExample(t *testing.T) (*datasets.Cluster, *datasets.Demand) {
	t.Helper()
	files := datasets.ExampleFiles()
	c, err := datasets.ParseCluster("cluster.yaml", files["cluster.yaml"], datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.ParseDemand("demand.yaml", files["demand.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

func readCatalog(t *testing.T, path string) *plan.ShapeCatalog {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cat plan.ShapeCatalog
	if err := json.Unmarshal(data, &cat); err != nil {
		t.Fatal(err)
	}
	return &cat
}

// TestPackOwnershipExample packs the example with every share source and
// checks each plan independently; the fair-share plan's owners must all
// reach containers, and the run is byte-for-byte deterministic.
func TestPackOwnershipExample(t *testing.T) {
	dir := t.TempDir()
	catPath := exampleCatalog(t, dir)
	c, d := loadExample(t)
	cat := readCatalog(t, catPath)
	for _, shares := range plan.ShareSources {
		doc := packJSON(t, "--example", "--shapes", catPath, "--shares", shares, "--json")
		checkOwnership(t, doc, c, d, cat)
		if doc.SharesFrom != shares || len(doc.Owners) != len(d.Applications) {
			t.Errorf("%s: sharesFrom %s, %d owners", shares, doc.SharesFrom, len(doc.Owners))
		}
		sum := 0.0
		for _, o := range doc.Owners {
			sum += o.TargetShare
			if o.Packed == 0 {
				t.Errorf("%s: owner %s got nothing", shares, o.Application)
			}
		}
		if sum < 1-1e-9 || sum > 1+1e-9 {
			t.Errorf("%s: target shares sum to %v", shares, sum)
		}
	}
	a, _, _ := runCapplan(t, "pack", "--example", "--shapes", catPath, "--json")
	_, outA, _ := runCapplan(t, "pack", "--example", "--shapes", catPath, "--json")
	_, outB, _ := runCapplan(t, "pack", "--example", "--shapes", catPath, "--json")
	if a != 0 || outA != outB {
		t.Errorf("two runs differ (exit %d)", a)
	}
	// Text, CSV and xlsx views of the same plan.
	code, text, errOut := runCapplan(t, "pack", "--example", "--shapes", catPath)
	if code != 0 || !strings.Contains(text, "ownership (x-select, fair shares): λ = ") || !strings.Contains(text, "target share") {
		t.Errorf("text: exit %d %s\n%s", code, errOut, text)
	}
	csvPath, xlsxPath := filepath.Join(dir, "plan.csv"), filepath.Join(dir, "plan.xlsx")
	if code, _, errOut := runCapplan(t, "pack", "--example", "--shapes", catPath, "-o", csvPath, "--xlsx", xlsxPath); code != 0 {
		t.Fatalf("csv/xlsx: exit %d %s", code, errOut)
	}
	csv, _ := os.ReadFile(csvPath)
	if !strings.HasPrefix(string(csv), "node,shape,owner,cpu,memory,gpu\n") {
		t.Errorf("csv header: %.80s", csv)
	}
	if st, err := os.Stat(xlsxPath); err != nil || st.Size() == 0 {
		t.Errorf("xlsx: %v", err)
	}
}

// TestPackIncremental re-packs the example after a change of shares with a
// tenth of the nodes mutable: the nodes that differ from the previous plan
// are exactly the ones the plan lists as changed, at most the limit, and
// the plan passes the independent check.
func TestPackIncremental(t *testing.T) {
	dir := t.TempDir()
	catPath := exampleCatalog(t, dir)
	c, d := loadExample(t)
	cat := readCatalog(t, catPath)
	prevPath := filepath.Join(dir, "plan.json")
	if code, _, errOut := runCapplan(t, "pack", "--example", "--shapes", catPath, "-o", prevPath); code != 0 {
		t.Fatalf("first plan: exit %d %s", code, errOut)
	}
	data, _ := os.ReadFile(prevPath)
	var prev plan.PackingPlan
	if err := json.Unmarshal(data, &prev); err != nil {
		t.Fatal(err)
	}
	before := checkOwnership(t, &prev, c, d, cat)
	for _, tc := range []struct {
		shares  string
		mutable string
		limit   int
	}{{"weights", "0.1", 24}, {"forecast", "0.25", 60}, {"fair", "0", 0}} {
		doc := packJSON(t, "--example", "--shapes", catPath, "--shares", tc.shares, "--from", prevPath, "--mutable", tc.mutable, "--json")
		after := checkOwnership(t, doc, c, d, cat)
		if !doc.Incremental || doc.MutableLimit != tc.limit || len(doc.Changed) > tc.limit {
			t.Errorf("%s: incremental %v, limit %d (want %d), %d changed", tc.shares, doc.Incremental, doc.MutableLimit, tc.limit, len(doc.Changed))
		}
		changed := map[string]bool{}
		for _, n := range doc.Changed {
			changed[n] = true
		}
		for _, n := range c.Nodes() {
			if differ := !sameContainers(before[n.Name], after[n.Name]); differ != changed[n.Name] {
				t.Errorf("%s: node %s differs %v, listed as changed %v", tc.shares, n.Name, differ, changed[n.Name])
			}
		}
	}
	// A sizing plan cannot seed an incremental run.
	sizing, demand := filepath.Join(dir, "sizing.json"), filepath.Join(dir, "demand.yaml")
	if err := os.WriteFile(demand, []byte(sizingDemand), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCapplan(t, "pack", "--min-nodes", "-c", "../../datasets/examples/cluster.yaml", "-d", demand, "--node-type", "std", "-o", sizing); code != 0 {
		t.Fatalf("sizing: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCapplan(t, "pack", "--example", "--shapes", catPath, "--from", sizing); code != exitFailure || !strings.Contains(errOut, "needs an ownership plan") {
		t.Errorf("--from sizing plan: exit %d %s", code, errOut)
	}
}

// sameContainers compares two container lists as multisets of (shape, owner).
func sameContainers(a, b []plan.PackedContainer) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[[2]string]int{}
	for _, c := range a {
		count[[2]string{c.Shape, c.Owner}]++
	}
	for _, c := range b {
		count[[2]string{c.Shape, c.Owner}]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestPackOwnershipBadInput: malformed catalogs and plans give one clear
// line naming the file, exit 1, and write nothing; flag misuse exits 2.
func TestPackOwnershipBadInput(t *testing.T) {
	dir := t.TempDir()
	catPath := exampleCatalog(t, dir)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		name, catalog, want string
	}{
		{"wrong kind", `{"apiVersion": "capplan/v1", "kind": "FairShare"}`, `kind is "FairShare", want "ShapeCatalog"`},
		{"syntax", "{\n\"apiVersion\": \"capplan/v1\",\n\"kind\": \"ShapeCatalog\",\n\"shapes\": [}\n", "line 4"},
		{"type", "{\"apiVersion\": \"capplan/v1\", \"kind\": \"ShapeCatalog\",\n\"shapes\": [{\"name\": \"s\", \"size\": {\"cpu\": \"2\"}}]}", "line 2: shapes.size"},
		{"no shapes", `{"apiVersion": "capplan/v1", "kind": "ShapeCatalog", "shapes": []}`, "the catalog has no shapes"},
		{"unknown resource", `{"apiVersion": "capplan/v1", "kind": "ShapeCatalog", "shapes": [{"name": "s", "size": {"fpga": 1}}]}`, `shapes[0].size.fpga: the cluster has no resource "fpga"`},
		{"duplicate", `{"apiVersion": "capplan/v1", "kind": "ShapeCatalog", "shapes": [{"name": "s", "size": {"cpu": 1}}, {"name": "s", "size": {"cpu": 2}}]}`, "duplicate shape name"},
		{"empty", "", "empty file"},
	} {
		p := write(tc.name+".json", tc.catalog)
		code, _, errOut := runCapplan(t, "pack", "--example", "--shapes", p, "-o", out)
		if code != exitFailure || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, p) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: output written despite the error", tc.name)
		}
	}
	badPlan := write("plan.json", `{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "ownership", "nodes": [{"name": "std-0", "containers": [{"shape": "nope", "owner": "web"}]}]}`)
	if code, _, errOut := runCapplan(t, "pack", "--example", "--shapes", catPath, "--from", badPlan); code != exitFailure || !strings.Contains(errOut, `nodes[0].containers[0]: shape "nope" is not in the catalog`) {
		t.Errorf("bad --from: exit %d %s", code, errOut)
	}
	for _, args := range [][]string{
		{"pack", "--example"},
		{"pack", "--example", "--shapes", catPath, "--min-nodes"},
		{"pack", "--example", "--shapes", catPath, "--mutable", "0.2"},
		{"pack", "--example", "--shapes", catPath, "--from", badPlan, "--mutable", "1.5"},
		{"pack", "--example", "--shapes", catPath, "--shares", "equal"},
		{"pack", "--example", "--shapes", catPath, "--node-type", "std"},
		{"pack", "--min-nodes", "--example", "--node-type", "std", "--shares", "fair"},
		{"pack", "--min-nodes", "--example", "--node-type", "std=-1"},
		{"pack", "--min-nodes", "--example", "--node-type", "std,std"},
	} {
		if code, _, errOut := runCapplan(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}

// TestPackUncoveredRequests packs the example with a catalog too small for
// some requests: those are listed as not placed with the short dimensions,
// applications left with nothing to pack are named, and the rest is packed
// and checked.
func TestPackUncoveredRequests(t *testing.T) {
	dir := t.TempDir()
	catPath := filepath.Join(dir, "small.json")
	small := `{"apiVersion": "capplan/v1", "kind": "ShapeCatalog", "shapes": [
	  {"name": "small", "size": {"cpu": 4, "memory": 17179869184}, "cost": 1},
	  {"name": "mid", "size": {"cpu": 16, "memory": 68719476736}, "cost": 2}]}`
	if err := os.WriteFile(catPath, []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	c, d := loadExample(t)
	doc := packJSON(t, "--example", "--shapes", catPath, "--json")
	checkOwnership(t, doc, c, d, readCatalog(t, catPath))
	var skipped []string
	for _, s := range doc.Skipped {
		skipped = append(skipped, s.Application)
	}
	if strings.Join(skipped, ",") != "ml-train,ml-serve,cache" {
		t.Errorf("skipped %v", skipped)
	}
	found := false
	for _, u := range doc.Unplaced {
		if u.Owner == "spark-analytics" && u.Shape == "" && u.Count == 16 && u.Request["memory"] == 240<<30 &&
			u.Reason == "no catalog shape holds the request: memory needs 240Gi, shape mid has 64Gi" {
			found = true
		}
	}
	if !found {
		t.Errorf("spark-analytics' 240Gi requests not reported: %+v", doc.Unplaced)
	}
}
