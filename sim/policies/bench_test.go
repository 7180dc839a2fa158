package policies_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
)

// cpuTime returns the process's user + system CPU time: on a shared
// machine it measures the work done, where wall time also counts waiting.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// synthFB returns W-FB at load 0.9 on 1,000 machines with about 100,000
// tasks (1,076 jobs), 1 ms ticks, generated from seed 1 into memory.
func synthFB(b testing.TB) (*sim.Cluster, []sim.User, []sim.Job) {
	g, err := workloads.NewFB(workloads.FBParams{Jobs: 1076, Load: 0.9, Machines: 1000, Seed: 1}, 0.001)
	if err != nil {
		b.Fatal(err)
	}
	var jobs []sim.Job
	for j, ok := g.Next(); ok; j, ok = g.Next() {
		jobs = append(jobs, j)
	}
	return g.Cluster(), g.Users(), jobs
}

// BenchmarkSim runs synthfb under each baseline policy (SIMULATE.md §6)
// and reports events per second of wall time and of CPU time, with the
// workload built before the timer.
func BenchmarkSim(b *testing.B) {
	c, us, jobs := synthFB(b)
	for _, name := range []string{"fifo", "drf", "sjf", "srtf", "capacity", "cp", "tetris", "choosy"} {
		b.Run(fmt.Sprintf("policy=%s/machines=1000/workload=synthfb", name), func(b *testing.B) {
			var events int64
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(b, name, nil), Seed: 1, TickSeconds: 0.001},
					sim.NewSliceSource(jobs))
				if err != nil {
					b.Fatal(err)
				}
				if res.Jobs[len(res.Jobs)-1].Finish < 0 || len(res.Jobs) != len(jobs) {
					b.Fatal("unfinished jobs")
				}
				events += res.Stats.Events
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
		})
	}
}
