package pipeline

import (
	"math"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/plan"
)

func load(t *testing.T, cluster, demand string) (*datasets.Demand, *datasets.Instance) {
	t.Helper()
	c, err := datasets.ParseCluster("cluster.yaml", []byte(cluster), datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.ParseDemand("demand.yaml", []byte(demand))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		t.Fatal(err)
	}
	return d, inst
}

// Three nodes of one type shared by a (weight 0.5) and b (weight 1.5):
// divisible shares 0.75 and 2.25 machines, level 1.5 per written weight
// unit for both (the solver's integer weights are 1 and 3).
const (
	threeNodes = `apiVersion: capplan/v1
kind: Cluster
resources: [cpu]
nodes:
  - {name: node, count: 3, capacity: {cpu: 4}}
`
	twoApps = `apiVersion: capplan/v1
kind: Demand
applications:
  - {name: a, weight: 0.5}
  - {name: b, weight: 1.5}
`
)

func TestNewFairShareDecimalWeights(t *testing.T) {
	d, inst := load(t, threeNodes, twoApps)
	p := CMMFProblem(inst, d)
	res, err := flow.Divisible(p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := newFairShare(plan.Header{}, d, inst, p, res, "flow", true)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		machines, weight, level float64
		exact                   string
	}{{0.75, 0.5, 1.5, "3/4"}, {2.25, 1.5, 1.5, "9/4"}}
	for i, w := range want {
		s := doc.Shares[i]
		if s.Machines != w.machines || s.Weight != w.weight || s.Level != w.level || s.MachinesExact != w.exact || s.LevelExact != "3/2" {
			t.Errorf("share %d = %+v, want %+v", i, s, w)
		}
	}
	if doc.Kind != plan.KindFairShare || doc.APIVersion != plan.APIVersion || !doc.Certificate.Verified {
		t.Errorf("header %s/%s verified=%v", doc.APIVersion, doc.Kind, doc.Certificate.Verified)
	}
	if p := doc.Certificate.Pieces; len(p) != 1 || p[0].LevelExact != "3/2" || p[0].Machines != 3 || p[0].Allocated != 3 {
		t.Errorf("pieces %+v", p)
	}
	// Per node, north-west corner: a takes 0.75 of node-0; b takes 0.25 of
	// node-0, then node-1 and node-2 whole.
	checkNodes(t, doc, map[string]float64{"a": 0.75, "b": 2.25})
	if n := doc.Nodes[0]; len(n.Users) != 2 || n.Users[0].Fraction != 0.75 || n.Users[1].Fraction != 0.25 {
		t.Errorf("node 0: %+v", n)
	}
}

// checkNodes asserts that no node is over-full and that the per-node
// fractions add up to each application's share.
func checkNodes(t *testing.T, doc *plan.FairShare, shares map[string]float64) {
	t.Helper()
	got := map[string]float64{}
	for _, n := range doc.Nodes {
		var sum float64
		for _, u := range n.Users {
			sum += u.Fraction
			got[u.Application] += u.Fraction
		}
		if sum > 1+1e-12 {
			t.Errorf("node %s holds %v machines", n.Node, sum)
		}
	}
	for app, want := range shares {
		if math.Abs(got[app]-want) > 1e-9 {
			t.Errorf("%s: %v on nodes, share %v", app, got[app], want)
		}
	}
}

func TestNewFairShareRejectsUnverified(t *testing.T) {
	d, inst := load(t, threeNodes, twoApps)
	p := CMMFProblem(inst, d)
	res, err := flow.Divisible(p)
	if err != nil {
		t.Fatal(err)
	}
	res.Amount[0], res.Level[0] = flow.Int(1), flow.Int(1) // tampered
	if _, err := newFairShare(plan.Header{}, d, inst, p, res, "flow", false); err == nil {
		t.Fatal("a result that fails verification was accepted")
	}
}
