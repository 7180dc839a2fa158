package main

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/reports"
)

// dagProofBudgets are the work budgets per instance of the J60 proof
// table: 10× and 160× the default of DAGs small enough for the searches
// (the second reaches the 90%; about 35 minutes on 2 cores).
var dagProofBudgets = []int64{10 * dag.DefaultSearchWork, 160 * dag.DefaultSearchWork}

// dagProofTable measures what a planner gets by asking for a proof with a
// larger budget: on every PSPLIB J60 instance that Best (seed 1, default
// budget) did not prove optimal, every bound (dag.AllBounds) capped by
// Best's makespan, which is what `capplan dag check --schedule s.json
// FILE --budget B` runs on Best's schedule; the instances Best proved keep
// their bound. It counts, per budget, the instances whose best bound
// reaches the published lower bound (j60lb.sm) and those proved optimal,
// with the time per instance checked, one core each.
func dagProofTable(cases []dagPSPLIBCase, best []dagRun, pub map[dags.PSPLIBKey][]int64) (reports.Table, error) {
	// Best's bound per instance, and the instances it did not prove.
	base := make([]int64, len(best))
	var open []int
	for c, r := range best {
		base[c] = max(cases[c].bound, r.bound)
		if r.makespan > base[c] {
			open = append(open, c)
		}
	}
	t := reports.Table{
		Title:  fmt.Sprintf("dag check at a proof budget on PSPLIB J60: Best's schedule (seed 1, default budget), then every bound within the budget on the %d instances it did not prove (capplan dag check --budget B); one core per instance", len(open)),
		Header: []string{"budget (work units)", "bound ≥ published lower bound", "proved optimal", "mean time checked", "max time checked"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	row := func(name string, bound []int64, mean, worst string) {
		reached, given, proved := 0, 0, 0
		for c, r := range best {
			if lb, ok := pub[cases[c].key]; ok && len(lb) >= 2 {
				given++
				if bound[c] >= lb[1] {
					reached++
				}
			}
			if r.makespan == bound[c] {
				proved++
			}
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%d/%d (%s)", reached, given, reports.FormatPercent(float64(reached)/float64(max(1, given)))),
			fmt.Sprintf("%d/%d", proved, len(best)), mean, worst})
	}
	row(fmt.Sprintf("%d (Best alone, default)", dag.DefaultSearchWork), base, "-", "-")
	for _, work := range dagProofBudgets {
		bound := slices.Clone(base)
		took := make([]time.Duration, len(open))
		err := par.For(len(open), runtime.NumCPU(), func(k int) error {
			c := open[k]
			d, ms := cases[c].inst.DAG, cases[c].inst.Machines()
			t0 := time.Now()
			b, err := dag.AllBounds(d, ms, best[c].makespan, dag.Options{MaxWork: work})
			took[k] = time.Since(t0)
			if err != nil {
				return err
			}
			if b.Best > min(best[c].makespan, cases[c].ref) {
				return fmt.Errorf("j60 %v: bound %d above Best's makespan %d or the best known %d", cases[c].key, b.Best, best[c].makespan, cases[c].ref)
			}
			bound[c] = max(bound[c], b.Best) // distinct c per goroutine
			return nil
		})
		if err != nil {
			return reports.Table{}, err
		}
		var sum, worst time.Duration
		for _, d := range took {
			sum += d
			worst = max(worst, d)
		}
		row(fmt.Sprintf("%d", work), bound, dagMS(sum/time.Duration(max(1, len(open)))), dagMS(worst))
	}
	return t, nil
}
