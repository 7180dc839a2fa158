package reports

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/pipeline/pipelinetest"
	"github.com/capplan/capplan/plan"
)

// exampleBundle is the embedded example's documents as a bundle, with an
// index holding a sizing curve and one warning.
func exampleBundle(t *testing.T) *plan.Bundle {
	t.Helper()
	fs := pipelinetest.FairShare(t)
	return &plan.Bundle{
		Plan: &plan.Plan{
			Header:      fs.Header,
			CommandLine: []string{"capplan", "plan", "--example", "-o", "out"},
			Warnings:    []plan.PlanWarning{{Step: plan.StepDAG, Message: "job big needs 96 cores, more than any machine has"}},
			SizingCurve: []plan.SizingPoint{{Label: "forecast × 0.5", Nodes: 260, Cost: 340, LowerBound: 330}, {Label: "forecast × 1", Nodes: 512, Cost: 669.8, LowerBound: 644.98}},
		},
		FairShare:  fs,
		Shapes:     pipelinetest.Shapes(t),
		Ownership:  pipelinetest.Ownership(t),
		Sizing:     pipelinetest.Sizing(t),
		DAG:        pipelinetest.DAG(t),
		Simulation: pipelinetest.Simulation(t),
	}
}

// formatDecimals counts the decimals a number format code shows: the
// digit placeholders after its decimal point ("#,##0.00" → 2).
func formatDecimals(code string) int {
	_, frac, ok := strings.Cut(code, ".")
	if !ok {
		return 0
	}
	n := 0
	for _, r := range frac {
		if r != '0' && r != '#' && r != '?' {
			break
		}
		n++
	}
	return n
}

// builtinFormats are the codes of the built-in number formats a workbook
// may use (ECMA-376 §18.8.30), "" for General.
var builtinFormats = map[int]string{0: "", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%"}

var unitRE = regexp.MustCompile(`\([^)]+\)`)

func TestBundleWorkbook(t *testing.T) {
	b := exampleBundle(t)
	wb, err := BundleWorkbook(b, []string{"k8s: machine type spot: the plan names none of its 48 nodes"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := wb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sheets := f.GetSheetList()
	want := []string{"Summary", "Fair shares", "Fair-share evidence", "Shapes", "Ownership", "Ownership nodes", "Sizing", "Sizing curve", "DAG schedules",
		"Simulation", "Simulated shares"}
	if strings.Join(sheets, "|") != strings.Join(want, "|") {
		t.Fatalf("sheets %v, want %v", sheets, want)
	}
	for _, sheet := range sheets {
		checkSheet(t, f, sheet)
	}
	// Native charts on the Summary sheet: shares, sizing, DAG bounds.
	charts, drawings := zipCharts(t, data)
	if charts != 3 {
		t.Errorf("%d charts in the workbook, want 3", charts)
	}
	if !drawings["xl/worksheets/_rels/sheet1.xml.rels"] {
		t.Error("the Summary sheet (sheet1) has no drawing with the charts")
	}
	// The warnings are on the Summary sheet.
	if v, _ := f.GetCellValue("Summary", "E3"); !strings.Contains(v, "machine type spot") {
		t.Errorf("Summary E3 = %q, want the export warning", v)
	}
	// Byte-identical when built again.
	wb2, err := BundleWorkbook(b, []string{"k8s: machine type spot: the plan names none of its 48 nodes"})
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := wb2.Write(&buf2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, buf2.Bytes()) {
		t.Error("the workbook differs between two builds of the same documents")
	}
}

// checkSheet checks one sheet: a header in every used column, a unit in
// the header of every numeric column, every number in a format of at
// most four decimals (never General), memory in GiB, yes/no instead of
// booleans, a frozen header row and an autofilter.
func checkSheet(t *testing.T, f *excelize.File, sheet string) {
	t.Helper()
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Errorf("%s: %d rows", sheet, len(rows))
		return
	}
	header := rows[0]
	numeric, used := map[int]bool{}, map[int]bool{}
	for i := 1; i < len(rows); i++ {
		for j := range rows[i] {
			used[j] = used[j] || rows[i][j] != ""
			ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
			typ, err := f.GetCellType(sheet, ref)
			if err != nil {
				t.Fatal(err)
			}
			switch typ {
			case excelize.CellTypeBool:
				t.Errorf("%s!%s is a boolean cell; the report writes yes/no", sheet, ref)
			case excelize.CellTypeNumber, excelize.CellTypeUnset:
				if rows[i][j] == "" || typ == excelize.CellTypeUnset && !isNumber(rows[i][j]) {
					continue
				}
				numeric[j] = true
				id, err := f.GetCellStyle(sheet, ref)
				if err != nil {
					t.Fatal(err)
				}
				st, err := f.GetStyle(id)
				if err != nil {
					t.Fatal(err)
				}
				code, ok := builtinFormats[st.NumFmt]
				if st.CustomNumFmt != nil {
					code, ok = *st.CustomNumFmt, true
				}
				if !ok || code == "" {
					t.Errorf("%s!%s (%s) shows in format %d: General or unknown", sheet, ref, rows[i][j], st.NumFmt)
				} else if d := formatDecimals(code); d > 4 {
					t.Errorf("%s!%s shows %d decimals (%q)", sheet, ref, d, code)
				}
			}
		}
	}
	for j, h := range header {
		if h == "" && used[j] {
			t.Errorf("%s: column %d has no header", sheet, j+1)
		}
		if numeric[j] && !unitRE.MatchString(h) {
			t.Errorf("%s: numeric column %q has no unit in its header", sheet, h)
		}
		if strings.Contains(h, "memory") && !strings.Contains(h, "GiB") && !strings.Contains(h, "%") {
			t.Errorf("%s: memory column %q is not in GiB", sheet, h)
		}
	}
	panes, err := f.GetPanes(sheet)
	if err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("%s: header row not frozen: %+v %v", sheet, panes, err)
	}
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// zipCharts counts the chart parts of an xlsx package and reports which
// relationship parts refer to a drawing.
func zipCharts(t *testing.T, data []byte) (charts int, drawings map[string]bool) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	drawings = map[string]bool{}
	for _, file := range zr.File {
		if strings.HasPrefix(file.Name, "xl/charts/chart") && strings.HasSuffix(file.Name, ".xml") {
			charts++
		}
		if strings.HasPrefix(file.Name, "xl/worksheets/_rels/") {
			rc, err := file.Open()
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(rc)
			rc.Close()
			drawings[file.Name] = strings.Contains(string(body), "/drawing")
		}
		if strings.HasPrefix(file.Name, "xl/worksheets/sheet") {
			rc, err := file.Open()
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(rc)
			rc.Close()
			if !strings.Contains(string(body), "<autoFilter ") {
				t.Errorf("%s has no autofilter", file.Name)
			}
		}
	}
	return charts, drawings
}

// BenchmarkBundleReports times the figures, the HTML page and the
// workbook of the example bundle.
func BenchmarkBundleReports(b *testing.B) {
	bundle := &plan.Bundle{FairShare: pipelinetest.FairShare(b), Shapes: pipelinetest.Shapes(b), Ownership: pipelinetest.Ownership(b),
		Sizing: pipelinetest.Sizing(b), DAG: pipelinetest.DAG(b)}
	for b.Loop() {
		figs, err := Figures(bundle)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := HTMLReport(bundle, HTMLOptions{Figures: figs}); err != nil {
			b.Fatal(err)
		}
		wb, err := BundleWorkbook(bundle, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := wb.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
