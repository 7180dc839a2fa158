package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// writeBundle writes a plan bundle into dir: plan.json indexing the given
// step documents (files already in dir) with their digests.
func writeBundle(t *testing.T, dir string, steps ...plan.PlanStep) {
	t.Helper()
	for i := range steps {
		data, err := os.ReadFile(filepath.Join(dir, steps[i].File))
		if err != nil {
			t.Fatal(err)
		}
		steps[i].SHA256 = plan.Digest(data)
	}
	p := plan.Plan{
		Header:      plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindPlan, Generator: "capplan test"},
		CommandLine: []string{"capplan", "plan", "--example", "-o", dir},
		Steps:       steps,
		Warnings:    []plan.PlanWarning{},
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, plan.PlanFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	fs := filepath.Join(dir, "fs.json")
	if code, _, stderr := runCapplan(t, "fairshare", "--example", "--per-node", "-o", fs); code != 0 {
		t.Fatalf("fairshare: %s", stderr)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCapplan(t, "export", "kueue", "yarn", "k8s", "--fairshare", fs, "-o", out, "--json")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	var res struct {
		Files    []string `json:"files"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output %q: %v", stdout, err)
	}
	// The example's per-node plan names every node: nothing to warn about.
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	for _, want := range []string{"yarn/fair-scheduler.xml", "yarn/capacity-scheduler.xml", "yarn/node-labels.sh",
		"k8s/00-namespaces.yaml", "k8s/20-resourcequotas.yaml", "k8s/node-labels.sh", "kueue/20-clusterqueues.yaml"} {
		path := filepath.Join(out, want)
		if _, err := os.Stat(path); err != nil || !strings.Contains(strings.Join(res.Files, "\n"), path) {
			t.Errorf("%s not written or not listed: %v", want, err)
		}
	}
	// Byte-identical when run again.
	before, _ := os.ReadFile(filepath.Join(out, "kueue/20-clusterqueues.yaml"))
	if code, _, stderr := runCapplan(t, "export", "kueue", "--fairshare", fs, "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	after, _ := os.ReadFile(filepath.Join(out, "kueue/20-clusterqueues.yaml"))
	if string(before) != string(after) {
		t.Error("a second export differs")
	}
}

func TestExportFromBundle(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCapplan(t, "fairshare", "--example", "-o", filepath.Join(dir, "fairshare.json")); code != 0 {
		t.Fatal(stderr)
	}
	writeBundle(t, dir, plan.PlanStep{Name: plan.StepFairShare, Kind: plan.KindFairShare, File: "fairshare.json"})
	code, _, stderr := runCapplan(t, "export", "yarn", "-p", filepath.Join(dir, "plan.json"), "-o", filepath.Join(dir, "export"))
	if code != 0 {
		t.Fatalf("export -p: %s", stderr)
	}
	// The plain FairShare names no node: YARN cannot label them, and says so.
	if !strings.Contains(stderr, "warning: yarn: machine type std: the plan names none of its 96 nodes") {
		t.Errorf("stderr lacks the node-label warning:\n%s", stderr)
	}
	// A document that no longer matches its digest is refused.
	if err := os.WriteFile(filepath.Join(dir, "fairshare.json"), []byte(`{"apiVersion": "capplan/v1", "kind": "FairShare"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCapplan(t, "export", "yarn", "-p", dir, "-o", filepath.Join(dir, "export"))
	if code != 1 || !strings.Contains(stderr, "fairshare.json has sha256") {
		t.Errorf("tampered bundle: exit %d, %s", code, stderr)
	}
}

func TestExportDemandChanged(t *testing.T) {
	dir := t.TempDir()
	if err := datasets.WriteExamples(dir); err != nil {
		t.Fatal(err)
	}
	c, d, fs := filepath.Join(dir, "cluster.yaml"), filepath.Join(dir, "demand.yaml"), filepath.Join(dir, "fs.json")
	if code, _, stderr := runCapplan(t, "fairshare", "-c", c, "-d", d, "-o", fs); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := runCapplan(t, "export", "kueue", "--fairshare", fs, "-o", filepath.Join(dir, "a")); code != 0 {
		t.Fatalf("export with the plan's own demand: %s", stderr)
	}
	data, _ := os.ReadFile(d)
	if err := os.WriteFile(d, append(data, []byte("# edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCapplan(t, "export", "kueue", "--fairshare", fs, "-o", filepath.Join(dir, "b"))
	if code != 1 || !strings.Contains(stderr, "has changed since the plan was made") {
		t.Errorf("changed demand: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCapplan(t, "export", "kueue", "--fairshare", fs, "-d", d, "-o", filepath.Join(dir, "b")); code != 0 {
		t.Errorf("-d overrides the check: exit %d, %s", code, stderr)
	}
}

func TestExportUsage(t *testing.T) {
	dir := t.TempDir()
	fs := filepath.Join(dir, "fs.json")
	if code, _, stderr := runCapplan(t, "fairshare", "--example", "-o", fs); code != 0 {
		t.Fatal(stderr)
	}
	sizing := filepath.Join(dir, "size.json")
	os.WriteFile(sizing, []byte(`{"apiVersion": "capplan/v1", "kind": "PackingPlan", "mode": "sizing"}`), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown target", []string{"export", "nomad", "--fairshare", fs, "-o", dir}, 2, `unknown export target "nomad": valid targets are yarn, k8s, kueue, k8s-job, slurm`},
		{"no plan", []string{"export", "yarn", "-o", dir}, 2, "a plan is required"},
		{"no out", []string{"export", "yarn", "--fairshare", fs}, 2, "an output directory is required"},
		{"both", []string{"export", "yarn", "-p", dir, "--fairshare", fs, "-o", dir}, 2, "-p cannot be combined"},
		{"wrong kind", []string{"export", "yarn", "--fairshare", sizing, "-o", dir}, 1, `kind is "PackingPlan", want "FairShare"`},
		{"wrong mode", []string{"export", "yarn", "--fairshare", fs, "--packing", sizing, "-o", dir}, 1, "a sizing PackingPlan, want ownership"},
		{"missing", []string{"export", "yarn", "--fairshare", filepath.Join(dir, "nope.json"), "-o", dir}, 1, "nope.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCapplan(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}
