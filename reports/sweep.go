package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/capplan/capplan/plan"
)

// SweepSummaryLine describes a sweep in one line.
func SweepSummaryLine(doc *plan.SimulationSweep) string {
	var axes []string
	for _, a := range doc.Sweep.Axes {
		axes = append(axes, fmt.Sprintf("%d %s", len(a.Values), a.Name))
	}
	s := fmt.Sprintf("sweep of %d cells (%s), %d groups across seeds", doc.Sweep.Cells, strings.Join(axes, ", "), len(doc.Aggregates))
	if doc.Sweep.Baseline != "" {
		s += ", paired with " + doc.Sweep.Baseline
	}
	return s
}

// sweepVaries reports which of load, noise and size the sweep varies or
// sets (so their columns are shown).
func sweepVaries(doc *plan.SimulationSweep) (load, noise, size bool) {
	for _, c := range doc.Cells {
		load = load || c.Load != 0
		noise = noise || c.Noise != 0
		size = size || c.Size != 0
	}
	return load, noise, size
}

// SweepAggregatesTable has one row per group of cells that differ only in
// their seed: the seeds, the average JCT's mean with the half-width of its
// 95% confidence interval, median, minimum and maximum across seeds, the
// makespan's mean and interval and, with a baseline, the mean FI and the
// share of jobs slowed.
func SweepAggregatesTable(doc *plan.SimulationSweep) Table {
	load, noise, size := sweepVaries(doc)
	t := Table{Title: "Across seeds (mean ± 95% CI)", Header: []string{"workload", "policy"}}
	if load {
		t.Header = append(t.Header, "load")
	}
	if noise {
		t.Header = append(t.Header, "noise")
	}
	if size {
		t.Header = append(t.Header, "machines")
	}
	t.Header = append(t.Header, "seeds", "avg JCT", "avg JCT CI95", "median", "min", "max", "makespan", "makespan CI95")
	b := doc.Sweep.Baseline
	if b != "" {
		t.Header = append(t.Header, "FI mean vs "+b, "FI CI95", "slowed")
	}
	t.Align = []Align{AlignLeft, AlignLeft}
	for range t.Header[2:] {
		t.Align = append(t.Align, AlignRight)
	}
	for _, a := range doc.Aggregates {
		cells := []Cell{TextCell(a.Workload), TextCell(a.Variant)}
		if load {
			cells = append(cells, NumberCell(a.Load))
		}
		if noise {
			cells = append(cells, NumberCell(a.Noise))
		}
		if size {
			cells = append(cells, IntCell(int64(a.Size)))
		}
		j := a.Metrics["avgJCT"]
		m := a.Metrics["makespan"]
		cells = append(cells, IntCell(int64(len(a.Cells))), NumberCell(j.Mean), NumberCell(j.CI95), NumberCell(j.Median),
			NumberCell(j.Min), NumberCell(j.Max), NumberCell(m.Mean), NumberCell(m.CI95))
		if b != "" {
			if fi, ok := a.Metrics["fi.mean"]; ok {
				cells = append(cells, NumberCell(fi.Mean), NumberCell(fi.CI95), PercentCell(a.Metrics["slowed"].Mean))
			} else {
				cells = append(cells, MissingCell("-"), MissingCell("-"), MissingCell("-"))
			}
		}
		t.AddRow(cells...)
	}
	return t
}

// SweepCellsTable has one row per cell: its axes values, id, summary and
// comparison with the baseline (the CSV view of a sweep).
func SweepCellsTable(doc *plan.SimulationSweep) Table {
	t := Table{Title: "Cells", Header: []string{"index", "id", "workload", "policy", "seed", "load", "noise", "machines", "altruism",
		"jobs", "finished", "avgJCT", "medianJCT", "p95JCT", "makespan", "fiMean", "fiP50", "avgJCTRatio", "slowed"}}
	for _, c := range doc.Cells {
		s := c.Summary
		cells := []Cell{IntCell(int64(c.Index)), TextCell(c.ID), TextCell(c.Workload), TextCell(c.Variant), IntCell(c.Seed),
			NumberCell(c.Load), NumberCell(c.Noise), IntCell(int64(c.Size)), optional(c.Altruism, false),
			IntCell(int64(c.Jobs)), IntCell(int64(s.Finished)), NumberCell(s.AvgJCT), NumberCell(s.MedianJCT), NumberCell(s.P95JCT),
			NumberCell(s.Makespan)}
		if x := c.Compare; x != nil && x.Paired > 0 {
			cells = append(cells, NumberCell(x.FI.Mean), NumberCell(x.FI.P50), NumberCell(x.AvgJCTRatio), NumberCell(x.Slowed))
		} else {
			cells = append(cells, MissingCell(""), MissingCell(""), MissingCell(""), MissingCell(""))
		}
		t.AddRow(cells...)
	}
	return t
}

// SweepMetricsTable has one row per group and metric: every statistic
// across seeds.
func SweepMetricsTable(doc *plan.SimulationSweep) Table {
	t := Table{Title: "Metrics", Header: []string{"workload", "policy", "load", "noise", "machines", "metric", "n", "mean", "ci95",
		"low", "high", "sd", "median", "min", "max"}}
	for _, a := range doc.Aggregates {
		for _, name := range sortedNames(a.Metrics) {
			m := a.Metrics[name]
			t.AddRow(TextCell(a.Workload), TextCell(a.Variant), NumberCell(a.Load), NumberCell(a.Noise), IntCell(int64(a.Size)),
				TextCell(name), IntCell(int64(m.N)), NumberCell(m.Mean), NumberCell(m.CI95), NumberCell(m.Low), NumberCell(m.High),
				NumberCell(m.SD), NumberCell(m.Median), NumberCell(m.Min), NumberCell(m.Max))
		}
	}
	return t
}

// WriteSweepText writes the summary line and the aggregates table.
func WriteSweepText(w io.Writer, doc *plan.SimulationSweep, terminal bool) error {
	return writeText(w, SweepSummaryLine(doc), terminal, []Table{SweepAggregatesTable(doc)})
}

// WriteSweepCSV writes SweepCellsTable.
func WriteSweepCSV(w io.Writer, doc *plan.SimulationSweep) error {
	t := SweepCellsTable(doc)
	return t.WriteCSV(w)
}

// SweepWorkbook builds the xlsx report of a sweep: Summary (the
// aggregates table), Metrics (every statistic of every metric), Cells,
// Axes and Inputs.
func SweepWorkbook(doc *plan.SimulationSweep) (*Workbook, error) {
	wb, err := NewWorkbook(WorkbookProperties{Title: "capplan sweep report", Subject: SweepSummaryLine(doc), Creator: doc.Generator})
	if err != nil {
		return nil, err
	}
	if len(doc.Cells) >= maxSheetRows {
		return nil, fmt.Errorf("reports: %d cells exceed the xlsx limit of %d rows", len(doc.Cells), maxSheetRows-1)
	}
	axes := Table{Title: "Axes", Header: []string{"axis", "values"}}
	for _, a := range doc.Sweep.Axes {
		axes.AddRow(TextCell(a.Name), TextCell(strings.Join(a.Values, ", ")))
	}
	inputs := Table{Title: "Inputs", Header: []string{"role", "path", "sha256"}}
	for _, in := range doc.Inputs {
		inputs.AddRow(TextCell(in.Role), TextCell(in.Path), TextCell(in.SHA256))
	}
	metrics := SweepMetricsTable(doc)
	if len(metrics.Rows) >= maxSheetRows {
		return nil, fmt.Errorf("reports: %d metric rows exceed the xlsx limit of %d rows", len(metrics.Rows), maxSheetRows-1)
	}
	for _, s := range []struct {
		name string
		t    Table
	}{{SheetSummary, SweepAggregatesTable(doc)}, {"Metrics", metrics}, {"Cells", SweepCellsTable(doc)},
		{"Axes", axes}, {"Inputs", inputs}} {
		if err := wb.AddTable(s.name, s.t); err != nil {
			return nil, err
		}
	}
	return wb, nil
}
