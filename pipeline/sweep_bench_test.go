package pipeline

import (
	"fmt"
	"testing"

	"github.com/capplan/capplan/datasets"
)

// BenchmarkSweepWorkers runs a 40-cell sweep (W-FB with 1,500 jobs, 4
// policies × 10 seeds, paired with drf) with a fresh cell store, on 1 and
// 2 workers: the speed-up of local parallel cells is the ratio of the two
// times. Run it with -cpu 2 on an otherwise idle machine (README,
// Benchmarks).
func BenchmarkSweepWorkers(b *testing.B) {
	s, err := datasets.ParseSweep("bench.yaml", []byte(`apiVersion: capplan/v1
kind: Sweep
baseline: drf
workloads: [{generator: fb, params: {jobs: 1500}}]
policies: [fifo, drf, srtf, tetris]
seeds: 1..10
`))
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("cells=40/workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				res, err := Sweep(SweepOptions{Spec: s, Store: newMemStore(), Workers: workers, Generator: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				if res.Ran != 40 {
					b.Fatalf("%d cells simulated, want 40", res.Ran)
				}
			}
		})
	}
}
