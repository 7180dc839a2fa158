package sim_test

import (
	"fmt"
	"testing"

	"github.com/capplan/capplan/sim"
)

// TestDevicesFit: GPUs of 1000 milli fit device by device (SIMULATE.md
// §2.3). Each case is one machine with 2 GPUs and one-task jobs arriving
// at 0 in order, each of the given milli-GPUs and lasting 10 ticks; the
// greedy policy places them first-fit in order. want is the start tick of
// every job.
func TestDevicesFit(t *testing.T) {
	cases := []struct {
		name string
		gpus []int64
		want []sim.Tick
	}{
		// 600 → GPU 0 (400 left), 600 → GPU 1 (400 left): 800 milli are
		// free in total, but 700 fits no single GPU: it waits until 10.
		{"fractional", []int64{600, 600, 700}, []sim.Tick{0, 0, 10}},
		// 500 → GPU 0; the next 500 goes best-fit to GPU 0 (500 free, the
		// least that holds it), which keeps GPU 1 whole for the 1000.
		{"best fit keeps whole devices", []int64{500, 500, 1000}, []sim.Tick{0, 0, 0}},
		// 300 on GPU 0 leaves one whole GPU: a 2-GPU task waits, although
		// 1700 milli are free.
		{"whole devices", []int64{300, 2000}, []sim.Tick{0, 10}},
		// 2 whole GPUs, then nothing fits until they end.
		{"two whole", []int64{2000, 100}, []sim.Tick{0, 10}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &sim.Cluster{Resources: []string{"gpu"}, Machines: []sim.Machine{{Name: "m", Cap: sim.Vec{2000}, Node: -1, Owner: sim.NoUser}},
				Devices: &sim.Devices{Resource: 0, PerDevice: 1000}}
			var jobs []sim.Job
			for i, g := range tc.gpus {
				jobs = append(jobs, sim.Job{Name: fmt.Sprint(i), Stages: []sim.Stage{stage("s", 1, 10, g)}})
			}
			res := run(t, c, users(1), &greedy{}, jobs)
			for i, j := range res.Jobs {
				if j.Start != tc.want[i] {
					t.Errorf("job %d (%d milli) starts at %d, want %d", i, tc.gpus[i], j.Start, tc.want[i])
				}
			}
		})
	}
}
