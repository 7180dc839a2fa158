package main

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/plan"
)

// tooManyDecimals finds a number shown with more than four decimals.
var tooManyDecimals = regexp.MustCompile(`\d\.\d{5,}`)

// checkWorkbook opens an xlsx file with excelize and checks what a planner
// reading it needs: on every table sheet, a frozen header row and an
// autofilter; headers naming their unit for memory (GiB, the values not
// bytes), cpu (cores) and times (hours or periods); numbers shown with at
// most four decimals and through a number format (not General); booleans
// as yes/no, never TRUE/FALSE; column widths that fit the headers. It
// returns the chart XML parts of the file.
func checkWorkbook(t *testing.T, path string) []string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer f.Close()
	name := filepath.Base(path)
	filters := map[int]bool{} // sheet index → has an autofilter
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" {
			if i, err := f.GetSheetIndex(dn.Scope); err == nil {
				filters[i] = true
			}
		}
	}
	for i, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil || len(rows) == 0 {
			t.Errorf("%s!%s: no rows (%v)", name, sheet, err)
			continue
		}
		panes, err := f.GetPanes(sheet)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s!%s: header row not frozen (%+v, %v)", name, sheet, panes, err)
		}
		if !filters[i] {
			t.Errorf("%s!%s: no autofilter", name, sheet)
		}
		header := rows[0]
		for j, h := range header {
			col, _ := excelize.ColumnNumberToName(j + 1)
			if w, err := f.GetColWidth(sheet, col); err != nil || w < float64(min(len([]rune(h)), 58)) {
				t.Errorf("%s!%s: column %q is %v wide, narrower than its header", name, sheet, h, w)
			}
			lh := strings.ToLower(h)
			percent := len(rows) > 1 && j < len(rows[1]) && strings.HasSuffix(rows[1][j], "%")
			if h == "" || percent || strings.Contains(lh, "%") {
				continue // a ratio has no unit
			}
			switch {
			case (strings.Contains(lh, "memory") || strings.Contains(lh, "storage")) && !strings.Contains(lh, "(gib)"):
				t.Errorf("%s!%s: memory column %q names no GiB unit", name, sheet, h)
			case (lh == "cpu" || strings.HasPrefix(lh, "cpu ") || strings.HasPrefix(lh, "forecast cpu")) && !strings.Contains(lh, "(cores)"):
				t.Errorf("%s!%s: cpu column %q names no cores unit", name, sheet, h)
			case regexp.MustCompile(`^(makespan|start|end|duration|arrival|jct|avg jct|p95 jct|median jct)( \(|$)`).MatchString(lh) &&
				!strings.Contains(lh, "(hours)") && !strings.Contains(lh, "(periods)"):
				t.Errorf("%s!%s: time column %q names no unit", name, sheet, h)
			}
		}
		for r := 1; r < len(rows); r++ {
			for j := range rows[r] {
				ref, _ := excelize.CoordinatesToCellName(j+1, r+1)
				v := rows[r][j]
				typ, _ := f.GetCellType(sheet, ref)
				if typ == excelize.CellTypeBool || v == "TRUE" || v == "FALSE" {
					t.Errorf("%s!%s: boolean %q (want yes/no)", name, ref, v)
				}
				if tooManyDecimals.MatchString(v) && !strings.ContainsAny(v, "abcdfghijklmnopqrstuvwxyz") {
					t.Errorf("%s!%s shows %q: more than four decimals", name, ref, v)
				}
				if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
					continue
				}
				if raw, _ := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true}); raw == "" {
					continue
				}
				style, _ := f.GetCellStyle(sheet, ref)
				st, err := f.GetStyle(style)
				if err != nil || (st.NumFmt == 0 && (st.CustomNumFmt == nil || *st.CustomNumFmt == "")) {
					t.Errorf("%s!%s: number %q in the General format", name, ref, v)
				}
				if h := strings.ToLower(header[j]); strings.Contains(h, "(gib)") {
					if x, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64); err == nil && x > 1<<30 {
						t.Errorf("%s!%s: %q GiB looks like bytes", name, ref, v)
					}
				}
			}
		}
	}
	// The charts, from the package.
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var charts []string
	for _, zf := range zr.File {
		if strings.HasPrefix(zf.Name, "xl/charts/chart") {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			charts = append(charts, string(data))
		}
	}
	return charts
}

// hasChart reports whether one of charts holds all of parts.
func hasChart(charts []string, parts ...string) bool {
	for _, c := range charts {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(c, p)
		}
		if ok {
			return true
		}
	}
	return false
}

// TestWorkbooks (issue 12, item 10): every workbook capplan writes —
// fairshare, shapes, pack (ownership, incremental, sizing), dag schedule,
// bounds and check, simulate, and the plan bundle's report.xlsx — passes
// checkWorkbook and has its native charts: shares per application (bar),
// sizing cost (line), the DAG Gantt (stacked bar) and makespan vs bound;
// an incremental re-plan's nodes carry a "changed" column; CSVs keep full
// precision and whole lists.
func TestWorkbooks(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join(dir, "ex")
	if code, _, errOut := runCapplan(t, "example", ex); code != 0 {
		t.Fatal(errOut)
	}
	at := func(name string) string { return filepath.Join(ex, name) }
	out := func(name string) string { return filepath.Join(dir, name) }
	psplib := dagSharedData(t, "psplib/j30/j301_1.sm")
	steps := [][]string{
		{"fairshare", "--example", "--per-node", "-o", out("fs.json"), "--xlsx", out("fairshare.xlsx")},
		{"shapes", "--example", "-k", "4", "-o", out("catalog.json"), "--xlsx", out("shapes.xlsx")},
		{"pack", "--example", "--shapes", out("catalog.json"), "--budget", "300000", "-o", out("plan.json"), "--xlsx", out("pack.xlsx")},
		{"pack", "-c", at("cluster.yaml"), "-d", at("demand-next.yaml"), "--shapes", out("catalog.json"), "--budget", "300000",
			"--from", out("plan.json"), "--mutable", "0.1", "-o", out("plan2.json"), "--xlsx", out("incremental.xlsx")},
		{"pack", "--min-nodes", "-c", at("nodes.json"), "-d", at("nodes-demand.yaml"), "--node-type", "m5.2xlarge=1,r5.2xlarge=1.3,c5.4xlarge=1.7", "--xlsx", out("sizing.xlsx")},
		{"dag", "schedule", at("workload.yaml"), "-c", at("cluster.yaml"), "--method", "cp", "--xlsx", out("dag.xlsx")},
		{"dag", "schedule", psplib, "--method", "cp", "--xlsx", out("psplib.xlsx")},
		{"dag", "bounds", "--example", "--machines", "4", "-o", out("bounds.xlsx")},
		{"simulate", "--example", "--compare", "fifo,drf", "--baseline", "drf", "-o", out("simulate.xlsx")},
		{"plan", "--example", "-k", "4", "--size", "std=1,std-b=1,highmem=3.5,gpu=12,spot=0.4", "--size-curve", "0.5", "-o", out("bundle")},
	}
	for _, s := range steps {
		if code, _, errOut := runCapplan(t, s...); code != 0 {
			t.Fatalf("%v: exit %d: %s", s, code, errOut)
		}
	}
	code, csvOut, errOut := runCapplan(t, "dag", "schedule", at("workload.yaml"), "-c", at("cluster.yaml"), "--method", "cp", "--csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	if err := os.WriteFile(out("observed.csv"), []byte(csvOut), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCapplan(t, "dag", "check", "--schedule", out("observed.csv"), at("workload.yaml"), "-c", at("cluster.yaml"), "--xlsx", out("check.xlsx")); code != 0 {
		t.Fatal(errOut)
	}
	charts := map[string][]string{}
	for _, wb := range []string{"fairshare.xlsx", "shapes.xlsx", "pack.xlsx", "incremental.xlsx", "sizing.xlsx", "dag.xlsx",
		"psplib.xlsx", "bounds.xlsx", "check.xlsx", "simulate.xlsx", "bundle/report.xlsx"} {
		charts[wb] = checkWorkbook(t, out(wb))
	}
	for _, c := range []struct {
		workbook string
		parts    []string
		what     string
	}{
		{"fairshare.xlsx", []string{"<barChart>", "Machines per application"}, "shares per application (bar)"},
		{"sizing.xlsx", []string{"<lineChart>", "cumulative cost"}, "sizing cost (line)"},
		{"bundle/report.xlsx", []string{"<lineChart>", "Sizing: cost vs nodes"}, "sizing cost vs nodes (line)"},
		{"bundle/report.xlsx", []string{"<barChart>", "Fair share vs demand"}, "shares per application (bar)"},
		{"dag.xlsx", []string{"<barChart>", `<grouping val="stacked">`, "Gantt"}, "DAG Gantt (stacked bar)"},
		{"dag.xlsx", []string{"<barChart>", "Makespan vs best lower bound"}, "makespan vs bound (bar)"},
		{"psplib.xlsx", []string{`<grouping val="stacked">`}, "DAG Gantt (stacked bar)"},
	} {
		if !hasChart(charts[c.workbook], c.parts...) {
			t.Errorf("%s: no chart of %s", c.workbook, c.what)
		}
	}
	// The incremental re-plan's Nodes sheet has a changed column, yes for
	// exactly the nodes the plan says changed.
	f, err := excelize.OpenFile(out("incremental.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("Nodes")
	f.Close()
	var pp plan.PackingPlan
	data, _ := os.ReadFile(out("plan2.json"))
	if err := json.Unmarshal(data, &pp); err != nil {
		t.Fatal(err)
	}
	col := -1
	for j, h := range rows[0] {
		if h == "changed" {
			col = j
		}
	}
	if col < 0 {
		t.Fatalf("incremental Nodes sheet: no changed column in %v", rows[0])
	}
	yes := 0
	for _, r := range rows[1:] {
		if r[col] == "yes" {
			yes++
		}
	}
	if yes != len(pp.Changed) {
		t.Errorf("%d nodes marked changed, the plan lists %d", yes, len(pp.Changed))
	}
	// CSVs: full precision, whole lists.
	_, fsCSV, _ := runCapplan(t, "fairshare", "--example", "--csv")
	var fs plan.FairShare
	data, _ = os.ReadFile(out("fs.json"))
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(fsCSV)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[1][3]; got != strconv.FormatFloat(fs.Shares[0].Machines, 'g', -1, 64) {
		t.Errorf("fair share CSV machines %q, the document %v", got, fs.Shares[0].Machines)
	}
	_, shapesCSV, _ := runCapplan(t, "shapes", "--example", "-k", "2", "--csv")
	if bytes.Contains([]byte(shapesCSV), []byte(" more")) {
		t.Errorf("shapes CSV shortens a list:\n%s", shapesCSV)
	}
}
