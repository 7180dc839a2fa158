// Package testplans gives tests the plan documents capplan writes for its
// embedded example (datasets.ExampleFiles): a FairShare (also with the
// per-node assignment), a ShapeCatalog, an ownership PackingPlan, a sizing
// PackingPlan and a DAGSchedule.
//
// It builds the capplan command once per test binary and runs it, so the
// documents are exactly those users get, whatever package computes them.
// This is the one place tests make documents from the example: when the
// pipeline package exists, these functions can call it directly instead.
//
// It is imported only by tests. A test binary that uses it calls Main from
// its TestMain, which removes the built command and documents afterwards.
package testplans

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// Commands run for each document, relative to the work directory; each
// writes its document to the file named by the key.
var commands = map[string][]string{
	"fairshare.json":         {"fairshare", "--example", "-o", "fairshare.json"},
	"fairshare-pernode.json": {"fairshare", "--example", "--per-node", "-o", "fairshare-pernode.json"},
	"shapes.json":            {"shapes", "--example", "-k", "8", "-o", "shapes.json"},
	"ownership.json":         {"pack", "--example", "--shapes", "shapes.json", "-o", "ownership.json"},
	"sizing.json":            {"pack", "--min-nodes", "--example", "--node-type", "std=1,std-b=1,highmem=3.5,gpu=12,spot=0.4", "-o", "sizing.json"},
	"dag.json":               {"dag", "schedule", "--example", "-o", "dag.json"},
}

// needs lists the documents a command reads.
var needs = map[string][]string{"ownership.json": {"shapes.json"}, "openb-fairshare.json": {"openb"}}

// The openb inputs (capplan import openb), added to commands by OpenB.
const openbDir = "openb"

var (
	mu      sync.Mutex
	workDir string
	binary  string
	built   = map[string]bool{}
)

// Main runs the tests and removes what this package built.
func Main(m *testing.M) {
	code := m.Run()
	mu.Lock()
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	mu.Unlock()
	os.Exit(code)
}

// Path returns the path of the example document name (a key of commands,
// such as "fairshare.json"), building the command and the document on
// first use. A failure to build either fails the test.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if err := ensure(name); err != nil {
		tb.Fatalf("testplans: %v", err)
	}
	return filepath.Join(workDir, name)
}

func ensure(name string) error {
	args, ok := commands[name]
	if !ok {
		return fmt.Errorf("no example document %q", name)
	}
	if built[name] {
		return nil
	}
	if err := buildCommand(); err != nil {
		return err
	}
	for _, dep := range needs[name] {
		if err := ensure(dep); err != nil {
			return err
		}
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = workDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("capplan %v: %v: %s", args, err, stderr.String())
	}
	built[name] = true
	return nil
}

// buildCommand builds cmd/capplan into a temporary directory, once.
func buildCommand() error {
	if binary != "" {
		return nil
	}
	dir, err := os.MkdirTemp("", "capplan-testplans-")
	if err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	bin := filepath.Join(dir, "capplan")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/capplan")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("go build ./cmd/capplan: %v: %s", err, out)
	}
	workDir, binary = dir, bin
	return nil
}

// moduleRoot is the directory holding go.mod, above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// read decodes the example document name into v, of the given kind.
func read(tb testing.TB, name, kind string, v any) {
	tb.Helper()
	path := Path(tb, name)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("testplans: %v", err)
	}
	if err := plan.DecodeDocument(name, data, kind, v); err != nil {
		tb.Fatalf("testplans: %v", err)
	}
}

// FairShare is the example's FairShare (capplan fairshare --example).
func FairShare(tb testing.TB) *plan.FairShare {
	var d plan.FairShare
	read(tb, "fairshare.json", plan.KindFairShare, &d)
	return &d
}

// FairSharePerNode is the example's FairShare with --per-node.
func FairSharePerNode(tb testing.TB) *plan.FairShare {
	var d plan.FairShare
	read(tb, "fairshare-pernode.json", plan.KindFairShare, &d)
	return &d
}

// Shapes is the example's catalog of 8 shapes.
func Shapes(tb testing.TB) *plan.ShapeCatalog {
	var d plan.ShapeCatalog
	read(tb, "shapes.json", plan.KindShapeCatalog, &d)
	return &d
}

// Ownership is the example's ownership packing of those shapes.
func Ownership(tb testing.TB) *plan.PackingPlan {
	var d plan.PackingPlan
	read(tb, "ownership.json", plan.KindPackingPlan, &d)
	return &d
}

// Sizing is the example's cheapest node mix over five priced node types.
func Sizing(tb testing.TB) *plan.PackingPlan {
	var d plan.PackingPlan
	read(tb, "sizing.json", plan.KindPackingPlan, &d)
	return &d
}

// DAG is the schedules of the example workload's jobs.
func DAG(tb testing.TB) *plan.DAGSchedule {
	var d plan.DAGSchedule
	read(tb, "dag.json", plan.KindDAGSchedule, &d)
	return &d
}

// OpenB is the FairShare (with --per-node) of the Alibaba openb GPU
// inventory (openb_node_list_all_node.csv) with the openb pods
// (openb_pod_list_gpuspec33.csv) as demand, and that demand. It needs the
// shared datasets (testdatasets.Need: skipped locally without them, a
// failure under CI=true).
func OpenB(tb testing.TB) (*plan.FairShare, *datasets.Demand) {
	tb.Helper()
	root := testdatasets.Need(tb, "alibaba-gpu-v2023-openb")
	mu.Lock()
	commands[openbDir] = []string{"import", "openb",
		"--nodes", filepath.Join(root, "openb_node_list_all_node.csv"),
		"--pods", filepath.Join(root, "openb_pod_list_gpuspec33.csv"), openbDir}
	commands["openb-fairshare.json"] = []string{"fairshare", "-c", openbDir + "/cluster.yaml", "-d", openbDir + "/demand.yaml", "--per-node", "-o", "openb-fairshare.json"}
	mu.Unlock()
	var fs plan.FairShare
	read(tb, "openb-fairshare.json", plan.KindFairShare, &fs)
	d, err := datasets.LoadDemand(filepath.Join(workDir, openbDir, "demand.yaml"))
	if err != nil {
		tb.Fatalf("testplans: %v", err)
	}
	return &fs, d
}

// Demand is the example demand.
func Demand(tb testing.TB) *datasets.Demand {
	tb.Helper()
	d, err := datasets.ParseDemand("example:demand.yaml", datasets.ExampleFiles()["demand.yaml"])
	if err != nil {
		tb.Fatalf("testplans: %v", err)
	}
	return d
}

// NeedCommand returns the path of the external command name (such as
// xmllint or chromium). When it is not installed the test is skipped with
// a message saying how to install it, or, under CI=true, fails: a check
// that needs a real tool must never pass silently in CI.
func NeedCommand(tb testing.TB, name, install string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s is not installed (CI=true): %s", name, install)
	}
	tb.Skipf("%s is not installed; skipping (install it with: %s)", name, install)
	return ""
}
