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
			c := cols[j]
			if i < len(t.cells) && t.cells[i] != nil && t.cells[i][j].set {
				c = t.cells[i][j] // a cell of another kind than its column
			}
			switch x := v.(type) {
			case Percent:
				v = float64(x)
				c.format = ShowPercent
			case float64:
				if c.scale != 0 {
					v = x * c.scale
				}
			case int64:
				if c.scale != 0 && c.scale != 1 {
					v = float64(x) * c.scale
				}
			}
			if c.format != cols[j].format {
				v = FormattedCell{Value: v, Format: c.format}
			}
			row[j] = v
		}
		st.Rows = append(st.Rows, row)
	}
	return st
}
