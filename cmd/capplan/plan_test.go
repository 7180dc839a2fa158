package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// TestPlanCommand writes the example's bundle (no sizing curve, to keep
// the test short), checks its layout and re-verifies it; a second run
// with other --workers gives byte-identical documents and exports.
func TestPlanCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	code, _, stderr := runCapplan(t, "plan", "--example", "--size-curve", "none", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, filepath.Join(out, "report.html")) {
		t.Errorf("stderr does not say where the report is: %s", stderr)
	}
	for _, f := range []string{"plan.json", "fairshare.json", "shapes.json", "packing.json", "sizing.json", "dags.json", "simulation.json",
		"report.html", "report.xlsx", "figures/shares.svg", "figures/sizing.svg", "figures/gantt-1-q17.svg", "figures/sim-cdf-jct.svg",
		"figures/sim-shares-xschedule.svg", "export/yarn/fair-scheduler.xml", "export/k8s/20-resourcequotas.yaml", "export/kueue/20-clusterqueues.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("bundle: %v", err)
		}
	}
	code, stdout, stderr := runCapplan(t, "plan", "--check", out)
	if code != exitOK || strings.Contains(stdout, "FAIL") || strings.Count(stdout, "ok  ") != 9 || !strings.Contains(stdout, "ok    simulation") {
		t.Errorf("--check: exit %d\n%s%s", code, stdout, stderr)
	}
	again := filepath.Join(dir, "again")
	if code, _, stderr := runCapplan(t, "plan", "--example", "--size-curve", "none", "--workers", "1", "-o", again); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"fairshare.json", "shapes.json", "packing.json", "sizing.json", "dags.json", "simulation.json",
		"export/k8s/20-resourcequotas.yaml", "figures/sizing.svg", "figures/sim-util-xschedule.svg"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between runs", f)
		}
	}
	// Tampering with the simulation, even with its digest fixed in
	// plan.json, fails the check: it is re-run (exit 4).
	sim, _ := os.ReadFile(filepath.Join(out, "simulation.json"))
	forged := bytes.Replace(sim, []byte(`"wastedWork": 0`), []byte(`"wastedWork": 1`), 1)
	index, _ := os.ReadFile(filepath.Join(out, plan.PlanFile))
	os.WriteFile(filepath.Join(out, "simulation.json"), forged, 0o644)
	os.WriteFile(filepath.Join(out, plan.PlanFile), bytes.Replace(index, []byte(plan.Digest(sim)), []byte(plan.Digest(forged)), 1), 0o644)
	code, stdout, stderr = runCapplan(t, "plan", "--check", out)
	if bytes.Equal(sim, forged) || code != exitCheckFailed || !strings.Contains(stdout, "FAIL  simulation") || !strings.Contains(stdout, "differs from the simulation re-run") {
		t.Errorf("--check of a forged simulation: exit %d\n%s%s", code, stdout, stderr)
	}
	os.WriteFile(filepath.Join(out, "simulation.json"), sim, 0o644)
	os.WriteFile(filepath.Join(out, plan.PlanFile), index, 0o644)
	// Tampering with a document fails the check (exit 4).
	data, _ := os.ReadFile(filepath.Join(out, "shapes.json"))
	os.WriteFile(filepath.Join(out, "shapes.json"), bytes.Replace(data, []byte(`"k": 8`), []byte(`"k": 9`), 1), 0o644)
	code, stdout, stderr = runCapplan(t, "plan", "--check", out)
	if code != exitCheckFailed || !strings.Contains(stdout, "FAIL  documents") || !strings.Contains(stderr, "shapes.json has sha256") {
		t.Errorf("--check of a tampered bundle: exit %d\n%s%s", code, stdout, stderr)
	}
}

// planWarningFiles: web runs anywhere, gpu wants a node no cluster has,
// and the workload's job big needs 64 cores of machines with 8.
var planWarningFiles = map[string]string{
	"cluster.yaml": "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory]\nnodes:\n  - {name: std, count: 4, capacity: {cpu: 8, memory: 32Gi}}\n",
	"demand.yaml": "apiVersion: capplan/v1\nkind: Demand\napplications:\n" +
		"  - {name: web, requests: [{shape: {cpu: 2, memory: 4Gi}, count: 10}]}\n" +
		"  - {name: gpu, selector: \"gpu=true\", requests: [{shape: {cpu: 1, memory: 1Gi}, count: 1}]}\n",
	"workload.yaml": "apiVersion: capplan/v1\nkind: Workload\njobs:\n" +
		"  - {name: ok, group: web, tasks: [{id: a, duration: 10, demand: {cpu: 2, memory: 1Gi}}]}\n" +
		"  - {name: big, group: web, tasks: [{id: a, duration: 10, demand: {cpu: 64, memory: 1Gi}}]}\n",
	"broken.yaml": "apiVersion: capplan/v1\nkind: Demand\napplications: [{name: web, weight: -1}]\n",
}

// TestPlanCommandWarnings: a bundle with warnings is written whole (exit
// 3) and verifies; a run that fails outright leaves it intact (exit 1).
func TestPlanCommandWarnings(t *testing.T) {
	dir := t.TempDir()
	p := map[string]string{}
	for name, content := range planWarningFiles {
		p[name] = filepath.Join(dir, name)
		os.WriteFile(p[name], []byte(content), 0o644)
	}
	out := filepath.Join(dir, "bundle")
	code, _, stderr := runCapplan(t, "plan", "-c", p["cluster.yaml"], "-d", p["demand.yaml"], "-w", p["workload.yaml"], "--size", "std=2", "-o", out)
	if code != exitWarnings {
		t.Fatalf("exit %d, want %d: %s", code, exitWarnings, stderr)
	}
	for _, want := range []string{`warning: demand: cannot be met`, `application "gpu" can run on no node`, "warning: dag: job big cannot run on any machine", "written with warnings (2"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, plan.PlanFile))
	if err != nil {
		t.Fatal(err)
	}
	p2, err := plan.DecodePlan(plan.PlanFile, index)
	if err != nil || len(p2.Warnings) != 2 {
		t.Fatalf("plan.json: %v, warnings %v", err, p2)
	}
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	if !bytes.Contains(html, []byte("can run on no node")) {
		t.Error("the report does not show the warnings")
	}
	if code, stdout, stderr := runCapplan(t, "plan", "--check", out); code != exitOK {
		t.Errorf("--check: exit %d\n%s%s", code, stdout, stderr)
	}
	// A run that fails outright leaves the bundle as it was, and nothing
	// beside it.
	code, _, stderr = runCapplan(t, "plan", "-c", p["cluster.yaml"], "-d", p["broken.yaml"], "-o", out)
	if code != exitFailure || !strings.Contains(stderr, "broken.yaml") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(out, plan.PlanFile)); !bytes.Equal(now, index) {
		t.Error("a failed run changed the bundle")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(planWarningFiles)+1 {
		t.Errorf("the directory holds %d entries, want the inputs and the bundle", len(entries))
	}
}

func TestPlanUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--example"}, "an output directory is required"},
		{[]string{"plan", "-o", dir}, "both --cluster and --demand are required"},
		{[]string{"plan", "--check", dir, "--example"}, "cannot be combined with --example"},
		{[]string{"plan", "--example", "-o", dir, "--size", "gpu=x"}, "invalid --size gpu=x"},
		{[]string{"plan", "--example", "-o", dir, "--size-curve", "half"}, `invalid --size-curve "half"`},
		{[]string{"plan", "--example", "-o", dir, "--simulate", "lottery"}, `unknown policy "lottery"`},
		{[]string{"plan", "--example", "-o", dir, "--simulate", "fifo,"}, `invalid --simulate "fifo,"`},
		{[]string{"plan", "--example", "-o", dir, "--simulate-param", "fitness=2"}, `invalid --simulate-param "fitness=2"`},
		{[]string{"plan", "--check", dir, "--simulate", "fifo"}, "cannot be combined with --simulate"},
	} {
		code, _, stderr := runCapplan(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q: %s", tc.args, code, exitUsage, tc.want, stderr)
		}
	}
	if code, _, stderr := runCapplan(t, "plan", "--check", filepath.Join(dir, "none")); code != exitFailure || !strings.Contains(stderr, "is not a plan bundle") {
		t.Errorf("--check of no bundle: exit %d: %s", code, stderr)
	}
}

// TestPlanOpenB is the acceptance on real data: the openb GPU
// inventory with the openb pods as demand (capplan import openb) gives a
// full bundle, without warnings, that passes --check.
func TestPlanOpenB(t *testing.T) {
	root := testdatasets.Need(t, "alibaba-gpu-v2023-openb")
	dir := t.TempDir()
	in := filepath.Join(dir, "openb")
	if code, _, stderr := runCapplan(t, "import", "openb", "--nodes", filepath.Join(root, "openb_node_list_all_node.csv"),
		"--pods", filepath.Join(root, "openb_pod_list_gpuspec33.csv"), in); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "bundle")
	if code, _, stderr := runCapplan(t, "plan", "-c", filepath.Join(in, "cluster.yaml"), "-d", filepath.Join(in, "demand.yaml"), "-o", out); code != exitOK {
		t.Fatalf("plan: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"fairshare.json", "shapes.json", "packing.json", "report.html", "report.xlsx", "export/kueue/20-clusterqueues.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("bundle: %v", err)
		}
	}
	if code, stdout, stderr := runCapplan(t, "plan", "--check", out); code != exitOK || strings.Count(stdout, "ok  ") != 6 {
		t.Errorf("--check: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPlanRefusesOtherDirectories: the bundle replaces only an empty
// directory or an earlier bundle.
func TestPlanRefusesOtherDirectories(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	code, _, stderr := runCapplan(t, "plan", "--example", "-o", dir)
	if code != exitFailure || !strings.Contains(stderr, "is not a plan bundle") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "mine" {
		t.Error("the directory was replaced")
	}
	if code, _, stderr := runCapplan(t, "plan", "--example", "-o", "."); code != exitUsage {
		t.Errorf("-o .: exit %d: %s", code, stderr)
	}
}
