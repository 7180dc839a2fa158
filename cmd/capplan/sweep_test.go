package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capplan/capplan/plan"
)

// TestSweepCellIsSimulate checks that a cell's file is the document
// `capplan simulate` writes for the same run, byte for byte.
func TestSweepCellIsSimulate(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "sweep", "--example", "--policies", "tetris", "--param", "tetris.f=0.5", "--seeds", "2", "--loads", "0.7",
		"--noise", "0.3", "-o", dir)
	var doc plan.SimulationSweep
	data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.DecodeDocument("sweep.json", data, plan.KindSimulationSweep, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != 1 || doc.Cells[0].Variant != "tetris f=0.5" {
		t.Fatalf("cells %+v", doc.Cells)
	}
	cell, err := os.ReadFile(filepath.Join(dir, "cells", doc.Cells[0].ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := mustRun(t, "simulate", "--example", "--policy", "tetris", "--param", "tetris.f=0.5", "--seed", "2", "--load", "0.7",
		"--noise", "0.3", "--json")
	if out != string(cell) {
		t.Errorf("cell file and `capplan simulate --json` differ:\n%.300s\n---\n%.300s", cell, out)
	}
}

// TestSweepFile runs a sweep file with relative paths from another
// directory and checks the document's axes, inputs and aggregates, then
// the errors of a bad file.
func TestSweepFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"cluster.yaml", "demand.yaml", "workload.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../datasets/examples/simulate", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := filepath.Join(dir, "sweep.yaml")
	text := `apiVersion: capplan/v1
kind: Sweep
cluster: cluster.yaml
demand: demand.yaml
baseline: drf
noise: [0, 0.2]
workloads:
  - {file: workload.yaml, name: ex}
policies: [drf, sjf]
seeds: 1..3
`
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr := mustRun(t, "sweep", spec, "-o", out)
	if !strings.Contains(stderr, "12 cells: 12 simulated, 0 reused") {
		t.Errorf("stderr %q", stderr)
	}
	if !strings.Contains(stdout, "sweep of 12 cells (2 noise, 1 workload, 2 policy, 3 seed)") {
		t.Errorf("stdout %q", stdout)
	}
	var doc plan.SimulationSweep
	data, _ := os.ReadFile(filepath.Join(out, "sweep.json"))
	if err := plan.DecodeDocument("sweep.json", data, plan.KindSimulationSweep, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Inputs[0].Role != "sweep" || doc.Inputs[0].Path != spec || len(doc.Inputs) != 4 {
		t.Errorf("inputs %+v", doc.Inputs)
	}
	// noise is the outer axis: cells 0–5 at noise 0, 6–11 at 0.2.
	if doc.Cells[5].Noise != 0 || doc.Cells[6].Noise != 0.2 || doc.Cells[6].Variant != "drf" {
		t.Errorf("cell order: %+v / %+v", doc.Cells[5], doc.Cells[6])
	}
	if len(doc.Aggregates) != 4 {
		t.Fatalf("%d groups, want 4 (2 noise × 2 policies)", len(doc.Aggregates))
	}
	a := doc.Aggregates[1] // sjf at noise 0: three seeds paired with drf
	if a.Variant != "sjf" || len(a.Cells) != 3 || a.Metrics["fi.mean"].N != 3 || a.Metrics["avgJCT"].N != 3 {
		t.Errorf("aggregate %+v", a)
	}
	if _, ok := doc.Aggregates[0].Metrics["fi.mean"]; ok {
		t.Error("the baseline's own group has an FI")
	}
	// Rerun: every cell is reused, and the summary is the same bytes.
	_, stderr = mustRun(t, "sweep", spec, "-o", out)
	again, _ := os.ReadFile(filepath.Join(out, "sweep.json"))
	if !strings.Contains(stderr, "12 cells: 0 simulated, 12 reused") || !bytes.Equal(again, data) {
		t.Errorf("rerun: %q", stderr)
	}
	// Bad files: errors name the file and the field; nothing is written.
	bad := map[string]string{
		"policies:\n  - nosuch\n":            `policies[0]: unknown policy "nosuch"`,
		"seeds: 5..1\n":                      `seeds: the range "5..1" is empty`,
		"loads: [0.5, -1]\n":                 `loads[1]: must be a number ≥ 0, got -1`,
		"polices: [drf]\n":                   `polices: unknown field; did you mean "policies"?`,
		"workloads: [{file: nosuch.yaml}]\n": "nosuch.yaml: no such file",
	}
	for extra, want := range bad {
		b := strings.Replace(text, "policies: [drf, sjf]\n", "", 1)
		if !strings.Contains(extra, "polic") {
			b += "policies: [drf, sjf]\n"
		}
		if strings.HasPrefix(extra, "workloads") {
			b = strings.Replace(b, "workloads:\n  - {file: workload.yaml, name: ex}\n", "", 1)
		}
		if strings.HasPrefix(extra, "seeds") {
			b = strings.Replace(b, "seeds: 1..3\n", "", 1)
		}
		if err := os.WriteFile(spec, []byte(b+extra), 0o644); err != nil {
			t.Fatal(err)
		}
		o := filepath.Join(t.TempDir(), "o")
		code, _, errOut := runCapplan(t, "sweep", spec, "-o", o)
		if code == exitOK || !strings.Contains(errOut, want) || !strings.Contains(errOut, "sweep.yaml") {
			t.Errorf("%q: exit %d, stderr %q; want %q", extra, code, errOut, want)
		}
		if _, err := os.Stat(filepath.Join(o, "sweep.json")); !os.IsNotExist(err) {
			t.Errorf("%q: a summary was written", extra)
		}
	}
	// A file and axis flags together.
	code, _, errOut := runCapplan(t, "sweep", spec, "--policies", "fifo", "-o", out)
	if code != exitUsage || !strings.Contains(errOut, "not both (--policies)") {
		t.Errorf("file and flags: exit %d, %q", code, errOut)
	}
}

var sweepCountsRE = regexp.MustCompile(`(\d+) cells: (\d+) simulated, (\d+) reused`)

// TestSweepResumesAfterKill kills a sweep in a subprocess after some
// cells are written, reruns it and checks that the finished cells were
// reused, not recomputed (their files untouched, the count on stderr), and
// that the result equals an uninterrupted run's.
func TestSweepResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs a sweep in a subprocess")
	}
	args := []string{"sweep", "--workload", "fb", "--wparam", "jobs=1500", "--policies", "fifo,drf,srtf,cp", "--seeds", "1..3",
		"--baseline", "drf", "--workers", "1"}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], append(args, "-o", dir)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cells := filepath.Join(dir, "cells")
	done := func() []string {
		var names []string
		entries, _ := os.ReadDir(cells)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".json") {
				names = append(names, e.Name())
			}
		}
		return names
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(done()) < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	finished := done()
	if len(finished) < 3 || len(finished) >= 12 {
		t.Fatalf("killed with %d of 12 cells written; want some but not all (stderr: %s)", len(finished), errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep.json")); !os.IsNotExist(err) {
		t.Fatal("the killed sweep wrote its summary")
	}
	before := map[string]os.FileInfo{}
	contents := map[string][]byte{}
	for _, n := range finished {
		fi, err := os.Stat(filepath.Join(cells, n))
		if err != nil {
			t.Fatal(err)
		}
		before[n] = fi
		contents[n], _ = os.ReadFile(filepath.Join(cells, n))
		if !json.Valid(contents[n]) {
			t.Errorf("%s: not a whole JSON document after the kill", n)
		}
	}
	_, stderr := mustRun(t, append(args, "-o", dir)...)
	m := sweepCountsRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("stderr %q", stderr)
	}
	reused, _ := strconv.Atoi(m[3])
	ran, _ := strconv.Atoi(m[2])
	if m[1] != "12" || reused != len(finished) || ran != 12-len(finished) {
		t.Errorf("resumed: %s; want %d reused and %d simulated", m[0], len(finished), 12-len(finished))
	}
	for n, fi := range before {
		after, err := os.Stat(filepath.Join(cells, n))
		data, _ := os.ReadFile(filepath.Join(cells, n))
		if err != nil || !after.ModTime().Equal(fi.ModTime()) || !bytes.Equal(data, contents[n]) {
			t.Errorf("%s was written again", n)
		}
	}
	fresh := t.TempDir()
	mustRun(t, append(args[:len(args)-2], "-o", fresh)...)
	a, _ := os.ReadFile(filepath.Join(dir, "sweep.json"))
	b, _ := os.ReadFile(filepath.Join(fresh, "sweep.json"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the resumed sweep's summary differs from an uninterrupted run's")
	}
}

// TestSweepAnyGOMAXPROCS runs a sweep in subprocesses with GOMAXPROCS=1
// and 2 (and as many workers) and requires the same summary and cells.
func TestSweepAnyGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in subprocesses")
	}
	dir := t.TempDir()
	args := []string{"sweep", "--workload", "googlelike", "--wparam", "jobs=60,machines=100", "--policies", "fifo,drf,cp",
		"--baseline", "drf", "--seeds", "1..2", "--noise", "0,0.4"}
	capplanProcess(t, dir, "1", append(args, "--workers", "1", "-o", "one")...)
	capplanProcess(t, dir, "2", append(args, "--workers", "2", "-o", "two")...)
	files, _ := filepath.Glob(filepath.Join(dir, "one", "cells", "*.json"))
	if len(files) != 12 {
		t.Fatalf("%d cells, want 12", len(files))
	}
	for _, f := range append(files, filepath.Join(dir, "one", "sweep.json"), filepath.Join(dir, "one", "sweep.xlsx")) {
		rel, _ := filepath.Rel(filepath.Join(dir, "one"), f)
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(dir, "two", rel))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between GOMAXPROCS=1 and 2 (%v)", rel, err)
		}
	}
}
