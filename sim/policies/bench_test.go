package policies_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
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

// BenchmarkSim runs synthfb under each policy (SIMULATE.md §6) and reports
// events per second of wall time and of CPU time, with the workload built
// before the timer; then the same policies on a loaded workload: the
// first 600 W-ALI jobs on 1,000 machines with Poisson arrivals at load
// 0.8 (synthfb keeps 1,000 machines about 3% busy, so no policy has a
// choice to make there). Graphene's preferred orders are built before the
// timer too (their time is reported apart as build-s/op, SIMULATE.md §6:
// "orders prebuilt; build time reported apart").
func BenchmarkSim(b *testing.B) {
	c, us, jobs := synthFB(b)
	for _, name := range []string{"fifo", "drf", "sjf", "srtf", "capacity", "cp", "tetris", "carbyne", "graphene", "choosy"} {
		benchSim(b, name, "synthfb", c, us, jobs, 0.001)
	}
	c, us, jobs = wali(b, 0.8, 600)
	c = scaleCluster(c, 1000)
	total := make(sim.Vec, len(c.Resources))
	for _, m := range c.Machines {
		for d, x := range m.Cap {
			total[d] += x
		}
	}
	workloads.PoissonArrivals(jobs, total, 0.8, 1, 1)
	for _, name := range []string{"drf", "tetris", "carbyne", "graphene"} {
		benchSim(b, name, "wali0.8-600", c, us, jobs, 1)
	}
}

// scaleCluster returns c with n machines like its first.
func scaleCluster(c *sim.Cluster, n int) *sim.Cluster {
	out := &sim.Cluster{Resources: c.Resources, Quanta: c.Quanta}
	for i := 0; i < n; i++ {
		m := c.Machines[0]
		m.Name = fmt.Sprintf("m%d", i)
		out.Machines = append(out.Machines, m)
	}
	return out
}

func benchSim(b *testing.B, name, wl string, c *sim.Cluster, us []sim.User, jobs []sim.Job, tick float64) {
	b.Run(fmt.Sprintf("policy=%s/machines=%d/workload=%s", name, len(c.Machines), wl), func(b *testing.B) {
		run := jobs
		var build time.Duration
		if name == "graphene" { // orders outside the timed loop
			t0 := time.Now()
			run = prebuiltOrders(b, mustPolicy(b, name, nil), jobs, c, us, tick)
			build = time.Since(t0)
		}
		var events int64
		var ms0, ms1 runtime.MemStats
		b.ReportAllocs()
		b.ResetTimer()
		runtime.ReadMemStats(&ms0)
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(b, name, nil), Seed: 1, TickSeconds: tick},
				sim.NewSliceSource(run))
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
		if build > 0 {
			b.ReportMetric(build.Seconds(), "build-s/op")
		}
	})
}

// prebuiltOrders returns the jobs with the preferred orders policy p
// builds ahead of a run.
func prebuiltOrders(b *testing.B, p sim.Policy, jobs []sim.Job, c *sim.Cluster, us []sim.User, tick float64) []sim.Job {
	src := policies.Prepare(p, sim.NewSliceSource(jobs), c, us, tick, 0)
	var out []sim.Job
	for j, ok := src.Next(); ok; j, ok = src.Next() {
		out = append(out, j)
	}
	if len(out) != len(jobs) {
		b.Fatal("prepared source lost jobs")
	}
	return out
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
