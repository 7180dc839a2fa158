package pipeline

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// buildSet turns the runs into the SimulationSet document: times in
// seconds, amounts in base units, jobs in ordinal order, runs in policy
// order, each paired with the baseline when there is one.
func buildSet(o *SimulateOptions, w *workload, names []string, results []*sim.Result, traces []*sim.Trace, alone [][]sim.Tick) *plan.SimulationSet {
	seed := int64(o.Seed)
	set := &plan.SimulationSet{
		Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindSimulationSet, Generator: o.Generator,
			Inputs: w.inputs, Flags: o.Flags, Seed: &seed},
		Baseline: o.Baseline,
	}
	if set.Inputs == nil {
		set.Inputs = []plan.Input{}
	}
	if w.inventory != nil {
		annotate(&set.Header, w.inventory)
	}
	r0 := results[0]
	tasks := w.numTasks
	if tasks == 0 {
		for _, j := range r0.Jobs {
			tasks += int64(j.Tasks)
		}
	}
	noiseMode := "mean"
	if o.NoiseMedian {
		noiseMode = "median"
	}
	set.SimulationContext = plan.SimulationContext{
		Workload: plan.SimWorkload{Name: w.name, Params: w.params, Jobs: len(r0.Jobs) + len(r0.Rejected) + w.expandRejected,
			Tasks: tasks},
		Cluster: plan.SimCluster{Machines: r0.Machines, Classes: r0.Classes, Resources: r0.Resources,
			Quanta: map[string]float64{}, Capacity: map[string]float64{}, ContainerMode: r0.ContainerMode},
		Tick: o.TickSeconds, Noise: o.Noise, NoiseMode: noiseMode, Contention: "off", Until: o.Until,
		Misestimate: FormatMisestimate(o.Misestimate),
	}
	if len(set.Workload.Params) == 0 {
		set.Workload.Params = nil
	}
	for _, r := range w.rejected[:w.expandRejected] {
		set.Workload.Rejected = append(set.Workload.Rejected, plan.SimRejection{Job: r.Job, Reason: r.Reason})
	}
	for _, r := range r0.Rejected {
		set.Workload.Rejected = append(set.Workload.Rejected, plan.SimRejection{Job: r.Job, Reason: r.Reason})
	}
	for d, name := range r0.Resources {
		set.Cluster.Quanta[name] = quantum(r0, d)
		set.Cluster.Capacity[name] = float64(r0.Total[d]) * quantum(r0, d)
	}
	for i, res := range results {
		set.Runs = append(set.Runs, newRun(o, w, names[i], res, traces[i], alone[i]))
	}
	if o.Baseline != "" {
		b := &set.Runs[indexOf(names, o.Baseline)]
		for i := range set.Runs {
			if names[i] != o.Baseline {
				set.Runs[i].Compare = plan.Compare(o.Baseline, b, &set.Runs[i])
			}
		}
	}
	return set
}

func indexOf(names []string, n string) int {
	for i, x := range names {
		if x == n {
			return i
		}
	}
	return -1
}

// quantum returns the base-unit size of dimension d's quantum.
func quantum(r *sim.Result, d int) float64 {
	if r.Quanta == nil {
		return 1
	}
	return r.Quanta[d]
}

// finite replaces NaN and infinities, which JSON cannot hold, by 0.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// newRun converts one sim.Result.
func newRun(o *SimulateOptions, w *workload, name string, res *sim.Result, tr *sim.Trace, alone []sim.Tick) plan.SimulationRun {
	sec := func(t sim.Tick) float64 { return float64(t) * o.TickSeconds }
	opt := func(t sim.Tick) *float64 {
		if t < 0 {
			return nil
		}
		x := sec(t)
		return &x
	}
	run := plan.SimulationRun{Policy: plan.SimPolicy{Name: name, Params: o.PolicyParams[name]}}
	run.Jobs = make([]plan.SimJob, len(res.Jobs))
	var wasted sim.Tick
	for k, j := range res.Jobs {
		row := plan.SimJob{Name: j.Name, User: w.users[j.User].Name, Arrival: sec(j.Arrival), Start: opt(j.Start),
			Finish: opt(j.Finish), LB: sec(j.LB), Tasks: int(j.Tasks), Attempts: int(j.Attempts), Kills: int(j.Kills),
			SizeBin: plan.SizeBin(sec(j.LB))}
		if w.sizeBin != nil {
			row.SizeBin = w.sizeBin(int(j.Tasks))
		}
		if j.Finish >= 0 {
			row.JCT = opt(j.JCT())
		}
		if alone != nil && alone[k] >= 0 {
			row.Alone = opt(alone[k])
			if alone[k] > 0 && row.JCT != nil {
				sd := *row.JCT / *row.Alone
				row.Slowdown = &sd
			}
		}
		wasted += j.Wasted
		run.Jobs[k] = row
	}
	s := &run.Summary
	plan.SummarizeJCT(s, run.Jobs)
	if w.sizeBins != nil {
		run.Bins, run.Users = plan.SummarizeGroups(run.Jobs, w.sizeBins)
	}
	s.Makespan = sec(res.Makespan)
	s.WastedWork = sec(wasted)
	s.Kills, s.Suspends, s.Migrations = res.Stats.Kills, res.Stats.Suspends, res.Stats.Migrations
	s.Utilization = map[string]float64{}
	for d, r := range res.Resources {
		s.Utilization[r] = finite(res.Utilization[d])
	}
	if len(res.Jain) > 0 {
		s.Jain = map[string]plan.SimJain{}
		for _, js := range res.Jain {
			s.Jain[fmt.Sprintf("%gs", sec(js.Window))] = plan.SimJain{Mean: finite(js.Mean), Min: finite(js.Min), Max: finite(js.Max), Windows: js.Windows}
		}
	}
	se := res.Series
	run.Series = plan.SimSeries{Start: sec(se.Start), Step: sec(se.Step), Utilization: map[string][]float64{}, Running: se.Running}
	for d, r := range res.Resources {
		run.Series.Utilization[r] = se.Utilization[d]
	}
	if len(se.Shares) > 0 {
		run.Series.Shares = map[string][]float64{}
		for u, xs := range se.Shares {
			run.Series.Shares[w.users[u].Name] = xs
		}
	}
	if run.Series.Running == nil {
		run.Series.Running = []float64{}
	}
	st := res.Stats
	run.Stats = plan.SimStats{Events: st.Events, Rounds: st.Rounds, Placements: st.Placements, Preemptions: st.Preemptions,
		PeakLiveTasks: st.PeakLiveTasks, CacheHits: res.PolicyStats["cacheHits"], Policy: res.PolicyStats}
	if tr != nil {
		run.Gantt = ganttOf(o, tr)
	}
	return run
}

// ganttOf converts traced task runs.
func ganttOf(o *SimulateOptions, tr *sim.Trace) []plan.SimGanttJob {
	var out []plan.SimGanttJob
	at := map[string]int{}
	for _, r := range tr.Runs {
		k, ok := at[r.Job]
		if !ok {
			k = len(out)
			at[r.Job] = k
			out = append(out, plan.SimGanttJob{Job: r.Job})
		}
		end := r.End
		kind := r.Kind.String()
		if end < 0 {
			kind = "running"
		}
		out[k].Runs = append(out[k].Runs, plan.SimRun{Task: int(r.Task), Stage: int(r.Stage), Machine: int(r.Machine),
			Start: float64(r.Start) * o.TickSeconds, End: float64(max(end, r.Start)) * o.TickSeconds, Kind: kind})
	}
	return out
}
