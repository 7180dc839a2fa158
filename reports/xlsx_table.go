package reports

import "strings"

// sheetTable converts a view-neutral table into the step table a workbook
// sheet is written from, so that every workbook shares the bundle report's
// formatting (one home): each column's header names its unit (from the
// cells, sheetColumn; a header that already holds one in parentheses is
// kept), its numbers are scaled to that unit (bytes to GiB, seconds to
// hours), and its number format is the cells' (four decimals for plain
// numbers, whole numbers for integers, % for percentages, yes/no for
// booleans, scientific for small normalised costs).
func (t *Table) sheetTable(sheet string) StepTable {
	st := StepTable{Sheet: sheet, Title: t.Title}
	cols := t.sheet
	if cols == nil {
		cols = make([]sheetColumn, len(t.Header))
	}
	for j, h := range t.Header {
		c := cols[j]
		if c.unit != "" && !strings.Contains(h, "(") {
			h += " (" + c.unit + ")"
		}
		st.Columns = append(st.Columns, Column{Header: h, Format: c.format})
	}
	for i := range t.Rows {
		row := make([]any, len(t.Header))
		for j := range t.Header {
			v := t.value(i, j)
			scale := cols[j].scale
			switch x := v.(type) {
			case Percent:
				row[j] = FormattedCell{Value: float64(x), Format: ShowPercent}
				continue
			case float64:
				if scale != 0 {
					v = x * scale
				}
			case int64:
				if scale != 0 && scale != 1 {
					v = float64(x) * scale
				}
			}
			row[j] = v
		}
		st.Rows = append(st.Rows, row)
	}
	return st
}
