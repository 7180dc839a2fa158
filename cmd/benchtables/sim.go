package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// simTables prints the simulator's speed (SIMULATE.md §6): per policy, the
// events per second of the simulation loop alone on W-FB at load 0.9 on
// 1,000 machines (about 100,000 tasks, generated before the timer; on one
// core, the run of median CPU time of simLoopRuns, and the best run: on a
// shared machine other tenants only ever slow a run, so the best run is
// the closest to the code's own speed, Chen & Revels, "Robust
// benchmarking in noisy environments", 2016), with
// the heap allocations per event (ALLOC/EVENT: all of the run's
// allocations, arrivals included, over its events) and the peak RSS of
// the same cell run end to end by the capplan binary; then
// end-to-end runs of the binary: the Alibaba v2018 sample replayed with
// trace arrivals per policy, and a 1-million-task W-FB on 4,000 machines
// under --compare fifo,drf,tetris. Wall times on a shared machine count
// waiting too, so the loop is also measured in CPU time.
func simTables(quick bool) error {
	bin, dir, err := buildCapplan("capplan-simbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := simLoopTable(quick, bin, dir); err != nil {
		return err
	}
	return simProcessTable(quick, bin, dir)
}

// simLoopRuns is how many times the loop table runs each policy. The
// runs go round the policies (policy after policy, then again), so that a
// spell of load from other tenants of a shared machine slows a run of
// each policy instead of all the runs of one.
const simLoopRuns = 9

// simLoopRun is one timed run of the loop table.
type simLoopRun struct {
	stats     sim.Stats
	wall, cpu time.Duration
	mallocs   uint64
}

// simLoopRound runs each named policy once on one core, as SIMULATE.md §6
// measures, appending the runs to runs[name].
func simLoopRound(names []string, runs map[string][]simLoopRun, c *sim.Cluster, us []sim.User, jobs []sim.Job) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, name := range names {
		pol, err := policies.New(name, nil)
		if err != nil {
			return err
		}
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		cpu0, t0 := cpuTime(), time.Now()
		res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: pol, Seed: 1, TickSeconds: 0.001}, sim.NewSliceSource(jobs))
		if err != nil {
			return err
		}
		wall, cpu := time.Since(t0), cpuTime()-cpu0
		runtime.ReadMemStats(&ms1)
		runs[name] = append(runs[name], simLoopRun{res.Stats, wall, cpu, ms1.Mallocs - ms0.Mallocs})
	}
	return nil
}

// simLoopJobs is the W-FB size of the loop table: 1,076 jobs are about
// 100,000 tasks (E[tasks/job] = 92.9).
const simLoopJobs = 1076

func simLoopTable(quick bool, bin, dir string) error {
	t := reports.Table{Title: "Simulator loop: W-FB at load 0.9, 1 ms ticks, seed 1 (loop timed alone on one core, GOMAXPROCS=1, 9 runs per policy taken in turns: the run of median CPU time, and the best; RSS of `capplan simulate` on the same cell)",
		Header: []string{"POLICY", "WORKLOAD", "MACHINES", "TASKS", "EVENTS", "EVENTS/S", "EVENTS/CPU-S", "BEST EVENTS/CPU-S", "PLACEMENTS/S", "ALLOC/EVENT", "PEAK LIVE TASKS", "PEAK RSS"}}
	for range t.Header {
		t.Align = append(t.Align, reports.AlignRight)
	}
	t.Align[0], t.Align[1] = reports.AlignLeft, reports.AlignLeft
	g, err := workloads.NewFB(workloads.FBParams{Jobs: simLoopJobs, Load: 0.9, Machines: 1000, Seed: 1}, 0.001)
	if err != nil {
		return err
	}
	var jobs []sim.Job
	var tasks int
	for j, ok := g.Next(); ok; j, ok = g.Next() {
		jobs = append(jobs, j)
		tasks += j.NumTasks()
	}
	names := []string{"fifo", "capacity", "drf", "sjf", "srtf", "cp", "tetris", "tetrisfair"}
	if quick {
		names = []string{"fifo", "drf", "tetris"}
	}
	runs := make(map[string][]simLoopRun)
	for range simLoopRuns {
		if err := simLoopRound(names, runs, g.Cluster(), g.Users(), jobs); err != nil {
			return err
		}
	}
	for _, name := range names {
		rs := runs[name]
		slices.SortFunc(rs, func(a, b simLoopRun) int { return cmp.Compare(a.cpu, b.cpu) })
		r, best := rs[len(rs)/2], rs[0]
		st, wall, cpu := r.stats, r.wall, r.cpu
		_, rss, err := runCapplan(bin, "simulate", "--workload", "fb", "--wparam", fmt.Sprintf("jobs=%d,machines=1000", simLoopJobs),
			"--load", "0.9", "--policy", name, "-o", filepath.Join(dir, "out.json"))
		if err != nil {
			return err
		}
		t.Rows = append(t.Rows, []string{name, "synthfb", "1000", fmt.Sprint(tasks), fmt.Sprint(st.Events),
			rate(st.Events, wall), rate(st.Events, cpu), rate(best.stats.Events, best.cpu), rate(st.Placements, wall), fmt.Sprintf("%.2f", float64(r.mallocs)/float64(st.Events)),
			fmt.Sprint(st.PeakLiveTasks), mib(uint64(rss))})
	}
	return render(t)
}

func simProcessTable(quick bool, bin, dir string) error {
	t := reports.Table{Title: "capplan simulate end to end (wall time includes loading or generating the workload)",
		Header: []string{"POLICIES", "WORKLOAD", "MACHINES", "TASKS", "EVENTS", "WALL TIME", "EVENTS/S", "PEAK LIVE TASKS", "PEAK RSS"}}
	for range t.Header {
		t.Align = append(t.Align, reports.AlignRight)
	}
	t.Align[0], t.Align[1] = reports.AlignLeft, reports.AlignLeft
	out := filepath.Join(dir, "out.json")
	type cell struct {
		policies, workload string
		args               []string
	}
	var cells []cell
	ali := filepath.Join(sharedDatasets, "alibaba-v2018", "batch_task_dag_sample_hliangzhao.csv")
	if _, err := os.Stat(ali); err == nil {
		for _, p := range []string{"fifo", "drf", "tetris"} {
			cells = append(cells, cell{p, "W-ALI trace", []string{"-w", ali, "--policy", p, "--tick", "1s"}})
		}
	} else {
		fmt.Fprintf(os.Stderr, "benchtables: %s absent: no W-ALI rows\n", ali)
	}
	if !quick {
		// 13,500 jobs: about 1,000,000 tasks with seed 1 (the heavy-tailed
		// size bins put the sample mean below E[tasks/job] = 92.9)
		cells = append(cells, cell{"fifo,drf,tetris", "fb 1M tasks", []string{"--workload", "fb", "--wparam", "jobs=13500,machines=4000",
			"--load", "0.9", "--policy", "fifo", "--compare", "drf,tetris", "--workers", "2"}})
	}
	for _, c := range cells {
		wall, rss, err := runCapplan(bin, append([]string{"simulate", "-o", out}, c.args...)...)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		var set plan.SimulationSet
		if err := json.Unmarshal(data, &set); err != nil {
			return err
		}
		var events, live int64
		runs := set.Runs
		if len(runs) == 0 { // a single-policy SimulationResult
			var one plan.SimulationResult
			if err := json.Unmarshal(data, &one); err != nil {
				return err
			}
			runs = []plan.SimulationRun{one.SimulationRun}
		}
		for _, r := range runs {
			events += r.Stats.Events
			live = max(live, r.Stats.PeakLiveTasks)
		}
		t.Rows = append(t.Rows, []string{c.policies, c.workload, fmt.Sprint(set.Cluster.Machines), fmt.Sprint(set.Workload.Tasks),
			fmt.Sprint(events), wall.Round(10 * time.Millisecond).String(), rate(events, wall), fmt.Sprint(live), mib(uint64(rss))})
	}
	return render(t)
}

// runCapplan runs the binary and returns its wall time and peak RSS.
func runCapplan(bin string, args ...string) (time.Duration, int64, error) {
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	var rss int64
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss * 1024
		}
	}
	if err != nil {
		return wall, rss, fmt.Errorf("capplan %v: %w: %s", args, err, stderr.String())
	}
	return wall, rss, nil
}

// buildCapplan builds the capplan binary into a new temporary directory
// named after prefix and returns the binary's path and the directory,
// which the caller removes (on an error nothing is left behind).
func buildCapplan(prefix string) (bin, dir string, err error) {
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "capplan")
	build := exec.Command("go", "build", "-o", bin, "./cmd/capplan")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("building capplan: %w", err)
	}
	return bin, dir, nil
}

// cpuTime returns this process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rate formats n per second of d.
func rate(n int64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(n)/d.Seconds())
}
