package reports

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/plan"
)

// Summary layout: the key figures from A1, the warnings from column E,
// the charts from column G, one below the other.
const (
	summaryWarningsColumn = 4 // E
	summaryChartColumn    = 6 // G
	summaryChartRows      = 22
)

// BundleWorkbook builds report.xlsx for a bundle: a Summary sheet first
// (the key figures with units, the warnings, and native charts: fair share
// against demand per application, the sizing cost line, and each DAG's
// makespan against its best lower bound), then one sheet per step table
// (StepTables). Every sheet has units in its headers, number formats
// with at most four decimals (thousands separators, percentages as %,
// memory in GiB, times in hours), yes/no booleans, column widths that fit,
// a frozen header row and an autofilter. warnings are listed after the
// bundle's own (BundleWarnings).
//
// The workbook's timestamps are DefaultWorkbookTime, so identical
// documents give byte-identical workbooks.
func BundleWorkbook(b *plan.Bundle, warnings []string) (*Workbook, error) {
	h := bundleHeader(b)
	if h == nil {
		return nil, fmt.Errorf("reports: the bundle has no documents")
	}
	wb, err := NewWorkbook(WorkbookProperties{Title: "capplan plan report", Subject: "Capacity plan", Creator: h.Generator})
	if err != nil {
		return nil, err
	}
	sw := &stepWriter{wb: wb, styles: map[NumberFormat]int{}}
	wb.steps = sw
	all := BundleWarnings(b, warnings)
	if err := sw.write(SummaryTable(b, len(all)), 0, true); err != nil {
		return nil, err
	}
	wt := StepTable{Sheet: "Summary", Columns: []Column{{"warning (text)", ShowText}}}
	for _, w := range all {
		wt.Rows = append(wt.Rows, []any{w})
	}
	if len(all) == 0 {
		wt.Rows = append(wt.Rows, []any{"none"})
	}
	if err := sw.write(wt, summaryWarningsColumn, false); err != nil {
		return nil, err
	}
	for _, t := range StepTables(b) {
		if err := sw.write(t, 0, true); err != nil {
			return nil, err
		}
	}
	if err := addSummaryCharts(wb, b); err != nil {
		return nil, err
	}
	return wb, nil
}

// addSummaryCharts puts the native charts on the Summary sheet.
func addSummaryCharts(wb *Workbook, b *plan.Bundle) error {
	row := 1
	next := func() string {
		a := cellName(summaryChartColumn, row)
		row += summaryChartRows
		return a
	}
	if b.FairShare != nil && len(b.FairShare.Shares) > 0 {
		if err := wb.AddBarChart("Summary", next(), BarChart{
			Title: "Fair share vs demand per application", DataSheet: "Fair shares", Categories: "application",
			Series: []string{"fair share (machines)", "demand (machines)"}, ValueTitle: "machines", Horizontal: true,
		}); err != nil {
			return err
		}
	}
	switch {
	case b.Plan != nil && len(b.Plan.SizingCurve) > 0:
		if err := wb.AddLineChart("Summary", next(), BarChart{
			Title: "Sizing: cost vs nodes", DataSheet: "Sizing curve", Categories: "nodes (count)",
			Series: []string{"cost (cost)", "lower bound (cost)"}, ValueTitle: "cost",
		}); err != nil {
			return err
		}
	case b.Sizing != nil:
		if err := wb.AddLineChart("Summary", next(), BarChart{
			Title: "Sizing: cumulative cost of the mix, node type by node type", DataSheet: "Sizing", Categories: "node type",
			Series: []string{"cumulative cost (cost)"}, ValueTitle: "cost",
		}); err != nil {
			return err
		}
	}
	if b.DAG != nil && len(b.DAG.Jobs) > 0 {
		if err := wb.AddBarChart("Summary", next(), BarChart{
			Title: "DAG makespan vs best lower bound", DataSheet: "DAG schedules", Categories: "job",
			Series: []string{"makespan (hours)", "best bound (hours)"}, ValueTitle: "hours", Horizontal: true,
		}); err != nil {
			return err
		}
	}
	return nil
}

// stepWriter writes step tables into a workbook, with one cell style per
// number format.
type stepWriter struct {
	wb     *Workbook
	styles map[NumberFormat]int
}

func (sw *stepWriter) style(f NumberFormat) (int, error) {
	if id, ok := sw.styles[f]; ok {
		return id, nil
	}
	code := f.excelFormat()
	st := &excelize.Style{}
	if code != "" {
		st.CustomNumFmt = &code
	}
	id, err := sw.wb.f.NewStyle(st)
	if err != nil {
		return 0, fmt.Errorf("reports: workbook styles: %w", err)
	}
	sw.styles[f] = id
	return id, nil
}

// write writes t with its header row at row 1 from column col0 of its
// sheet (creating the sheet when col0 is 0). With main, the header row is
// frozen, the table gets the sheet's autofilter, and charts may refer to
// its columns by header.
func (sw *stepWriter) write(t StepTable, col0 int, main bool) error {
	if col0+len(t.Columns) > excelize.MaxColumns {
		return fmt.Errorf("reports: sheet %q: %d columns, more than a sheet holds (%d)", t.Sheet, col0+len(t.Columns), excelize.MaxColumns)
	}
	if col0 == 0 && main && len(t.Rows) > streamRows {
		return sw.stream(t)
	}
	f := sw.wb.f
	if col0 == 0 {
		if err := sw.wb.newSheet(t.Sheet); err != nil {
			return err
		}
	}
	sheet := t.Sheet
	for j, c := range t.Columns {
		if err := f.SetCellStr(sheet, cellName(col0+j, 0), c.Header); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	if err := f.SetCellStyle(sheet, cellName(col0, 0), cellName(col0+len(t.Columns)-1, 0), sw.wb.headerStyle); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	for i := range t.Rows {
		for j := range t.Columns {
			v, format := t.cell(i, j)
			ref := cellName(col0+j, i+1)
			if err := sw.setCell(sheet, ref, v, format); err != nil {
				return fmt.Errorf("reports: sheet %q: cell %s: %w", sheet, ref, err)
			}
		}
	}
	widths := t.columnWidths()
	for j, w := range widths {
		col, _ := excelize.ColumnNumberToName(col0 + j + 1)
		if err := f.SetColWidth(sheet, col, col, float64(min(max(w+widthPadding, minColumnWidth), maxColumnWidth))); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	if !main {
		return nil
	}
	if err := f.SetPanes(sheet, &excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	filter := cellName(col0, 0) + ":" + cellName(col0+len(t.Columns)-1, max(len(t.Rows), 1))
	if err := f.AutoFilter(sheet, filter, nil); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	header := make([]string, len(t.Columns))
	for j, c := range t.Columns {
		header[j] = c.Header
	}
	sw.wb.sheets[sheet] = &sheetInfo{header: header, rows: len(t.Rows)}
	return nil
}

// columnWidths are the characters each column needs: its header or its
// widest value as shown.
func (t *StepTable) columnWidths() []int {
	widths := make([]int, len(t.Columns))
	for j, c := range t.Columns {
		widths[j] = utf8.RuneCountInString(c.Header)
	}
	for i := range t.Rows {
		for j := range t.Columns {
			v, format := t.cell(i, j)
			widths[j] = max(widths[j], utf8.RuneCountInString(format.Text(v)))
		}
	}
	return widths
}

// setCell writes one value: numbers as numbers in the format's style,
// booleans as yes/no text, text as text, nil as an empty cell.
func (sw *stepWriter) setCell(sheet, ref string, v any, format NumberFormat) error {
	f := sw.wb.f
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return f.SetCellStr(sheet, ref, x)
	case bool:
		return f.SetCellStr(sheet, ref, ShowYesNo.Text(x))
	}
	n, ok := number(v)
	if !ok {
		return f.SetCellStr(sheet, ref, fmt.Sprint(v))
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return f.SetCellStr(sheet, ref, FormatFloat(n))
	}
	if format == ShowText {
		format = ShowDecimal4
		if n == float64(int64(n)) {
			format = ShowInteger
		}
	}
	if err := f.SetCellFloat(sheet, ref, n, -1, 64); err != nil {
		return err
	}
	id, err := sw.style(format)
	if err != nil {
		return err
	}
	return f.SetCellStyle(sheet, ref, ref, id)
}
