package reports

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestWorkbookLargeTable: a table of more rows than a sheet holds
// (1,048,575 under the header) continues on a sheet "NAME (2)", each part
// with the header; the stream writer keeps types and the percent format.
// On main, AddTable panicked in cellName at row 1,048,577.
func TestWorkbookLargeTable(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 1-million-row sheet")
	}
	const n = maxSheetDataRows + 3
	tb := Table{Header: []string{"i", "share"}, Align: []Align{AlignRight, AlignRight},
		Rows: make([][]string, n), Values: make([][]any, n)}
	for i := range tb.Rows {
		tb.Rows[i] = []string{strconv.Itoa(i), "50%"}
		tb.Values[i] = []any{int64(i), Percent(0.5)}
	}
	wb, err := NewWorkbook(WorkbookProperties{Title: "large"})
	if err != nil {
		t.Fatal(err)
	}
	if err := wb.AddTable("Tasks", tb); err != nil {
		t.Fatal(err)
	}
	var buf, again bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := wb.Write(&again); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Fatalf("second Write: %v, same bytes %v", err, bytes.Equal(buf.Bytes(), again.Bytes()))
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.GetSheetList(); len(got) != 2 || got[0] != "Tasks" || got[1] != "Tasks (2)" {
		t.Fatalf("sheets %v, want [Tasks, Tasks (2)]", got)
	}
	rows, err := f.GetRows("Tasks (2)")
	if err != nil {
		t.Fatal(err)
	}
	// The header, then rows 1,048,575 … 1,048,577 (0-based i).
	want := [][]string{{"i", "share"}, {"1,048,575", "50.00%"}, {"1,048,576", "50.00%"}, {"1,048,577", "50.00%"}} // integers with thousands separators, the workbooks' number format
	if len(rows) != len(want) {
		t.Fatalf("second sheet has %d rows, want %d", len(rows), len(want))
	}
	for r := range want {
		for c := range want[r] {
			if rows[r][c] != want[r][c] {
				t.Errorf("second sheet row %d col %d = %q, want %q", r+1, c+1, rows[r][c], want[r][c])
			}
		}
	}
}
