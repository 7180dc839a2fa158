package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// runMainEnv, when set in the environment, makes the test binary run as
// capplan (see TestMain), so that a test can run the CLI in a subprocess
// with its own GOMAXPROCS.
const runMainEnv = "CAPPLAN_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(runMain(os.Args[1:], newIOStreams()))
	}
	os.Exit(m.Run())
}

// capplanProcess runs capplan in a subprocess with GOMAXPROCS=procs in
// dir and returns its stdout; a non-zero exit fails the test.
func capplanProcess(t *testing.T, dir string, procs string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "GOMAXPROCS="+procs)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("GOMAXPROCS=%s capplan %v: %v\n%s", procs, args, err, errOut.String())
	}
	return out.Bytes()
}

// TestSameOutputAnyGOMAXPROCS runs every planning command in a subprocess
// with GOMAXPROCS=1 and GOMAXPROCS=2 and requires byte-identical output:
// budgets count work, never time, and parallel work is merged in a fixed
// order.
func TestSameOutputAnyGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in subprocesses")
	}
	dir := t.TempDir()
	cluster, err := filepath.Abs("../../datasets/examples/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "demand.yaml"), []byte(sizingDemand), 0o644); err != nil {
		t.Fatal(err)
	}
	// The inputs the later commands read, written once.
	if err := os.WriteFile(filepath.Join(dir, "catalog.json"), capplanProcess(t, dir, "1", "shapes", "--example", "-k", "6", "--json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schedule.json"), capplanProcess(t, dir, "1", "dag", "schedule", "--example", "--method", "cp", "--json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"fairshare", "--example", "--json"},
		{"fairshare", "--example", "--integral", "--per-node", "--json"},
		{"shapes", "--example", "-k", "4", "--json"},
		{"shapes", "--example", "-k", "4", "--method", "local", "--json"},
		{"pack", "--example", "--shapes", "catalog.json", "--json"},
		{"pack", "--min-nodes", "-c", cluster, "-d", "demand.yaml", "--node-type", "std", "--json"},
		{"pack", "--min-nodes", "-c", cluster, "-d", "demand.yaml", "--node-type", "std=1,highmem=3.5", "--json"},
		{"dag", "schedule", "--example", "--json"},
		{"dag", "schedule", "--example", "--method", "graphene", "--compare", "cp,tetris", "--json"},
		{"dag", "bounds", "--example", "--json"},
		{"dag", "check", "--schedule", "schedule.json", "--example", "--json"},
	} {
		one := capplanProcess(t, dir, "1", args...)
		two := capplanProcess(t, dir, "2", args...)
		if len(one) == 0 {
			t.Errorf("%v: no output", args)
		}
		if !bytes.Equal(one, two) {
			t.Errorf("%v: output differs between GOMAXPROCS=1 (%d bytes) and GOMAXPROCS=2 (%d bytes)", args, len(one), len(two))
		}
	}
}

// TestPlanSimulationAnyGOMAXPROCS: the example's bundle (without the
// sizing, the slow step, which TestSameOutputAnyGOMAXPROCS covers as pack
// --min-nodes) gives the same simulated check, packing and index under
// GOMAXPROCS=1 and 2: the check's policies run side by side, each cell on
// one goroutine.
func TestPlanSimulationAnyGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in subprocesses")
	}
	var bundles [2]string
	for i, procs := range []string{"1", "2"} {
		dir := t.TempDir()
		capplanProcess(t, dir, procs, "plan", "--example", "--size", "", "-o", "bundle")
		bundles[i] = filepath.Join(dir, "bundle")
	}
	for _, f := range []string{"simulation.json", "packing.json", "plan.json", "figures/sim-shares-xschedule.svg"} {
		one, err := os.ReadFile(filepath.Join(bundles[0], f))
		if err != nil {
			t.Fatal(err)
		}
		two, _ := os.ReadFile(filepath.Join(bundles[1], f))
		if !bytes.Equal(one, two) {
			t.Errorf("%s differs between GOMAXPROCS=1 (%d bytes) and GOMAXPROCS=2 (%d bytes)", f, len(one), len(two))
		}
	}
}
