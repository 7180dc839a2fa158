package reports

import (
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// handSimulation is a simulated check of two policies, fifo checked and
// drf the baseline, where fifo keeps A below its plan for 98 of its
// 128 s (the numbers of pipeline's TestPlanSimulateHand).
func handSimulation() *plan.SimulationSet {
	own := func(aMostly bool, aBelow float64) *plan.SimOwnership {
		return &plan.SimOwnership{Tolerance: 0.1, Start: 0, Step: 1, Apps: []plan.SimOwnedApp{
			{Application: "A", Containers: 2, PlannedShare: 0.5, Active: 128, Waiting: aBelow, Below: aBelow, BelowFraction: aBelow / 128,
				BelowMostly: aMostly, MeanShare: 0.1171875, ShortfallRMSE: 0.4375, Share: []float64{0, 0.5}},
			{Application: "B", Containers: 2, PlannedShare: 0.5, Active: 100, MeanShare: 1, Share: []float64{1, 0}},
		}}
	}
	run := func(name string, o *plan.SimOwnership) plan.SimulationRun {
		return plan.SimulationRun{Policy: plan.SimPolicy{Name: name}, Ownership: o,
			Summary: plan.SimSummary{Finished: 2, AvgJCT: 114, Makespan: 130, Utilization: map[string]float64{"cpu": 0.8, "memory": 0.8}}}
	}
	set := &plan.SimulationSet{Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindSimulationSet},
		SimulationContext: plan.SimulationContext{Workload: plan.SimWorkload{Name: "w", Jobs: 2, Tasks: 6},
			Cluster: plan.SimCluster{Machines: 4, Resources: []string{"cpu", "memory"}, ContainerMode: true}},
		Baseline: "drf", Runs: []plan.SimulationRun{run("fifo", own(true, 98)), run("drf", own(false, 10))}}
	set.Runs[0].Compare = &plan.SimCompare{Baseline: "drf", Paired: 2, FI: plan.SimQuantiles{P50: 0.9}, AvgJCTRatio: 0.95}
	return set
}

// TestSimulationStepTables: one row per policy (FI only against the
// baseline, the applications below plan counted), one per policy and
// application (plan holds: no for A under fifo).
func TestSimulationStepTables(t *testing.T) {
	set := handSimulation()
	runs := SimulationStepTable(set)
	if len(runs.Rows) != 2 || runs.Rows[0][0] != "fifo" || !strings.Contains(runs.Title, "drf (baseline)") {
		t.Fatalf("policies table %q %v", runs.Title, runs.Rows)
	}
	// policy, finished, left out, 4 JCT columns, cpu, memory, kills, below, FI, ratio
	if got := runs.Rows[0][10]; got != 1 {
		t.Errorf("fifo: %v applications below plan, want 1", got)
	}
	// Times in hours, as every time of the report: avg JCT 114 s = 114/3600
	// h, makespan 130 s = 130/3600 h.
	if runs.Columns[3].Header != "avg JCT (hours)" || runs.Rows[0][3] != 114.0/3600 || runs.Rows[0][6] != 130.0/3600 {
		t.Errorf("%s %v, makespan %v: want 114/3600 and 130/3600 hours", runs.Columns[3].Header, runs.Rows[0][3], runs.Rows[0][6])
	}
	if runs.Rows[0][11] != 0.9 || runs.Rows[1][11] != nil {
		t.Errorf("FI column %v, %v: want fifo's median and none for the baseline", runs.Rows[0][11], runs.Rows[1][11])
	}
	shares := SimulatedSharesStepTable(set)
	if len(shares.Rows) != 4 || !strings.Contains(shares.Note, "less than 90% of its planned share") {
		t.Fatalf("shares table: %d rows, note %q", len(shares.Rows), shares.Note)
	}
	// A under fifo: with jobs 128 s, below plan 98 s, in hours.
	if shares.Columns[5].Header != "with jobs (hours)" || shares.Rows[0][5] != 128.0/3600 || shares.Rows[0][7] != 98.0/3600 {
		t.Errorf("%s %v, below plan %v: want 128/3600 and 98/3600 hours", shares.Columns[5].Header, shares.Rows[0][5], shares.Rows[0][7])
	}
	last := len(shares.Columns) - 1
	var holds []any
	for _, r := range shares.Rows {
		holds = append(holds, r[last])
	}
	if !slices.Equal(holds, []any{false, true, true, true}) {
		t.Errorf("plan holds %v, want no only for A under fifo", holds)
	}
	for _, c := range append(runs.Columns, shares.Columns...) {
		if c.Format != ShowText && !unitRE.MatchString(c.Header) {
			t.Errorf("column %q has no unit", c.Header)
		}
	}
}

// TestSimulationFiguresFiled: the check's figures go to its two sections
// of the HTML report, X-Sight's only for the checked policy and the
// applications with jobs.
func TestSimulationFiguresFiled(t *testing.T) {
	set := handSimulation()
	set.Runs[0].XSight = &plan.SimXSight{Apps: []plan.SimXApp{
		{App: "A", Containers: 2, Step: 1, T: []float64{0, 1}, OwnUsed: []float64{0, 1}, Lent: []float64{1, 0}, Borrowed: []float64{0, 0}},
		{App: "C", Containers: 1, Step: 1, T: []float64{0}, OwnUsed: []float64{0}, Lent: []float64{0}, Borrowed: []float64{0}}}}
	set.Runs[1].XSight = set.Runs[0].XSight
	for i := range set.Runs {
		set.Runs[i].Jobs = []plan.SimJob{{Name: "a", JCT: new(float64)}}
	}
	figs, err := PlanSimulationFigures(set, nil)
	if err != nil {
		t.Fatal(err)
	}
	byStep := figuresByStep(figs)
	var main, shares []string
	for _, f := range byStep[simulationSheet] {
		main = append(main, f.Name)
	}
	for _, f := range byStep[simulationSharesSheet] {
		shares = append(shares, f.Name)
	}
	if !slices.Equal(main, []string{"sim-cdf-jct", "sim-util-fifo", "sim-util-drf"}) ||
		!slices.Equal(shares, []string{"sim-shares-fifo", "sim-shares-drf", "sim-xsight-fifo-A"}) {
		t.Errorf("Simulation figures %v, Simulated shares figures %v", main, shares)
	}
	for _, f := range figs {
		checkSVG(t, f.Name, f.SVG)
	}
}
