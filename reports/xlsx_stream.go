package reports

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Sheet limits. An Excel sheet holds 1,048,576 rows, one of them the
// header, so a table of more rows continues on sheets "NAME (2)", "NAME
// (3)", …, each with the header. A table of more than streamRows rows is
// written through excelize's stream writer, which keeps the sheet as XML
// (a few dozen bytes a cell) instead of a cell object (a few hundred); such
// a sheet can only be added whole.
const (
	maxSheetDataRows = excelize.TotalRows - 1
	streamRows       = 50_000
)

// maxSheetName is the longest sheet name Excel accepts.
const maxSheetName = 31

// stream writes a large step table like write (main, from column A),
// through excelize's stream writer, continued on further sheets past
// maxSheetDataRows rows.
func (sw *stepWriter) stream(t StepTable) error {
	parts := (len(t.Rows) + maxSheetDataRows - 1) / maxSheetDataRows
	names := []string{t.Sheet}
	for k := 2; k <= parts; k++ {
		suffix := fmt.Sprintf(" (%d)", k)
		base := []rune(t.Sheet)
		if room := maxSheetName - utf8.RuneCountInString(suffix); len(base) > room {
			base = base[:room]
		}
		names = append(names, string(base)+suffix)
	}
	widths := t.columnWidths()
	header := make([]any, len(t.Columns))
	for j, c := range t.Columns {
		header[j] = excelize.Cell{StyleID: sw.wb.headerStyle, Value: c.Header}
	}
	for k, name := range names {
		lo, hi := k*maxSheetDataRows, min((k+1)*maxSheetDataRows, len(t.Rows))
		if err := sw.streamSheet(name, &t, header, widths, lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// streamSheet writes rows lo … hi−1 of t, under the header, as one sheet.
func (sw *stepWriter) streamSheet(sheet string, t *StepTable, header []any, widths []int, lo, hi int) error {
	if err := sw.wb.newSheet(sheet); err != nil {
		return err
	}
	f := sw.wb.f
	filter := "A1:" + cellName(len(t.Columns)-1, max(hi-lo, 1))
	if err := f.AutoFilter(sheet, filter, nil); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	w, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	for j, n := range widths {
		width := float64(min(max(n+widthPadding, minColumnWidth), maxColumnWidth))
		if err := w.SetColWidth(j+1, j+1, width); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	if err := w.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	if err := w.SetRow("A1", header); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	row := make([]any, len(t.Columns))
	for i := lo; i < hi; i++ {
		for j := range t.Columns {
			v, format := t.cell(i, j)
			if row[j], err = sw.streamValue(v, format); err != nil {
				return fmt.Errorf("reports: sheet %q: %w", sheet, err)
			}
		}
		if err := w.SetRow(cellName(0, i-lo+1), row); err != nil {
			return fmt.Errorf("reports: sheet %q: row %d: %w", sheet, i-lo+2, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	hdr := make([]string, len(t.Columns))
	for j, c := range t.Columns {
		hdr[j] = c.Header
	}
	sw.wb.sheets[sheet] = &sheetInfo{header: hdr, rows: hi - lo}
	sw.wb.streamed++
	return nil
}

// streamValue is setCell's typed cell for the stream writer.
func (sw *stepWriter) streamValue(v any, format NumberFormat) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return x, nil
	case bool:
		return ShowYesNo.Text(x), nil
	}
	n, ok := number(v)
	if !ok {
		return fmt.Sprint(v), nil
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return FormatFloat(n), nil
	}
	if format == ShowText {
		format = ShowDecimal4
		if n == float64(int64(n)) {
			format = ShowInteger
		}
	}
	id, err := sw.style(format)
	if err != nil {
		return nil, err
	}
	return excelize.Cell{StyleID: id, Value: n}, nil
}
