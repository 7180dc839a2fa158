package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/internal/testdatasets"
)

// BenchmarkPlan times a whole bundle, as `capplan plan` computes it:
// Plan, then every file rendered (export.BundleFiles), on the example
// (sizing with ExampleSizing and the default curve: 3 sizings, 3 DAGs)
// and on the openb GPU trace (1,523 nodes, 8,151 pods; no sizing), with
// the inputs already in memory (openb) or embedded (example).
//
//	go test ./pipeline -run '^$' -bench Plan -benchtime 3x
func BenchmarkPlan(b *testing.B) {
	b.Run("example", func(b *testing.B) {
		benchPlan(b, PlanOptions{Inputs: Inputs{Example: true}, Size: ExampleSizing})
	})
	b.Run("openb", func(b *testing.B) {
		root := testdatasets.Need(b, "alibaba-gpu-v2023-openb")
		nodes, pods := filepath.Join(root, "openb_node_list_all_node.csv"), filepath.Join(root, "openb_pod_list_gpuspec33.csv")
		nf, err := os.Open(nodes)
		if err != nil {
			b.Fatal(err)
		}
		defer nf.Close()
		pf, err := os.Open(pods)
		if err != nil {
			b.Fatal(err)
		}
		defer pf.Close()
		c, d, _, err := datasets.ParseOpenB(nodes, nf, pods, pf)
		if err != nil {
			b.Fatal(err)
		}
		benchPlan(b, PlanOptions{Inputs: Inputs{Cluster: c, Demand: d}})
	})
}

func benchPlan(b *testing.B, o PlanOptions) {
	o.K, o.Seed, o.Generator, o.CommandLine = 8, 1, "capplan bench", []string{"capplan", "plan"}
	for b.Loop() {
		res, err := Plan(o)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Warnings()) > 0 || res.Bundle.Ownership == nil {
			b.Fatalf("warnings %v", res.Warnings())
		}
		if _, err := export.BundleFiles(res.Bundle, res.Demand); err != nil {
			b.Fatal(err)
		}
	}
}
