package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// onlineTables prints the Carbyne and Graphene papers' experiments on our
// workloads (SIMULATE.md §5.1, §5.2), each with the paper's figures next
// to ours: Carbyne against DRF, SJF and Tetris; its sensitivity to the
// altruism knob and to estimate noise; online Graphene against Tez, Tez+CP
// and Tez+Tetris. Every cell runs through pipeline.Simulate, as `capplan
// simulate` does; seed 1, noise 0 unless stated.
func onlineTables(quick bool) error {
	ali := filepath.Join(sharedDatasets, "alibaba-v2018", "batch_task_dag_sample_hliangzhao.csv")
	psp := filepath.Join(sharedDatasets, "psplib", "j30")
	haveData := true
	if _, err := os.Stat(ali); err != nil {
		haveData = false
		fmt.Println("online tables: the shared datasets were not found (set CAPPLAN_DATASETS): W-FB only")
		fmt.Println()
	}
	var wls []onlineWorkload
	if haveData {
		wali := onlineWorkload{name: "W-ALI@0.8", path: ali, load: 0.8, tick: 1}
		if quick {
			wali.name, wali.params = "W-ALI@0.8 (first 600 jobs)", map[string]string{"jobs": "600"}
		}
		wls = append(wls, wali)
	}
	fb := onlineWorkload{name: "W-FB", workload: "fb", tick: 0.001}
	if quick {
		fb.name, fb.params = "W-FB (1,000 jobs)", map[string]string{"jobs": "1000"}
	}
	wls = append(wls, fb)
	if haveData {
		// the 480 J30 projects sort before the directory's two solution
		// lists (j30hrs.sm, j30opt.sm), which are not projects
		wpsp := onlineWorkload{name: "W-PSP@0.8 (480 J30 projects, 10 machines)", path: psp, load: 0.8, tick: 1,
			params: map[string]string{"jobs": "480"}}
		if quick {
			wpsp.name, wpsp.params["jobs"] = "W-PSP@0.8 (120 J30 projects, 10 machines)", "120"
		}
		wls = append(wls, wpsp)
	}
	for _, w := range wls {
		if err := carbyneTable(w); err != nil {
			return err
		}
	}
	if haveData {
		if err := carbyneSensitivity(quick, ali); err != nil {
			return err
		}
	}
	gwls := []onlineWorkload{}
	if haveData {
		gwls = append(gwls, wls[0], onlineWorkload{name: "W-ALI-deep@0.8 (stage depth ≥ 3)", path: ali, load: 0.8, tick: 1,
			params: map[string]string{"mindepth": "3"}})
	}
	gwls = append(gwls, fb)
	for _, w := range gwls {
		if err := grapheneTable(w); err != nil {
			return err
		}
	}
	return nil
}

// onlineWorkload is a workload of the online tables: a file (-w) or a
// generator (--workload), its parameters, load and tick.
type onlineWorkload struct {
	name, path, workload string
	params               map[string]string
	load, tick           float64
}

// simulate runs policies on w with a baseline, through the pipeline.
func (w onlineWorkload) simulate(policies []string, params map[string]map[string]string, baseline string, noise float64, workers int) (*plan.SimulationSet, time.Duration, error) {
	t0 := time.Now()
	set, err := pipeline.Simulate(pipeline.SimulateOptions{WorkloadPath: w.path, Workload: w.workload, WorkloadParams: w.params,
		Policies: policies, PolicyParams: params, Baseline: baseline, Seed: 1, Load: w.load, Noise: noise, TickSeconds: w.tick,
		Workers: workers, Generator: "benchtables"})
	return set, time.Since(t0), err
}

// carbynePaper are Carbyne's offline TPC-DS figures on 100 machines
// (Figs. 1 and 4, decoded from the bars; SIMULATE.md §5.1), FI vs DRF
// from Table 4 (simulated TPC-DS; Facebook on 3,000 machines in the
// note), slowed jobs from §5.2.3.
var carbynePaper = [][]string{
	{"paper drf", "1224", "", "5478", "0.86", "", "", "", "", "-", "-", "-", "-"},
	{"paper carbyne", "814", "", "4492", "0.81", "1.17", "1.59", "2.73", "7.67", "1.50", "16%", "4%", "0.62"},
	{"paper tetris", "1123", "", "4356", "0.74", "", "", "", "", "1.09", "", "", ""},
	{"paper sjf", "769", "", "6210", "0.64", "", "", "", "", "1.59", "", "", ""},
}

// carbyneTable: Carbyne against DRF, SJF and Tetris on one workload, and
// Carbyne at P = 0 (job-level DRF with Carbyne's placement, exactly), so
// that what altruism adds shows apart from what job-level shares and
// aligned placement add.
func carbyneTable(w onlineWorkload) error {
	set, took, err := w.simulate([]string{"drf", "sjf", "tetris", "carbyne"}, nil, "drf", 0, 2)
	if err != nil {
		return err
	}
	p0, took0, err := w.simulate([]string{"carbyne"}, map[string]map[string]string{"carbyne": {"altruism": "0"}}, "", 0, 1)
	if err != nil {
		return err
	}
	took += took0
	zero := p0.Runs[0]
	zero.Policy.Name = "carbyne P=0"
	zero.Compare = plan.Compare("drf", &set.Runs[0], &zero)
	set.Runs = append(set.Runs, zero)
	t := reports.Table{Title: fmt.Sprintf("Carbyne vs DRF, SJF, Tetris on %s (%s, %d tasks, %d machines; FI = JCT(drf)/JCT(policy); %v for the 5 runs)",
		w.name, jobsRun(set.Workload), set.Workload.Tasks, set.Cluster.Machines, took.Round(100*time.Millisecond)),
		Header: []string{"POLICY", "AVG JCT", "MEDIAN JCT", "MAKESPAN", "JAIN 60S", "FI P25", "FI P50", "FI P75", "FI P95",
			"DRF/POLICY AVG JCT", "SLOWED", "BELOW 0.8×", "MIN FI"}}
	alignRight(&t)
	for _, r := range set.Runs {
		row := []string{r.Policy.Name, f1(r.Summary.AvgJCT), f1(r.Summary.MedianJCT), f1(r.Summary.Makespan), f3(r.Summary.Jain["60s"].Mean)}
		if c := r.Compare; c != nil {
			row = append(row, f2(c.FI.P25), f2(c.FI.P50), f2(c.FI.P75), f2(c.FI.P95), f2(c.AvgJCTRatio), pct(c.Slowed),
				pct(c.SlowedBelow0_8), f2(c.MinFI))
		} else {
			row = append(row, "", "", "", "", "-", "-", "-", "-")
		}
		t.Rows = append(t.Rows, row)
	}
	if err := boundsHold(set); err != nil {
		return err
	}
	fi, avg := fiCeiling(&set.Runs[0])
	t.Rows = append(t.Rows, []string{"ceiling: any policy", "", "", "", "", f2(fi.P25), f2(fi.P50), f2(fi.P75), f2(fi.P95),
		f2(avg), "", "", ""})
	t.Rows = append(t.Rows, carbynePaper...)
	return render(t)
}

// boundsHold checks what the ceilings rest on: no job of any run finishes
// sooner than its lower bound.
func boundsHold(set *plan.SimulationSet) error {
	for _, r := range set.Runs {
		for _, j := range r.Jobs {
			if j.JCT != nil && *j.JCT+1e-9 < j.LB {
				return fmt.Errorf("%s: job %s finished in %v, below its lower bound %v", r.Policy.Name, j.Name, *j.JCT, j.LB)
			}
		}
	}
	return nil
}

// fiCeiling bounds every policy against the baseline run base: a job
// finishes no sooner than its lower bound LB (critical path or work on the
// whole cluster, of its actual durations), so its factor of improvement
// is at most JCT(base)/LB, each FI quantile at most the same quantile of
// these ceilings, and the ratio of average JCTs at most avg JCT(base) /
// mean LB.
func fiCeiling(base *plan.SimulationRun) (plan.SimQuantiles, float64) {
	var fis []float64
	var jct, lb float64
	for _, j := range base.Jobs {
		if j.JCT == nil || *j.JCT <= 0 || j.LB <= 0 {
			continue
		}
		fis = append(fis, *j.JCT/j.LB)
		jct += *j.JCT
		lb += j.LB
	}
	if len(fis) == 0 {
		return plan.SimQuantiles{}, 0
	}
	return plan.SimQuantiles{P25: plan.Quantile(fis, .25), P50: plan.Quantile(fis, .5), P75: plan.Quantile(fis, .75),
		P95: plan.Quantile(fis, .95)}, jct / lb
}

// sensitivityJobs sizes the sensitivity sweep: the first 1,000 W-ALI jobs
// at load 0.8 make its 12 cells (DRF and Carbyne at P = 0, 0.5, 1 for
// σ = 0, 0.2, 0.5) run in well under 2 minutes on 2 cores.
const sensitivityJobs = "1000"

// carbyneSensitivity: Carbyne's gain over DRF against the altruism knob P
// and duration noise σ (Carbyne §5.4.2, §5.4.3), on W-ALI@0.8.
func carbyneSensitivity(quick bool, ali string) error {
	jobs := sensitivityJobs
	if quick {
		jobs = "300"
	}
	w := onlineWorkload{path: ali, load: 0.8, tick: 1, params: map[string]string{"jobs": jobs}}
	sigmas := []float64{0, 0.2, 0.5}
	alts := []string{"0", "0.5", "1"}
	type cell struct {
		sigma float64
		alt   string // "" for drf
		set   *plan.SimulationSet
		err   error
	}
	var cells []*cell
	for _, s := range sigmas {
		cells = append(cells, &cell{sigma: s})
		for _, a := range alts {
			cells = append(cells, &cell{sigma: s, alt: a})
		}
	}
	workers := min(2, runtime.NumCPU())
	t0 := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for _, c := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if c.alt == "" {
				c.set, _, c.err = w.simulate([]string{"drf"}, nil, "", c.sigma, 1)
				return
			}
			c.set, _, c.err = w.simulate([]string{"carbyne"}, map[string]map[string]string{"carbyne": {"altruism": c.alt}}, "", c.sigma, 1)
		}()
	}
	wg.Wait()
	took := time.Since(t0)
	t := reports.Table{Title: fmt.Sprintf("Carbyne sensitivity on W-ALI@0.8 (first %s jobs): altruism P × noise σ, each against DRF at the same σ (12 runs: %v on %d workers)",
		jobs, took.Round(100*time.Millisecond), workers),
		Header: []string{"NOISE σ", "ALTRUISM P", "AVG JCT", "DRF/CARBYNE AVG JCT", "P=0/P AVG JCT", "MAKESPAN RATIO", "JAIN 60S", "DRF JAIN 60S", "FI P50", "SLOWED", "BELOW 0.8×"}}
	alignRight(&t)
	var drf, zero *plan.SimulationRun
	for _, c := range cells {
		if c.err != nil {
			return c.err
		}
		r := &c.set.Runs[0]
		switch c.alt {
		case "":
			drf = r
			continue
		case "0":
			zero = r
		}
		cmp := plan.Compare("drf", drf, r)
		t.Rows = append(t.Rows, []string{fmt.Sprint(c.sigma), c.alt, f1(r.Summary.AvgJCT), f2(cmp.AvgJCTRatio),
			f2(zero.Summary.AvgJCT / r.Summary.AvgJCT), f3(cmp.MakespanRatio),
			f3(r.Summary.Jain["60s"].Mean), f3(drf.Summary.Jain["60s"].Mean), f2(cmp.FI.P50), pct(cmp.Slowed), pct(cmp.SlowedBelow0_8)})
	}
	t.Rows = append(t.Rows,
		[]string{"paper §5.4.3", "0", "", "comparable", "1", "", "", "", "", "", ""},
		[]string{"paper §5.4.3", "0.5", "", "1.24", "", "", "", "", "", "", ""},
		[]string{"paper §5.4.3", "1", "", "1.56", "", "", "", "", "", "", ""},
		[]string{"paper §5.4.2", "misestimates ±50%", "", "still ahead", "", "", "", "", "", "", ""})
	return render(t)
}

// jobsRun says how many jobs ran: the workload's count holds the jobs
// rejected when the trace was read too.
func jobsRun(w plan.SimWorkload) string {
	if len(w.Rejected) == 0 {
		return fmt.Sprintf("%d jobs", w.Jobs)
	}
	return fmt.Sprintf("%d jobs run, %d rejected", w.Jobs-len(w.Rejected), len(w.Rejected))
}

// graphenePaper are Graphene's gains over Tez (Fig. 12, TPC-DS: median
// and 75th percentile; Table 2: makespan), SIMULATE.md §5.2.
var graphenePaper = [][]string{
	{"paper tez-cp (TPC-DS)", "", "4.1%", "8.9%", "", "", "+2.1%", "", ""},
	{"paper tez-tetris (TPC-DS)", "", "6.5%", "16.6%", "", "", "+8.2%", "", ""},
	{"paper graphene (TPC-DS)", "", "27.8%", "45.7%", "", "", "+30.9%", "", ""},
	{"paper graphene (E-Hive)", "", "19.0%", "29.7%", "", "", "", "", ""},
}

// grapheneTable: online Graphene against Graphene's baselines on one
// workload; per-job gap = (JCT(tez) − JCT(policy))/JCT(tez).
func grapheneTable(w onlineWorkload) error {
	set, took, err := w.simulate([]string{"tez", "tez-cp", "tez-tetris", "graphene"}, nil, "tez", 0, 2)
	if err != nil {
		return err
	}
	t := reports.Table{Title: fmt.Sprintf("Graphene online vs Tez, Tez+CP, Tez+Tetris on %s (%s, %d machines; gap = 1 − JCT/JCT(tez); %v for the 4 runs on 2 workers, Graphene's offline orders included)",
		w.name, jobsRun(set.Workload), set.Cluster.Machines, took.Round(100*time.Millisecond)),
		Header: []string{"POLICY", "GAP P25", "GAP P50", "GAP P75", "GAP P90", "MAKESPAN", "MAKESPAN GAIN", "AVG JCT", "JAIN 240S"}}
	alignRight(&t)
	var tezMakespan float64
	for _, r := range set.Runs {
		if r.Policy.Name == "tez" {
			tezMakespan = r.Summary.Makespan
		}
	}
	for _, r := range set.Runs {
		row := []string{r.Policy.Name}
		if c := r.Compare; c != nil {
			row = append(row, pct(c.Gap.P25), pct(c.Gap.P50), pct(c.Gap.P75), pct(c.Gap.P90))
		} else {
			row = append(row, "-", "-", "-", "-")
		}
		gain := "-"
		if r.Policy.Name != "tez" && tezMakespan > 0 {
			gain = fmt.Sprintf("%+.1f%%", 100*(1-r.Summary.Makespan/tezMakespan))
		}
		row = append(row, f1(r.Summary.Makespan), gain, f1(r.Summary.AvgJCT), f3(r.Summary.Jain["240s"].Mean))
		t.Rows = append(t.Rows, row)
		if r.Policy.Name == "graphene" {
			st := r.Stats.Policy
			t.Title += fmt.Sprintf("; graphene built %d orders (%d reused, %d flat jobs in breadth-first order)",
				st["orderBuilds"], st["cacheHits"], st["orderBypassed"])
		}
	}
	if err := boundsHold(set); err != nil {
		return err
	}
	ceil, atBound := gapCeiling(&set.Runs[0])
	t.Title += fmt.Sprintf("; %s of the jobs finish at their own lower bound under tez, so no policy can speed them up", pct(atBound))
	t.Rows = append(t.Rows, append([]string{"ceiling: any policy", pct(ceil.P25), pct(ceil.P50), pct(ceil.P75), pct(ceil.P90)},
		"", "", "", ""))
	t.Rows = append(t.Rows, graphenePaper...)
	return render(t)
}

// gapCeiling bounds every policy's gap over the baseline run base: a job
// finishes no sooner than its lower bound LB (critical path or work on the
// whole cluster, of its actual durations), so its gap is at most
// 1 − LB/JCT(base), and each quantile of the gaps is at most the same
// quantile of these ceilings (the jobs being the same). It also returns
// the share of jobs at their bound under base (ceiling 0).
func gapCeiling(base *plan.SimulationRun) (plan.SimGap, float64) {
	var ceil []float64
	at := 0
	for _, j := range base.Jobs {
		if j.JCT == nil || *j.JCT <= 0 {
			continue
		}
		c := max(0, 1 - j.LB / *j.JCT)
		if c <= 1e-9 { // at the bound, up to rounding
			at++
		}
		ceil = append(ceil, c)
	}
	if len(ceil) == 0 {
		return plan.SimGap{}, 0
	}
	frac := float64(at) / float64(len(ceil))
	return plan.SimGap{P25: plan.Quantile(ceil, .25), P50: plan.Quantile(ceil, .5), P75: plan.Quantile(ceil, .75),
		P90: plan.Quantile(ceil, .9)}, frac
}

func alignRight(t *reports.Table) {
	t.Align = make([]reports.Align, len(t.Header))
	for i := range t.Align {
		t.Align[i] = reports.AlignRight
	}
	t.Align[0] = reports.AlignLeft
}

func f1(x float64) string  { return fmt.Sprintf("%.1f", x) }
func f2(x float64) string  { return fmt.Sprintf("%.2f", x) }
func f3(x float64) string  { return fmt.Sprintf("%.3f", x) }
func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
