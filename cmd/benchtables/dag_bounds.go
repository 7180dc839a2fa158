package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/reports"
)

// dagCertificateTable measures the targets of dag.Best's bounds and
// certificates (issue 18) from the best runs of the PSPLIB tables: on J30,
// the mean deviation of the best bound below the proven optimum, the
// instances proved optimal (best makespan = best bound) and the time per
// instance; on J60, the instances where the best bound reaches the
// published lower bound (j60lb.sm, Brucker & Knust, Klein & Scholl and
// later work), the mean deviation above the best known makespan and the
// instances proved optimal. Each instance runs on one core with the
// default budget (dag.SearchWork: 50M work units on J30 and J60); pub
// holds the published J60 bounds (nil for J30).
func dagCertificateTable(set string, cases []dagPSPLIBCase, best []dagRun, pub map[dags.PSPLIBKey][]int64) reports.Table {
	var lbDev, msDev float64
	proved, given, reached := 0, 0, 0
	var sum, worst time.Duration
	for c, r := range best {
		ref, bound := cases[c].ref, max(cases[c].bound, r.bound)
		lbDev += float64(ref-bound) / float64(ref)
		msDev += float64(r.makespan-ref) / float64(ref)
		if r.makespan == bound {
			proved++
		}
		if set == "j60" {
			k := cases[c].key
			if lb, ok := pub[k]; ok && len(lb) >= 2 {
				given++
				if bound >= lb[1] {
					reached++
				}
			}
		}
		sum += r.took
		worst = max(worst, r.took)
	}
	n := len(best)
	t := reports.Table{
		Title:  fmt.Sprintf("dag best: bounds and certificates on PSPLIB %s (%d instances, one machine); seed 1, default budget, one core per instance", set, n),
		Header: []string{"measure", "value", "target"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight},
	}
	if set == "j30" {
		t.Rows = [][]string{
			{"mean bound deviation below the optimum", reports.FormatPercent(lbDev / float64(n)), "≤ 0.5%"},
			{"proved optimal (makespan = bound)", fmt.Sprintf("%d/%d (%s)", proved, n, reports.FormatPercent(float64(proved)/float64(n))), "≥ 95%"},
			{"mean makespan deviation from the optimum", reports.FormatPercent(msDev / float64(n)), ""},
		}
	} else {
		t.Rows = [][]string{
			{"bound ≥ published lower bound", fmt.Sprintf("%d/%d (%s)", reached, given, reports.FormatPercent(float64(reached)/float64(max(1, given)))), "≥ 90%"},
			{"mean makespan deviation above the best known", reports.FormatPercent(msDev / float64(n)), "≤ 0.5%"},
			{"mean bound deviation below the best known", reports.FormatPercent(lbDev / float64(n)), ""},
			{"proved optimal (makespan = bound)", fmt.Sprintf("%d/%d", proved, n), ""},
		}
	}
	limit := "≤ 1 s"
	if set == "j60" {
		limit = ""
	}
	t.Rows = append(t.Rows, []string{"mean time per instance", dagMS(sum / time.Duration(n)), limit}, []string{"max time per instance", dagMS(worst), ""})
	return t
}

// dagJ60Published reads the published J60 bounds (j60lb.sm: per instance
// the best known makespan and the published lower bound).
func dagJ60Published() (map[dags.PSPLIBKey][]int64, error) {
	f, err := os.Open(filepath.Join(sharedDatasets, "psplib", "j60", "j60lb.sm"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dags.ParsePSPLIBTable("j60lb.sm", f)
}
