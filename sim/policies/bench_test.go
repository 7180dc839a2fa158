package policies_test

import (
	"fmt"
	"runtime"
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
	for _, name := range []string{"fifo", "drf", "sjf", "srtf", "capacity", "cp", "tetris"} {
		b.Run(fmt.Sprintf("policy=%s/machines=1000/workload=synthfb", name), func(b *testing.B) {
			var events int64
			var ms0, ms1 runtime.MemStats
			b.ReportAllocs()
			b.ResetTimer()
			runtime.ReadMemStats(&ms0)
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
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(events), "allocs/event")
		})
	}
}

// BenchmarkSimMemory measures the simulator's memory on BenchmarkSim's
// cell against SIMULATE.md §6 (≤ 1 KiB per machine, ≤ 256 B per live
// task), from the live heap after a collection, less the heap before the
// run (the workload held by the benchmark): with a single one-task job on
// the 1,000 machines and on 2,000, the difference ÷ 1,000 is the bytes per
// machine; at the run's peak of live tasks, the heap less that of the
// one-task run, ÷ the live tasks, is the bytes per live task (everything
// the run grows besides machines: tasks, jobs, events, queues, and cp's
// alignment trees). One op is the three runs.
func BenchmarkSimMemory(b *testing.B) {
	c, us, jobs := synthFB(b)
	for _, name := range []string{"fifo", "drf", "sjf", "srtf", "capacity", "cp", "tetris"} {
		b.Run(fmt.Sprintf("policy=%s/machines=1000/workload=synthfb", name), func(b *testing.B) {
			var perMachine, perTask, peak float64
			for i := 0; i < b.N; i++ {
				one := []sim.Job{{Name: "one", Stages: []sim.Stage{{Name: "s", Tasks: 1, Duration: 10, Demand: jobs[0].Stages[0].Demand}}}}
				h1 := heapDuring(b, c, us, name, one, 1)
				c2, _, _ := synthFBMachines(b, 2000)
				h2 := heapDuring(b, c2, us, name, one, 1)
				res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(b, name, nil), Seed: 1, TickSeconds: 0.001},
					sim.NewSliceSource(jobs))
				if err != nil {
					b.Fatal(err)
				}
				peak = float64(res.Stats.PeakLiveTasks)
				hp := heapDuring(b, c, us, name, jobs, int64(res.Stats.PeakLiveTasks))
				perMachine = float64(h2-h1) / 1000
				perTask = float64(hp-h1) / peak
			}
			b.ReportMetric(perMachine, "B/machine")
			b.ReportMetric(perTask, "B/live-task")
			b.ReportMetric(peak, "peak-live-tasks")
		})
	}
}

// synthFBMachines returns the cluster of W-FB with n machines.
func synthFBMachines(b testing.TB, n int) (*sim.Cluster, []sim.User, *workloads.FB) {
	g, err := workloads.NewFB(workloads.FBParams{Jobs: 1, Load: 0.9, Machines: n, Seed: 1}, 0.001)
	if err != nil {
		b.Fatal(err)
	}
	return g.Cluster(), g.Users(), g
}

// heapDuring runs jobs and returns the live heap growth (after a
// collection) at the first arrival at which at least target tasks are
// live.
func heapDuring(b *testing.B, c *sim.Cluster, us []sim.User, name string, jobs []sim.Job, target int64) int64 {
	base := liveHeap()
	p := &memProbe{target: target, base: base, grown: -1}
	if _, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(b, name, nil), Seed: 1, TickSeconds: 0.001,
		Observers: []sim.Observer{p}}, sim.NewSliceSource(jobs)); err != nil {
		b.Fatal(err)
	}
	if p.grown < 0 {
		b.Fatalf("%s: never %d live tasks", name, target)
	}
	return p.grown
}

func liveHeap() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// memProbe samples the heap once live tasks reach target.
type memProbe struct {
	sim.NopObserver
	target, live, base int64
	grown              int64
	done               bool
}

func (p *memProbe) JobArrived(s *sim.State, j sim.JobID) {
	p.live += int64(s.Job(j).NumTasks())
	if !p.done && p.live >= p.target {
		p.done, p.grown = true, liveHeap()-p.base
	}
}

func (p *memProbe) JobFinished(s *sim.State, j sim.JobID) { p.live -= int64(s.Job(j).NumTasks()) }
