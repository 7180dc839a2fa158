package main

import (
	"fmt"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// xflexPaper is X-Flex's Table 1 [SEED xflex §3]: ART by size and overall,
// and makespan, in seconds, for Flex, Fair, FIFO and DRF.
var xflexPaper = map[string][5]float64{
	"flex": {76.2, 270.1, 539.0, 122.4, 544.2},
	"fair": {124.7, 333.5, 539.6, 171.8, 544.6},
	"fifo": {268.3, 275.8, 188.6, 267.0, 563.0},
	"drf":  {376.8, 364.0, 154.3, 367.5, 713.4},
}

// xflexResult holds W-XFLEX's Table 1 as medians over seeds: per column
// (flex, fair and fifo are xschedule's applications; drf is drf-am, and
// drf-fifo is drf-am with order=fifo) the small, medium, large and overall
// ART and the makespan, in seconds, and the cpu allocation of X-Flex (the
// xschedule run), DRF and DRF-FIFO.
type xflexResult struct {
	cells map[string][5]float64
	cpu   map[string]float64
}

// xflexMedians runs W-XFLEX for each seed under xschedule and drf-am (in
// both orders) and returns the medians of Table 1's cells.
func xflexMedians(seeds []uint64) (xflexResult, error) {
	vals := map[string][5][]float64{}
	cpu := map[string][]float64{}
	add := func(k string, bins []plan.SimBinStat, avg, mk float64) {
		v := vals[k]
		for i, b := range bins {
			v[i] = append(v[i], b.AvgJCT)
		}
		v[3], v[4] = append(v[3], avg), append(v[4], mk)
		vals[k] = v
	}
	for _, seed := range seeds {
		set, err := pipeline.Simulate(pipeline.SimulateOptions{Workload: "xflex", Policies: []string{"xschedule", "drf-am"}, Seed: seed})
		if err != nil {
			return xflexResult{}, err
		}
		fifo, err := pipeline.Simulate(pipeline.SimulateOptions{Workload: "xflex", Policies: []string{"drf-am"}, Seed: seed,
			PolicyParams: map[string]map[string]string{"drf-am": {"order": "fifo"}}})
		if err != nil {
			return xflexResult{}, err
		}
		xs, drf, df := &set.Runs[0], &set.Runs[1], &fifo.Runs[0]
		for _, u := range xs.Users {
			add(u.User, u.Bins, u.AvgJCT, u.Makespan)
		}
		add("drf", drf.Bins, drf.Summary.AvgJCT, drf.Summary.Makespan)
		add("drf-fifo", df.Bins, df.Summary.AvgJCT, df.Summary.Makespan)
		cpu["xflex"] = append(cpu["xflex"], xs.Summary.Utilization["cpu"])
		cpu["drf"] = append(cpu["drf"], drf.Summary.Utilization["cpu"])
		cpu["drf-fifo"] = append(cpu["drf-fifo"], df.Summary.Utilization["cpu"])
	}
	r := xflexResult{cells: map[string][5]float64{}, cpu: map[string]float64{}}
	for k, v := range vals {
		var c [5]float64
		for i := range c {
			c[i] = median(v[i])
		}
		r.cells[k] = c
	}
	for k, v := range cpu {
		r.cpu[k] = median(v)
	}
	return r, nil
}

// ratio is the overall ART of column a over column b.
func (r xflexResult) ratio(a, b string) float64 { return r.cells[a][3] / r.cells[b][3] }

func xflexTable(seeds []uint64) error {
	r, err := xflexMedians(seeds)
	if err != nil {
		return err
	}
	t := reports.Table{Title: fmt.Sprintf("W-XFLEX (X-Flex Table 1): median of %d seeds, ours / paper, seconds; DRF-FIFO is drf-am order=fifo beside the paper's DRF", len(seeds)),
		Header: []string{"", "FLEX", "FAIR", "FIFO", "DRF", "DRF-FIFO"}}
	for i, row := range []string{"small ART", "medium ART", "large ART", "overall ART", "makespan"} {
		cells := []reports.Cell{reports.TextCell(row)}
		for _, c := range []string{"flex", "fair", "fifo", "drf", "drf-fifo"} {
			p := c
			if c == "drf-fifo" {
				p = "drf"
			}
			cells = append(cells, reports.TextCell(fmt.Sprintf("%.1f / %.1f", r.cells[c][i], xflexPaper[p][i])))
		}
		t.AddRow(cells...)
	}
	t.AddRow(reports.TextCell("Flex/DRF, Flex/Fair, Flex/FIFO ART"), reports.TextCell(fmt.Sprintf("%.2f / 0.33", r.ratio("flex", "drf"))),
		reports.TextCell(fmt.Sprintf("%.2f / 0.71", r.ratio("flex", "fair"))), reports.TextCell(fmt.Sprintf("%.2f / 0.46", r.ratio("flex", "fifo"))),
		reports.MissingCell(""), reports.TextCell(fmt.Sprintf("%.2f / 0.33", r.ratio("flex", "drf-fifo"))))
	t.AddRow(reports.TextCell("cpu allocation, X-Flex vs DRF"), reports.TextCell(fmt.Sprintf("%.0f%% / 92%%", 100*r.cpu["xflex"])),
		reports.MissingCell(""), reports.MissingCell(""), reports.TextCell(fmt.Sprintf("%.0f%% / 80%%", 100*r.cpu["drf"])),
		reports.TextCell(fmt.Sprintf("%.0f%% / 80%%", 100*r.cpu["drf-fifo"])))
	return render(t)
}
