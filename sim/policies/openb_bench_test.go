package policies_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/sim"
)

// openbReplay builds W-OPENB from the shared trace (all 1,523 nodes, the
// gpuspec33 pods) with the given copies, 1 ms ticks, seed 1.
func openbReplay(tb testing.TB, copies int) *workloads.OpenB {
	dir := testdatasets.Need(tb, "alibaba-gpu-v2023-openb")
	nf, err := os.Open(filepath.Join(dir, "openb_node_list_all_node.csv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer nf.Close()
	pf, err := os.Open(filepath.Join(dir, "openb_pod_list_gpuspec33.csv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer pf.Close()
	c, err := datasets.ParseOpenBCluster("nodes", nf)
	if err != nil {
		tb.Fatal(err)
	}
	pods, err := datasets.ParseOpenBPods("pods", pf)
	if err != nil {
		tb.Fatal(err)
	}
	ob, err := workloads.NewOpenB(c, pods, workloads.OpenBParams{Copies: copies, Seed: 1}, 0.001)
	if err != nil {
		tb.Fatal(err)
	}
	return ob
}

// BenchmarkOpenB replays W-OPENB (copies=10: 72,540 pods on 1,523 nodes,
// GPUs fitted device by device) under fifo (first and align), drf and
// choosy, and reports placements per second of the simulation loop
// (SIMULATE.md §6: ≥ 50,000), the workload built before the timer.
func BenchmarkOpenB(b *testing.B) {
	ob := openbReplay(b, 10)
	for _, pc := range []struct {
		name string
		args map[string]string
	}{{"fifo", nil}, {"fifo", map[string]string{"place": "align"}}, {"drf", nil}, {"choosy", nil}} {
		label := pc.name
		if pc.args != nil {
			label += "-align"
		}
		b.Run(fmt.Sprintf("policy=%s/workload=openb/copies=10", label), func(b *testing.B) {
			var placements int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := sim.Run(sim.Config{Cluster: ob.Cluster, Users: ob.Users, Policy: mustPolicy(b, pc.name, pc.args), Seed: 1,
					TickSeconds: 0.001}, sim.NewSliceSource(ob.Jobs))
				if err != nil {
					b.Fatal(err)
				}
				if res.Stats.Placements < int64(len(ob.Jobs))-int64(len(res.Rejected)) {
					b.Fatal("pods left unplaced")
				}
				placements += res.Stats.Placements
			}
			b.ReportMetric(float64(placements)/b.Elapsed().Seconds(), "placements/s")
		})
	}
}

// TestOpenBReplay replays W-OPENB once under fifo with the invariants
// checked (GPUs device by device included): every pod of the trace that
// was scheduled runs (one rejected: it asks for more than any node has).
func TestOpenBReplay(t *testing.T) {
	ob := openbReplay(t, 1)
	res, err := sim.Run(sim.Config{Cluster: ob.Cluster, Users: ob.Users, Policy: mustPolicy(t, "fifo", nil), Seed: 1, TickSeconds: 0.001,
		Check: true}, sim.NewSliceSource(ob.Jobs))
	if err != nil {
		t.Fatal(err)
	}
	if ob.Dropped != 897 || len(ob.Jobs) != 8152-897 {
		t.Errorf("%d pods kept, %d dropped; want 7255 and 897 (SIMULATE.md §2.3)", len(ob.Jobs), ob.Dropped)
	}
	finished := 0
	for _, j := range res.Jobs {
		if j.Finish >= 0 {
			finished++
		}
	}
	if finished+len(res.Rejected) != len(ob.Jobs) {
		t.Errorf("%d finished and %d rejected of %d", finished, len(res.Rejected), len(ob.Jobs))
	}
}
