package reports

import (
	"fmt"
	"math"
	"slices"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/plan"
)

// Sheets of the simulation workbook.
const (
	SheetSimCompare     = "Compare"
	SheetSimUtilization = "Utilization"
	SheetSimFairness    = "Fairness"
	SheetSimInputs      = "Inputs"
)

// SimulationWorkbook builds the xlsx report of a simulation (SIMULATE.md
// §4.3): Summary (the policies side by side, with a native bar chart of
// average JCT and makespan), one Jobs sheet per policy, Compare (FI per
// job and policy with a CDF chart, when there is a baseline), Utilization
// (series per policy and resource, with a line chart), Fairness (Jain's
// index per window), Rejected and Inputs.
func SimulationWorkbook(set *plan.SimulationSet) (*Workbook, error) {
	wb, err := NewWorkbook(WorkbookProperties{Title: "capplan simulation report",
		Subject: "policies on " + set.Workload.Name, Creator: set.Generator})
	if err != nil {
		return nil, err
	}
	summary := SimulationPoliciesTable(set)
	if err := wb.AddTable(SheetSummary, summary); err != nil {
		return nil, err
	}
	if err := wb.AddBarChart(SheetSummary, cellName(len(summary.Header)+1, 1), BarChart{Title: "Average JCT and makespan (hours)",
		DataSheet: SheetSummary, Categories: "policy", Series: []string{"avg JCT", "makespan"}, ValueTitle: "hours"}); err != nil {
		return nil, err
	}
	taken := map[string]bool{SheetSummary: true, SheetSimCompare: true, SheetSimUtilization: true, SheetSimFairness: true,
		SheetSimInputs: true, SheetDAGRejected: true, SheetSimXSight: true, SheetSimPairs: true, SheetSimSnapshot: true,
		SheetSimRMSE: true, SheetSimGroups: true}
	for _, r := range set.Runs {
		if len(r.Jobs) >= maxSheetRows {
			return nil, fmt.Errorf("reports: %d jobs exceed the xlsx limit of %d rows", len(r.Jobs), maxSheetRows-1)
		}
		if err := wb.AddTable(sheetName("Jobs-", r.Policy.Name, taken), simJobsTable(&r)); err != nil {
			return nil, err
		}
	}
	if set.Baseline != "" {
		t, cols := simCompareTable(set)
		if len(t.Rows) > 0 {
			if err := wb.AddTable(SheetSimCompare, t); err != nil {
				return nil, err
			}
			if err := wb.addLineChart(SheetSimCompare, cellName(len(t.Header)+1, 1), lineChart{Title: "CDF of the factor of improvement vs " + set.Baseline,
				DataSheet: SheetSimCompare, X: "fraction of jobs", Series: cols, XTitle: "fraction of jobs", YTitle: "FI (sorted)"}); err != nil {
				return nil, err
			}
		}
	}
	ut, cols := simUtilizationTable(set)
	if len(ut.Rows) > 0 {
		if err := wb.AddTable(SheetSimUtilization, ut); err != nil {
			return nil, err
		}
		if err := wb.addLineChart(SheetSimUtilization, cellName(len(ut.Header)+1, 1), lineChart{Title: "Utilisation over time",
			DataSheet: SheetSimUtilization, X: "time (s)", Series: cols, XTitle: "time (s)", YTitle: "allocated / capacity"}); err != nil {
			return nil, err
		}
	}
	if err := wb.AddTable(SheetSimFairness, simFairnessTable(set)); err != nil {
		return nil, err
	}
	if len(set.Workload.Rejected) > 0 {
		if err := wb.AddTable(SheetDAGRejected, SimulationRejectedTable(set)); err != nil {
			return nil, err
		}
	}
	if err := addChoosyXFlexSheets(wb, set); err != nil {
		return nil, err
	}
	if err := wb.AddTable(SheetSimInputs, simInputsTable(set)); err != nil {
		return nil, err
	}
	return wb, nil
}

// simJobsTable lists one run's jobs.
func simJobsTable(r *plan.SimulationRun) Table {
	t := Table{Title: "Jobs " + r.Policy.Name, Header: []string{"job", "user", "arrival", "start", "finish", "jct", "lb",
		"stretch", "alone", "slowdown", "tasks", "attempts", "sizeBin"}}
	for _, j := range r.Jobs {
		stretch := MissingCell("")
		if j.JCT != nil && j.LB > 0 {
			stretch = NumberCell(*j.JCT / j.LB)
		}
		t.AddRow(TextCell(j.Name), TextCell(j.User), SecondsCell(j.Arrival), optionalSeconds(j.Start), optionalSeconds(j.Finish),
			optionalSeconds(j.JCT), SecondsCell(j.LB), stretch, optionalSeconds(j.Alone), optional(j.Slowdown, false),
			IntCell(int64(j.Tasks)), IntCell(int64(j.Attempts)), TextCell(j.SizeBin))
	}
	return t
}

// simCompareTable has one row per rank: the fraction of jobs and, per
// policy, its sorted FI values (an empirical CDF, one column per policy).
func simCompareTable(set *plan.SimulationSet) (Table, []string) {
	var cols [][]float64
	var names []string
	n := 0
	for _, r := range set.Runs {
		if r.Compare == nil || r.Compare.Paired == 0 {
			continue
		}
		var fi []float64
		for _, p := range r.Compare.PerJob {
			fi = append(fi, p.FI)
		}
		slices.Sort(fi)
		cols = append(cols, fi)
		names = append(names, "FI "+r.Policy.Name)
		n = max(n, len(fi))
	}
	t := Table{Title: "Compare", Header: append([]string{"fraction of jobs"}, names...)}
	for i := 0; i < n; i++ {
		cells := []Cell{NumberCell(float64(i+1) / float64(n))}
		for _, c := range cols {
			if i < len(c) {
				cells = append(cells, NumberCell(c[i]))
			} else {
				cells = append(cells, MissingCell(""))
			}
		}
		t.AddRow(cells...)
	}
	return t, names
}

// simUtilizationTable has one row per point of a common time grid (the
// coarsest step of the runs; finer series are averaged into it): time
// and, per policy and resource, the utilisation.
func simUtilizationTable(set *plan.SimulationSet) (Table, []string) {
	t := Table{Title: "Utilization", Header: []string{"time (s)"}}
	step := 0.0
	for _, r := range set.Runs {
		step = max(step, r.Series.Step)
	}
	var cols []string
	var data [][]float64
	n := 0
	for _, r := range set.Runs {
		for _, res := range set.Cluster.Resources {
			name := r.Policy.Name + " " + res
			t.Header = append(t.Header, name)
			cols = append(cols, name)
			xs := resample(r.Series.Start, r.Series.Step, r.Series.Utilization[res], step)
			data = append(data, xs)
			n = max(n, len(xs))
		}
	}
	for i := 0; i < n; i++ {
		cells := []Cell{NumberCell(float64(i) * step)}
		for _, xs := range data {
			if i < len(xs) {
				cells = append(cells, PercentCell(xs[i]))
			} else {
				cells = append(cells, MissingCell(""))
			}
		}
		t.AddRow(cells...)
	}
	return t, cols
}

// resampleTol absorbs float rounding in the number of grid buckets.
const resampleTol = 1e-9

// resample averages a series of points step apart from start onto a grid
// of width to (a multiple of step) from time 0; buckets before start are
// 0.
func resample(start, step float64, xs []float64, to float64) []float64 {
	if step <= 0 || to <= 0 || len(xs) == 0 {
		return nil
	}
	end := start + float64(len(xs))*step
	out := make([]float64, max(1, int(math.Ceil(end/to-resampleTol))))
	cnt := make([]float64, len(out))
	for j, x := range xs {
		k := int((start + float64(j)*step) / to)
		if k >= len(out) {
			k = len(out) - 1
		}
		out[k] += x
		cnt[k]++
	}
	for k := range out {
		if cnt[k] > 0 {
			out[k] /= cnt[k]
		}
	}
	return out
}

// simFairnessTable lists Jain's index per policy and window.
func simFairnessTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Fairness", Header: []string{"policy", "window", "windows", "mean", "min", "max"}}
	for _, r := range set.Runs {
		for _, w := range sortedNames(r.Summary.Jain) {
			j := r.Summary.Jain[w]
			t.AddRow(TextCell(r.Policy.Name), TextCell(w), IntCell(int64(j.Windows)), NumberCell(j.Mean), NumberCell(j.Min), NumberCell(j.Max))
		}
	}
	return t
}

// simInputsTable lists the inputs and the cell's parameters.
func simInputsTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Inputs", Header: []string{"key", "value"}}
	add := func(k string, c Cell) { t.AddRow(TextCell(k), c) }
	add("workload", TextCell(set.Workload.Name))
	for _, k := range sortedNames(set.Workload.Params) {
		add("workload."+k, TextCell(set.Workload.Params[k]))
	}
	add("machines", IntCell(int64(set.Cluster.Machines)))
	add("tick (s)", NumberCell(set.Tick))
	add("noise", NumberCell(set.Noise))
	for _, in := range set.Inputs {
		add("input "+in.Role, TextCell(in.Path+" sha256:"+in.SHA256))
	}
	addProvenance(&t, &set.Header)
	return t
}

// lineChart is a native xlsx line chart over columns of a table sheet,
// against a numeric x column.
type lineChart struct {
	Title, DataSheet, X string
	Series              []string
	XTitle, YTitle      string
}

// addLineChart adds a scatter chart with straight lines (so x is numeric)
// over the columns of a table sheet.
func (wb *Workbook) addLineChart(sheet, anchor string, c lineChart) error {
	info, ok := wb.sheets[c.DataSheet]
	if !ok || info.rows == 0 || len(c.Series) == 0 {
		return fmt.Errorf("%w: chart %q over sheet %q", ErrEmptyChart, c.Title, c.DataSheet)
	}
	ref := quoteSheet(c.DataSheet) + "!"
	column := func(header string) (string, string, error) {
		j := info.column(header)
		if j < 0 {
			return "", "", fmt.Errorf("reports: chart %q: sheet %q has no column %q", c.Title, c.DataSheet, header)
		}
		return ref + absolute(cellName(j, 0)), ref + absolute(cellName(j, 1)) + ":" + absolute(cellName(j, info.rows)), nil
	}
	_, xs, err := column(c.X)
	if err != nil {
		return err
	}
	noVary := false
	chart := &excelize.Chart{Type: excelize.Scatter, Legend: excelize.ChartLegend{Position: "bottom"},
		Dimension:  excelize.ChartDimension{Width: chartWidth, Height: 400},
		Title:      []excelize.RichTextRun{{Text: c.Title}},
		XAxis:      excelize.ChartAxis{Title: []excelize.RichTextRun{{Text: c.XTitle}}},
		YAxis:      excelize.ChartAxis{MajorGridLines: true, Title: []excelize.RichTextRun{{Text: c.YTitle}}},
		VaryColors: &noVary}
	for _, s := range c.Series {
		name, vals, err := column(s)
		if err != nil {
			return err
		}
		chart.Series = append(chart.Series, excelize.ChartSeries{Name: name, Categories: xs, Values: vals,
			Marker: excelize.ChartMarker{Symbol: "none"}})
	}
	if err := wb.f.AddChart(sheet, anchor, chart); err != nil {
		return fmt.Errorf("reports: chart %q: %w", c.Title, err)
	}
	return nil
}
