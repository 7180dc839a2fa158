package reports

import (
	"archive/zip"
	"bytes"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

func fairShareXLSX(t *testing.T) []byte {
	t.Helper()
	wb, err := FairShareWorkbook(choosyFigure1())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFairShareWorkbookDeterministic(t *testing.T) {
	// Several builds, since a map-order dependence shows only sometimes.
	a := fairShareXLSX(t)
	for range 10 {
		if b := fairShareXLSX(t); !bytes.Equal(a, b) {
			t.Fatalf("two builds of the same document differ (%d vs %d bytes)", len(a), len(b))
		}
	}
	// The pinned timestamp is what the core properties record.
	core := zipFile(t, a, "docProps/core.xml")
	if !strings.Contains(core, "1980-01-01T00:00:00Z") {
		t.Errorf("docProps/core.xml does not carry the fixed timestamp:\n%s", core)
	}
}

// zipFile returns one member of an xlsx (zip) package.
func zipFile(t *testing.T, xlsx []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFairShareWorkbookContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xlsx")
	wb, err := FairShareWorkbook(choosyFigure1())
	if err != nil {
		t.Fatal(err)
	}
	if err := wb.Save(path); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	wantSheets := []string{"Summary", "Shares", "Resources", "Allocation", "MachineTypes", "Certificate", "Nodes"}
	if got := f.GetSheetList(); !slices.Equal(got, wantSheets) {
		t.Errorf("sheets = %v, want %v", got, wantSheets)
	}

	// Cells that must be numbers, with their values as Excel stores them.
	for _, tc := range []struct {
		sheet, cell, want string
	}{
		{"Shares", "D2", "1.5"},                // spark's machines
		{"Shares", "I5", "5.5"},                // batch's independent machines
		{"Shares", "G5", "0.5714285714285714"}, // batch's fraction, full precision
		{"Shares", "C2", "2"},                  // spark's demand cap
		{"Allocation", "C3", "0.25"},           // presto on m2
		{"Allocation", "L5", "4"},              // batch's total
		{"MachineTypes", "D5", "128"},          // m4's memory, 128Gi, in GiB
		{"Certificate", "B2", "1.5"},           // round-1 level
		{"Summary", "B9", "10"},                // machines
		{"Nodes", "D2", "0.75"},                // spark's part of m1-0
	} {
		typ, err := f.GetCellType(tc.sheet, tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		// excelize reports a cell without a type attribute, which is how
		// numbers are stored, as CellTypeUnset; text would be a shared or
		// inline string.
		if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
			t.Errorf("%s!%s has type %v, want a number", tc.sheet, tc.cell, typ)
		}
		got, err := f.GetCellValue(tc.sheet, tc.cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s!%s = %q, want %q", tc.sheet, tc.cell, got, tc.want)
		}
	}
	// An unbounded cap is an empty cell, not "-".
	if got, _ := f.GetCellValue("Shares", "C3"); got != "" {
		t.Errorf("presto's cap cell = %q, want empty", got)
	}
	// The fraction shows as a percentage.
	if got, _ := f.GetCellValue("Shares", "G2"); got != "75.00%" {
		t.Errorf("formatted fraction = %q, want 75.00%%", got)
	}
	// Text stays text; the summary's flag shows yes/no.
	if got, _ := f.GetCellValue("Shares", "A5"); got != "batch" {
		t.Errorf("Shares!A5 = %q, want batch", got)
	}
	if got, _ := f.GetCellValue("Summary", "B16"); got != "yes" {
		t.Errorf("Summary!B16 (certificate verified) = %q, want yes", got)
	}

	// Header row: bold and frozen.
	panes, err := f.GetPanes("Shares")
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("panes = %+v, want the header row frozen", panes)
	}
	styleID, _ := f.GetCellStyle("Shares", "A1")
	style, err := f.GetStyle(styleID)
	if err != nil {
		t.Fatal(err)
	}
	if style.Font == nil || !style.Font.Bold {
		t.Error("header cell is not bold")
	}

	// The chart: a native clustered (horizontal) bar chart of the two
	// series over the Shares columns.
	raw := mustRead(t, path)
	chart := html.UnescapeString(zipFile(t, raw, "xl/charts/chart1.xml"))
	for _, want := range []string{
		"<barChart>", `<barDir val="bar"`, `<grouping val="clustered"`,
		"<cat><strRef><f>'Shares'!$A$2:$A$5</f>", // applications
		"<tx><strRef><f>'Shares'!$D$1</f>",       // "machines" (CMMF)
		"<val><numRef><f>'Shares'!$D$2:$D$5</f>",
		"<tx><strRef><f>'Shares'!$I$1</f>", // "independent"
		"<val><numRef><f>'Shares'!$I$2:$I$5</f>",
	} {
		if !strings.Contains(chart, want) {
			t.Errorf("chart1.xml lacks %q", want)
		}
	}
	drawingRels := zipFile(t, raw, "xl/worksheets/_rels/sheet2.xml.rels")
	if !strings.Contains(drawingRels, "drawing") {
		t.Errorf("the Shares sheet has no drawing: %s", drawingRels)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFairShareWorkbookWithoutNodes(t *testing.T) {
	doc := choosyFigure1()
	doc.Nodes = nil
	wb, err := FairShareWorkbook(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := wb.Sheets(); slices.Contains(got, "Nodes") {
		t.Errorf("sheets = %v, want no Nodes sheet", got)
	}
}

func TestWorkbookErrors(t *testing.T) {
	wb, err := NewWorkbook(WorkbookProperties{})
	if err != nil {
		t.Fatal(err)
	}
	if err := wb.Write(io.Discard); err == nil {
		t.Error("writing an empty workbook succeeded")
	}
	tb := Table{Header: []string{"name", "x"}, Align: []Align{AlignLeft, AlignRight}}
	tb.AddRow(TextCell("a"), NumberCell(1))
	if err := wb.AddTable("Data", tb); err != nil {
		t.Fatal(err)
	}
	if err := wb.AddTable("data", tb); err == nil {
		t.Error("a second sheet named data (case-insensitively Data) was accepted")
	}
	if err := wb.AddTable("bad/name", tb); err == nil {
		t.Error("an invalid sheet name was accepted")
	}
	if err := wb.AddTable("Empty", Table{}); err == nil {
		t.Error("a table without columns was accepted")
	}
	for _, tc := range []struct {
		name string
		c    BarChart
	}{
		{"unknown sheet", BarChart{DataSheet: "Nope", Categories: "name", Series: []string{"x"}}},
		{"unknown column", BarChart{DataSheet: "Data", Categories: "name", Series: []string{"y"}}},
		{"unknown categories", BarChart{DataSheet: "Data", Categories: "nom", Series: []string{"x"}}},
		{"no series", BarChart{DataSheet: "Data", Categories: "name"}},
	} {
		if err := wb.AddBarChart("Data", "D2", tc.c); err == nil {
			t.Errorf("%s: chart accepted", tc.name)
		}
	}
	empty := Table{Header: []string{"name", "x"}}
	if err := wb.AddTable("NoRows", empty); err != nil {
		t.Fatal(err)
	}
	err = wb.AddBarChart("NoRows", "D2", BarChart{DataSheet: "NoRows", Categories: "name", Series: []string{"x"}})
	if !errors.Is(err, ErrEmptyChart) {
		t.Errorf("chart over no rows: err = %v, want ErrEmptyChart", err)
	}
}

func TestWorkbookUntypedRows(t *testing.T) {
	// Rows given as text only: right-aligned numeric text becomes numbers.
	wb, err := NewWorkbook(WorkbookProperties{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	tb := Table{
		Header: []string{"name", "n"},
		Align:  []Align{AlignLeft, AlignRight},
		Rows:   [][]string{{"a", "2.5"}, {"b", "-"}},
	}
	if err := wb.AddTable("T", tb); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if typ, _ := f.GetCellType("T", "B2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("B2 type = %v, want number", typ)
	}
	if got, _ := f.GetCellValue("T", "B3"); got != "-" {
		t.Errorf("B3 = %q, want the text -", got)
	}
}
