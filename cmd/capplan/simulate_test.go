package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// TestSimulateExampleCLI is the acceptance run of issue 13: the example
// with five policies against drf prints the side-by-side table, and --svg
// writes figures that parse as XML.
func TestSimulateExampleCLI(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCapplan(t, "simulate", "--example", "--compare", "fifo,drf,sjf,tetris,cp", "--baseline", "drf",
		"--svg", filepath.Join(dir, "figs"), "--gantt", "first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# simulated example (40 jobs", "policy\tfinished\tavg JCT", "\ntetris\t40\t", "FI p50 vs drf"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "figs"))
	if err != nil || len(entries) < 8 {
		t.Fatalf("figures: %v %d", err, len(entries))
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, "figs", e.Name()))
		d := xml.NewDecoder(bytes.NewReader(data))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
		}
	}
}

// TestSimulateJSON: one policy writes a SimulationResult, several a
// SimulationSet; the same flags give the same bytes.
func TestSimulateJSON(t *testing.T) {
	code, out, errOut := runCapplan(t, "simulate", "--example", "--policy", "drf", "--json", "--noise", "0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc plan.SimulationResult
	if err := plan.DecodeDocument("out", []byte(out), plan.KindSimulationResult, &doc); err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(); err != nil || doc.Policy.Name != "drf" || doc.Noise != 0.3 || len(doc.Inputs) != 3 {
		t.Errorf("doc %v: policy %s noise %v inputs %d", err, doc.Policy.Name, doc.Noise, len(doc.Inputs))
	}
	_, again, _ := runCapplan(t, "simulate", "--example", "--policy", "drf", "--json", "--noise", "0.3")
	if again != out {
		t.Error("two runs wrote different JSON")
	}
	_, set, _ := runCapplan(t, "simulate", "--example", "--policy", "drf", "--compare", "sjf", "--json")
	var s plan.SimulationSet
	if err := json.Unmarshal([]byte(set), &s); err != nil || s.Kind != plan.KindSimulationSet || len(s.Runs) != 2 {
		t.Errorf("set: %v kind %s runs %d", err, s.Kind, len(s.Runs))
	}
}

// TestSimulateUsage: usage errors name what is wrong, listing the valid
// policies for an unknown one.
func TestSimulateUsage(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "w.yaml")
	if err := os.WriteFile(doc, []byte("apiVersion: capplan/v1\nkind: Workload\njobs: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--example", "--policy", "nope"}, `unknown --policy "nope" (valid: capacity, carbyne, choosy, cmmf-migrate`},
		{[]string{"simulate", "--policy", "fifo"}, "give a workload"},
		{[]string{"simulate", "--example", "--compare", "bogus"}, `unknown --compare policy "bogus"`},
		{[]string{"simulate", "--example", "--param", "drf.nope=1"}, `unknown parameter "nope" (valid: entity, intra, place, k)`},
		{[]string{"simulate", "--example", "--param", "drf=1"}, "want POLICY.KEY=VALUE"},
		{[]string{"simulate", "--example", "--tick", "5ms"}, "invalid --tick"},
		{[]string{"simulate", "-w", doc}, "needs a cluster"},
		{[]string{"simulate", "--example", "--misestimate", "0.5"}, "invalid --misestimate \"0.5\": want a:b[:stage|task]"},
		{[]string{"simulate", "--example", "--param", "carbyne.altruism=2"}, "want a number in [0, 1]"},
	}
	for _, c := range cases {
		code, _, errOut := runCapplan(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestSimulateWorkloadPaths: a -w path that does not exist is named as
// missing (exit 1), not taken for a Workload document that needs -c (on
// main, "-w shared/datasets/psplib/j30", a mistyped W-PSP directory, asked
// for a cluster); a directory of PSPLIB projects runs without -c (W-PSP:
// --wparam jobs=2 takes its first two projects, j3010_1 and j3010_10, 30
// non-dummy tasks each).
func TestSimulateWorkloadPaths(t *testing.T) {
	for _, missing := range []string{"nowhere/psplib/j30", "w.yaml"} {
		code, _, errOut := runCapplan(t, "simulate", "-w", missing, "--policy", "drf")
		if code != exitFailure || !strings.Contains(errOut, missing+": no such file") || strings.Contains(errOut, "cluster") {
			t.Errorf("-w %s: exit %d, stderr %q: want %q, exit %d", missing, code, errOut, missing+": no such file", exitFailure)
		}
	}
	j30 := testdatasets.Need(t, "psplib/j30")
	code, out, errOut := runCapplan(t, "simulate", "-w", j30, "--wparam", "jobs=2", "--policy", "drf", "--json")
	if code != 0 {
		t.Fatalf("-w %s: exit %d: %s", j30, code, errOut)
	}
	var res plan.SimulationResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Workload.Jobs != 2 || res.Workload.Tasks != 60 {
		t.Errorf("W-PSP with jobs=2: %d jobs, %d tasks, want 2 and 60", res.Workload.Jobs, res.Workload.Tasks)
	}
}

// TestSimulateRejections: a job whose task no machine can hold is named
// with its demand on stderr before the run, and listed in the document.
func TestSimulateRejections(t *testing.T) {
	dir := t.TempDir()
	cluster := filepath.Join(dir, "c.yaml")
	work := filepath.Join(dir, "w.yaml")
	os.WriteFile(cluster, []byte("apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu]\nnodes:\n  - {name: node, count: 2, capacity: {cpu: 4}}\n"), 0o644)
	os.WriteFile(work, []byte(`apiVersion: capplan/v1
kind: Workload
jobs:
  - {name: ok, stages: [{name: s, tasks: 2, duration: 5, demand: {cpu: 2}}]}
  - {name: huge, stages: [{name: s, tasks: 1, duration: 5, demand: {cpu: 8}}]}
`), 0o644)
	code, out, errOut := runCapplan(t, "simulate", "-c", cluster, "-w", work, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "job huge: stage s task 0 demand {cpu: 8} fits no eligible machine") {
		t.Errorf("stderr %q", errOut)
	}
	var doc plan.SimulationResult
	_ = json.Unmarshal([]byte(out), &doc)
	if len(doc.Workload.Rejected) != 1 || doc.Summary.Finished != 1 {
		t.Errorf("rejected %+v finished %d", doc.Workload.Rejected, doc.Summary.Finished)
	}
}
