// Package pipelinetest gives tests the plan documents capplan writes for its
// embedded example (datasets.ExampleFiles): a FairShare (also with the
// per-node assignment), a ShapeCatalog, an ownership PackingPlan, a sizing
// PackingPlan, a DAGSchedule and the plan's simulated check (a
// SimulationSet), and the FairShare of the Alibaba openb GPU trace.
//
// It computes them with the pipeline functions the commands call, with
// the commands' default options, so the documents are those users get
// (only the generator differs: "capplan test"). Each is computed once per
// test binary; callers must not modify them.
//
// It is imported only by tests. A test binary that uses it may call Main
// from its TestMain.
package pipelinetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
)

// generator names the tool in the documents made here.
const generator = "capplan test"

// exampleSizing is the node types and prices of the example's sizing:
// `capplan pack --min-nodes --example --node-type …`.
const exampleSizing = "std=1,std-b=1,highmem=3.5,gpu=12,spot=0.4"

// once computes a document on first use and keeps it (or its error).
type once[T any] struct {
	sync.Once
	doc *T
	err error
}

func (o *once[T]) get(tb testing.TB, make func() (*T, error)) *T {
	tb.Helper()
	o.Do(func() { o.doc, o.err = make() })
	if o.err != nil {
		tb.Fatalf("pipelinetest: %v", o.err)
	}
	return o.doc
}

var (
	fairShare, fairSharePerNode once[plan.FairShare]
	shapes                      once[plan.ShapeCatalog]
	ownership, sizing           once[plan.PackingPlan]
	dagSchedule                 once[plan.DAGSchedule]
	simulation                  once[plan.SimulationSet]
)

// example are the embedded example's inputs.
var example = pipeline.Inputs{Example: true}

// Main runs the tests (kept for the test binaries' TestMain; nothing is
// left to clean up).
func Main(m *testing.M) { os.Exit(m.Run()) }

// FairShare is the example's FairShare (capplan fairshare --example).
func FairShare(tb testing.TB) *plan.FairShare {
	return fairShare.get(tb, func() (*plan.FairShare, error) {
		r, err := pipeline.FairShare(pipeline.FairShareOptions{Inputs: example, Generator: generator})
		if err != nil {
			return nil, err
		}
		return r.Doc, nil
	})
}

// FairSharePerNode is the example's FairShare with --per-node.
func FairSharePerNode(tb testing.TB) *plan.FairShare {
	return fairSharePerNode.get(tb, func() (*plan.FairShare, error) {
		r, err := pipeline.FairShare(pipeline.FairShareOptions{Inputs: example, PerNode: true, Generator: generator})
		if err != nil {
			return nil, err
		}
		return r.Doc, nil
	})
}

// Shapes is the example's catalog of 8 shapes (capplan shapes --example
// -k 8: ptas, ε 0.1, seed 1).
func Shapes(tb testing.TB) *plan.ShapeCatalog {
	return shapes.get(tb, func() (*plan.ShapeCatalog, error) {
		r, err := pipeline.Shapes(pipeline.ShapesOptions{Inputs: example, K: 8, Eps: 0.1, Seed: 1, Generator: generator})
		if err != nil {
			return nil, err
		}
		return r.Doc, nil
	})
}

// Ownership is the example's ownership packing of those shapes (capplan
// pack --example --shapes shapes.json).
func Ownership(tb testing.TB) *plan.PackingPlan {
	cat := Shapes(tb)
	return ownership.get(tb, func() (*plan.PackingPlan, error) {
		r, err := pipeline.Pack(pipeline.PackOptions{Inputs: example, Catalog: cat, ShapesPath: "shapes.json", Seed: 1, Generator: generator})
		if err != nil {
			return nil, err
		}
		return r.Doc, nil
	})
}

// Sizing is the example's cheapest node mix over five priced node types.
func Sizing(tb testing.TB) *plan.PackingPlan {
	return sizing.get(tb, func() (*plan.PackingPlan, error) {
		return pipeline.Size(pipeline.SizeOptions{Inputs: example, NodeTypes: exampleSizing, Seed: 1, Generator: generator})
	})
}

// DAG is the schedules of the example workload's jobs (capplan dag
// schedule --example).
func DAG(tb testing.TB) *plan.DAGSchedule {
	return dagSchedule.get(tb, func() (*plan.DAGSchedule, error) {
		r, err := pipeline.DAGSchedule(pipeline.DAGScheduleOptions{Input: pipeline.DAGInput{Example: true}, Seed: 1, Generator: generator})
		if err != nil {
			return nil, err
		}
		return r.Doc, nil
	})
}

// Simulation is the simulated check of the example's plan: the example
// workload on the containers of Ownership, under the default policies
// (xschedule paired with drf), as `capplan plan --example` writes it.
func Simulation(tb testing.TB) *plan.SimulationSet {
	own := Ownership(tb)
	return simulation.get(tb, func() (*plan.SimulationSet, error) {
		packing, err := plan.EncodeDocument(own)
		if err != nil {
			return nil, err
		}
		return pipeline.PlanSimulate(pipeline.PlanSimulateOptions{Example: true, Packing: packing,
			Policies: pipeline.DefaultSimulatePolicies, Baseline: pipeline.DefaultSimulateBaseline, Seed: 1, Generator: generator})
	})
}

// openb is the openb FairShare and demand.
var openb struct {
	sync.Once
	fs  *plan.FairShare
	d   *datasets.Demand
	err error
}

// OpenB is the FairShare (with --per-node) of the Alibaba openb GPU
// inventory (openb_node_list_all_node.csv) with the openb pods
// (openb_pod_list_gpuspec33.csv) as demand, as `capplan import openb`
// converts them, and that demand. It needs the shared datasets
// (testdatasets.Need: skipped locally without them, a failure under
// CI=true).
func OpenB(tb testing.TB) (*plan.FairShare, *datasets.Demand) {
	tb.Helper()
	root := testdatasets.Need(tb, "alibaba-gpu-v2023-openb")
	openb.Do(func() {
		nodesPath := filepath.Join(root, "openb_node_list_all_node.csv")
		podsPath := filepath.Join(root, "openb_pod_list_gpuspec33.csv")
		nf, err := os.Open(nodesPath)
		if err != nil {
			openb.err = err
			return
		}
		defer nf.Close()
		pf, err := os.Open(podsPath)
		if err != nil {
			openb.err = err
			return
		}
		defer pf.Close()
		c, d, _, err := datasets.ParseOpenB(nodesPath, nf, podsPath, pf)
		if err != nil {
			openb.err = err
			return
		}
		r, err := pipeline.FairShare(pipeline.FairShareOptions{Inputs: pipeline.Inputs{Cluster: c, Demand: d}, PerNode: true, Generator: generator})
		if err != nil {
			openb.err = err
			return
		}
		openb.fs, openb.d = r.Doc, d
	})
	if openb.err != nil {
		tb.Fatalf("pipelinetest: openb: %v", openb.err)
	}
	return openb.fs, openb.d
}

// Demand is the example demand.
func Demand(tb testing.TB) *datasets.Demand {
	tb.Helper()
	d, err := datasets.ParseDemand("example:demand.yaml", datasets.ExampleFiles()["demand.yaml"])
	if err != nil {
		tb.Fatalf("pipelinetest: %v", err)
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
