package reports

import (
	"fmt"
	"strings"

	"github.com/capplan/capplan/plan"
)

// Sheets of the simulated check in the bundle report.
const (
	simulationSheet       = "Simulation"
	simulationSharesSheet = "Simulated shares"
)

// SimulationStepTable has one row per policy of a plan's simulated check
// (`capplan plan`, simulation.json): the jobs finished, the JCT
// statistics and the makespan (in hours, as every time of the report's
// sheets; the document keeps seconds), the utilisation of every resource (by
// container size in container mode), the kills, the applications held
// below their planned share for most of their run, and, against the
// baseline, the median factor of improvement and the average-JCT ratio.
func SimulationStepTable(set *plan.SimulationSet) StepTable {
	mode := "on the cluster's machines"
	if set.Cluster.ContainerMode {
		mode = fmt.Sprintf("on the ownership packing's %d containers", set.Cluster.Machines)
	}
	t := StepTable{Sheet: simulationSheet, Title: "Simulated check: the workload under " + policyList(set),
		Note: fmt.Sprintf("The workload's %d jobs (%d tasks) arrive %s, under each policy with the same actual durations (seed %d). Utilisation charges a task its container's size. FI = the baseline's JCT / the policy's, per job (above 1: the policy is faster).",
			set.Workload.Jobs, set.Workload.Tasks, mode, seedOf(&set.Header)),
		Columns: []Column{{"policy", ShowText}, {"jobs finished (count)", ShowInteger}, {"jobs left out (count)", ShowInteger},
			{"avg JCT (hours)", ShowDecimal4}, {"median JCT (hours)", ShowDecimal4}, {"p95 JCT (hours)", ShowDecimal4},
			{"makespan (hours)", ShowDecimal4}}}
	for _, r := range set.Cluster.Resources {
		t.Columns = append(t.Columns, Column{r + " used (%)", ShowPercent})
	}
	t.Columns = append(t.Columns, Column{"kills (count)", ShowInteger}, Column{"below plan (applications)", ShowInteger},
		Column{"median FI vs baseline (×)", ShowDecimal4}, Column{"baseline avg JCT / avg JCT (×)", ShowDecimal4})
	for _, r := range set.Runs {
		s := r.Summary
		row := []any{r.Policy.Name, s.Finished, len(set.Workload.Rejected), s.AvgJCT / secondsPerHour, s.MedianJCT / secondsPerHour,
			s.P95JCT / secondsPerHour, s.Makespan / secondsPerHour}
		for _, res := range set.Cluster.Resources {
			row = append(row, s.Utilization[res])
		}
		row = append(row, s.Kills, belowPlan(&r))
		if c := r.Compare; c != nil && c.Paired > 0 {
			row = append(row, c.FI.P50, c.AvgJCTRatio)
		} else {
			row = append(row, nil, nil)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// SimulatedSharesStepTable has one row per policy and application of a
// plan's simulated check (plan.SimOwnership): the containers it owns and
// their share (its planned share), the share it held on average while it
// had jobs, how long it had jobs, had tasks waiting and waited below its
// plan (in hours), and the RMSE of its shortfall.
func SimulatedSharesStepTable(set *plan.SimulationSet) StepTable {
	tol := 0.0
	for _, r := range set.Runs {
		if r.Ownership != nil {
			tol = r.Ownership.Tolerance
		}
	}
	t := StepTable{Sheet: simulationSharesSheet, Title: "Simulated check: shares held against the plan",
		Note: fmt.Sprintf("Planned share: the share of the containers' charge (X-Flex's Σ size/capacity) an application owns. Below plan: it had tasks waiting and held less than %s of its planned share; an application is flagged when that lasts more than half the time it had jobs. Shortfall RMSE: the root mean square over that time of how far below its planned share it was while waiting (0 otherwise).",
			FormatPercent(1-tol)),
		Columns: []Column{{"policy", ShowText}, {"application", ShowText}, {"containers owned (count)", ShowInteger},
			{"planned share (%)", ShowPercent}, {"mean share held (%)", ShowPercent}, {"with jobs (hours)", ShowDecimal4},
			{"waiting (hours)", ShowDecimal4}, {"below plan (hours)", ShowDecimal4}, {"below plan (% of time with jobs)", ShowPercent},
			{"shortfall RMSE (%)", ShowPercent}, {"plan holds (yes/no)", ShowYesNo}}}
	for _, r := range set.Runs {
		if r.Ownership == nil {
			continue
		}
		for _, a := range r.Ownership.Apps {
			t.Rows = append(t.Rows, []any{r.Policy.Name, a.Application, a.Containers, a.PlannedShare, a.MeanShare, a.Active / secondsPerHour,
				a.Waiting / secondsPerHour, a.Below / secondsPerHour, a.BelowFraction, a.ShortfallRMSE, !a.BelowMostly})
		}
	}
	return t
}

// belowPlan counts the applications of a run below their planned share
// for most of their run (none without the ownership section).
func belowPlan(r *plan.SimulationRun) int {
	n := 0
	if r.Ownership != nil {
		for _, a := range r.Ownership.Apps {
			if a.BelowMostly {
				n++
			}
		}
	}
	return n
}

// policyList names a set's policies, the baseline marked.
func policyList(set *plan.SimulationSet) string {
	var names []string
	for _, r := range set.Runs {
		n := r.Policy.Name
		if n == set.Baseline {
			n += " (baseline)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// simulationSummary adds the simulated check's key figures to the
// bundle's summary.
func simulationSummary(set *plan.SimulationSet, add func(string, any, NumberFormat, string)) {
	add("simulated jobs", set.Workload.Jobs, ShowInteger, "count")
	add("simulated jobs left out (a task fits no container)", len(set.Workload.Rejected), ShowInteger, "count")
	for _, r := range set.Runs {
		add("simulated avg JCT under "+r.Policy.Name, r.Summary.AvgJCT, ShowDecimal2, "s")
		if r.Ownership != nil {
			add("applications below their planned share under "+r.Policy.Name, belowPlan(&r), ShowInteger, "count")
		}
	}
}

// simulationEvidence states what the simulated check found and why it
// can be trusted.
func simulationEvidence(set *plan.SimulationSet) string {
	var runs []string
	for _, r := range set.Runs {
		s := fmt.Sprintf("%s: %d of %d jobs finished, avg JCT %s s, makespan %s s", r.Policy.Name, r.Summary.Finished,
			r.Summary.Finished+r.Summary.Unfinished, FormatNumber(r.Summary.AvgJCT), FormatNumber(r.Summary.Makespan))
		if r.Ownership != nil {
			s += fmt.Sprintf(", %d applications below their planned share for most of their run", belowPlan(&r))
		}
		runs = append(runs, s)
	}
	return fmt.Sprintf("Simulated check (%s, seed %d): %s. The simulator is deterministic, so capplan plan --check re-runs it and requires the same bytes.",
		set.Workload.Name, seedOf(&set.Header), strings.Join(runs, "; "))
}
