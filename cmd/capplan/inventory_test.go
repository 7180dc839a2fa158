package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// The acceptance inventory of issue 12 (item 1): `kubectl get nodes -o
// json` of a cluster with a control-plane node tainted NoSchedule, a
// cordoned node, three worker instance types (2 × m5.2xlarge, 2 ×
// r5.2xlarge, 3 × c5.4xlarge) and attachable-volumes-aws-ebs, pods and
// hugepages of zero in every allocatable.
const (
	kubectlNodes  = "../../datasets/examples/nodes.json"
	kubectlDemand = "../../datasets/examples/nodes-demand.yaml"
)

var (
	// kubectlWorkers are the schedulable worker nodes.
	kubectlWorkers = []string{"ip-10-0-1-21", "ip-10-0-2-22", "ip-10-0-1-31", "ip-10-0-2-32", "ip-10-0-1-41", "ip-10-0-2-42", "ip-10-0-3-43"}
	kubectlTypes   = []string{"m5.2xlarge", "r5.2xlarge", "c5.4xlarge"}
	kubectlDims    = []string{"cpu", "memory", "ephemeral-storage"}
	kubectlLeftOut = []plan.ExcludedNode{
		{Node: "ip-10-0-3-23", Reason: "cordoned (spec.unschedulable)"},
		{Node: "ip-10-0-1-10", Reason: "taint node-role.kubernetes.io/control-plane:NoSchedule, which no application tolerates"},
	}
)

// checkLeftOut checks that a document and stderr name the nodes left out
// and why.
func checkLeftOut(t *testing.T, h *plan.Header, stderr string) {
	t.Helper()
	if !slices.Equal(h.Excluded, kubectlLeftOut) {
		t.Errorf("document excluded = %v, want %v", h.Excluded, kubectlLeftOut)
	}
	for _, x := range kubectlLeftOut {
		if !strings.Contains(stderr, x.Node+": "+x.Reason) {
			t.Errorf("stderr does not say that %s is left out (%s):\n%s", x.Node, x.Reason, stderr)
		}
	}
}

func TestKubectlInventoryFairShare(t *testing.T) {
	code, out, stderr := runCapplan(t, "fairshare", "-c", kubectlNodes, "-d", kubectlDemand, "--json", "--per-node")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc plan.FairShare
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var types []string
	var machines int64
	for _, mt := range doc.MachineTypes {
		types = append(types, mt.Name)
		machines += mt.Count
	}
	if !slices.Equal(types, kubectlTypes) || machines != 7 || doc.Summary.Machines != 7 {
		t.Errorf("machine types %v with %d machines (summary %d), want %v with 7", types, machines, doc.Summary.Machines, kubectlTypes)
	}
	if !slices.Equal(doc.Resources, kubectlDims) {
		t.Errorf("resources %v, want %v", doc.Resources, kubectlDims)
	}
	var nodes []string
	for _, n := range doc.Nodes {
		nodes = append(nodes, n.Node)
	}
	if !slices.Equal(nodes, kubectlWorkers) {
		t.Errorf("nodes %v, want the schedulable workers %v", nodes, kubectlWorkers)
	}
	checkLeftOut(t, &doc.Header, stderr)
}

func TestKubectlInventoryPack(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog.json")
	if code, _, stderr := runCapplan(t, "shapes", "-c", kubectlNodes, "-d", kubectlDemand, "-k", "4", "-o", cat); code != 0 {
		t.Fatalf("shapes: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCapplan(t, "pack", "-c", kubectlNodes, "-d", kubectlDemand, "--shapes", cat, "--json", "--budget", "2000000")
	if code != 0 {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	var doc plan.PackingPlan
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.Resources, kubectlDims) {
		t.Errorf("resources %v, want %v", doc.Resources, kubectlDims)
	}
	seen := map[string]bool{}
	for _, n := range doc.Nodes {
		if !slices.Contains(kubectlWorkers, n.Name) || !slices.Contains(kubectlTypes, n.Type) {
			t.Errorf("node %s of type %s is not a schedulable worker", n.Name, n.Type)
		}
		seen[n.Type] = true
	}
	if len(seen) != 3 {
		t.Errorf("the plan uses types %v, want all of %v", seen, kubectlTypes)
	}
	checkLeftOut(t, &doc.Header, stderr)

	// Sizing names the instance types.
	code, out, stderr = runCapplan(t, "pack", "--min-nodes", "-c", kubectlNodes, "-d", kubectlDemand, "--node-type", "m5.2xlarge=1,r5.2xlarge=1.3,c5.4xlarge=1.7", "--json")
	if code != 0 {
		t.Fatalf("pack --min-nodes: exit %d: %s", code, stderr)
	}
	var sizing plan.PackingPlan
	if err := json.Unmarshal([]byte(out), &sizing); err != nil {
		t.Fatal(err)
	}
	for _, nt := range sizing.NodeTypes {
		if !slices.Contains(kubectlTypes, nt.Name) {
			t.Errorf("sizing node type %s", nt.Name)
		}
	}
	if !slices.Equal(sizing.Resources, kubectlDims) {
		t.Errorf("sizing resources %v, want %v", sizing.Resources, kubectlDims)
	}
}
