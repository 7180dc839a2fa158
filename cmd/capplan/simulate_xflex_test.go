package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// TestXFlexChain runs the acceptance chain of W-XFLEX end to end:
// capplan example --xflex, shapes, pack --shapes, then simulate
// --policy xschedule --packing plan.json --workload xflex --view xsight
// --svg out/, and checks that the plan owns 26 containers per application
// and that the X-Sight figures are written.
func TestXFlexChain(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	steps := [][]string{
		{"example", "--xflex", dir},
		{"shapes", "-c", in("cluster.yaml"), "-d", in("demand.yaml"), "-k", "1", "-o", in("shapes.json")},
		{"pack", "-c", in("cluster.yaml"), "-d", in("demand.yaml"), "--shapes", in("shapes.json"), "-o", in("plan.json")},
		{"simulate", "--policy", "xschedule", "--packing", in("plan.json"), "--workload", "xflex", "--view", "xsight",
			"--svg", in("out"), "--compare", "drf-am", "-o", in("sim.json")},
	}
	for _, args := range steps {
		if code, _, stderr := runCapplan(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	var pp plan.PackingPlan
	data, err := os.ReadFile(in("plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pp); err != nil {
		t.Fatal(err)
	}
	for _, o := range pp.Owners {
		if o.Packed != 26 {
			t.Errorf("owner %s has %d containers, want 26", o.Application, o.Packed)
		}
	}
	var set plan.SimulationSet
	data, err = os.ReadFile(in("sim.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Runs) != 2 || set.Runs[0].XSight == nil || len(set.Runs[0].XSight.Pairs) != 3 || len(set.Runs[0].Users) != 3 {
		t.Fatalf("simulation set: %d runs, xsight %v", len(set.Runs), set.Runs[0].XSight != nil)
	}
	entries, err := os.ReadDir(in("out"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, want := range []string{"xsight-util-xschedule-flex.svg", "xsight-pair-xschedule-flex-fair.svg", "xsight-packing-xschedule-100.svg"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("figures %v lack %s", names, want)
		}
	}
}
