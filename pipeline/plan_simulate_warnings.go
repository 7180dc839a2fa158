package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capplan/capplan/plan"
)

// maxRejectedNamed bounds the jobs a warning names.
const maxRejectedNamed = 3

// simulationWarnings are the problems the simulated check found: jobs left
// out because a task fits no container it may use (but not those in
// reported, the DAG step's jobs larger than every machine, already warned
// about),
// and, for each of the checked policies (not a baseline only compared
// with), every application below its planned share for most of the time
// it had jobs (plan.SimOwnedApp.BelowMostly).
func simulationWarnings(set *plan.SimulationSet, checked []string, reported []plan.DAGRejection) []plan.PlanWarning {
	var out []plan.PlanWarning
	rej := slices.DeleteFunc(slices.Clone(set.Workload.Rejected), func(r plan.SimRejection) bool {
		return slices.ContainsFunc(reported, func(d plan.DAGRejection) bool { return d.Job == r.Job })
	})
	if len(rej) > 0 {
		var named []string
		for _, r := range rej[:min(len(rej), maxRejectedNamed)] {
			named = append(named, r.Job+" ("+r.Reason+")")
		}
		more := ""
		if n := len(rej) - maxRejectedNamed; n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		out = append(out, plan.PlanWarning{Step: plan.StepSimulation, Message: fmt.Sprintf(
			"%d of the workload's %d jobs never fit: a task no container of the plan it may use can hold, left out of the simulation: %s%s",
			len(rej), set.Workload.Jobs, strings.Join(named, "; "), more)})
	}
	for _, r := range set.Runs {
		if !slices.Contains(checked, r.Policy.Name) || r.Ownership == nil {
			continue
		}
		own := r.Ownership
		for _, a := range own.Apps {
			if !a.BelowMostly {
				continue
			}
			out = append(out, plan.PlanWarning{Step: plan.StepSimulation, Message: fmt.Sprintf(
				"under %s, %s held less than %s of its planned share (%s of the containers, %d owned) while it had tasks waiting, for %s of the time it had jobs (mean share %s, shortfall RMSE %s of the containers): its containers are lent out, too few, or do not fit its tasks",
				r.Policy.Name, a.Application, percentText(1-own.Tolerance), percentText(a.PlannedShare), a.Containers,
				percentText(a.BelowFraction), percentText(a.MeanShare), percentText(a.ShortfallRMSE))})
		}
	}
	return out
}

// percentText writes a fraction as a percentage with up to two decimals.
func percentText(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*x), "0"), ".") + "%"
}
