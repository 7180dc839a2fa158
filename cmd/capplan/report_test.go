package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"fairshare", "--example", "-o", filepath.Join(dir, "fairshare.json")},
		{"shapes", "--example", "-k", "6", "-o", filepath.Join(dir, "shapes.json")},
		{"dag", "schedule", "--example", "-o", filepath.Join(dir, "dag.json")},
	} {
		if code, _, stderr := runCapplan(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	writeBundle(t, dir,
		plan.PlanStep{Name: plan.StepFairShare, Kind: plan.KindFairShare, File: "fairshare.json"},
		plan.PlanStep{Name: plan.StepShapes, Kind: plan.KindShapeCatalog, File: "shapes.json"},
		plan.PlanStep{Name: plan.StepDAG, Kind: plan.KindDAGSchedule, File: "dag.json"})
	code, _, stderr := runCapplan(t, "report", dir)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"report.html", "report.xlsx", "figures/shares.svg", "figures/shapes-cpu-memory.svg", "figures/gantt-1-q17.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !bytes.Contains(html, []byte("capplan plan --example -o")) {
		t.Error("the HTML report does not show the bundle's command line")
	}
	// Re-rendering gives the same bytes, from plan.json too.
	xlsx, _ := os.ReadFile(filepath.Join(dir, "report.xlsx"))
	if code, _, stderr := runCapplan(t, "report", filepath.Join(dir, "plan.json"), "-o", filepath.Join(dir, "again")); code != 0 {
		t.Fatal(stderr)
	}
	for name, want := range map[string][]byte{"report.html": html, "report.xlsx": xlsx} {
		got, _ := os.ReadFile(filepath.Join(dir, "again", name))
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs when rendered again", name)
		}
	}
	// Loose documents, with the command that made the report.
	out := filepath.Join(dir, "loose")
	if code, _, stderr := runCapplan(t, "report", "--fairshare", filepath.Join(dir, "fairshare.json"), "-o", out); code != 0 {
		t.Fatal(stderr)
	}
	html, _ = os.ReadFile(filepath.Join(out, "report.html"))
	if !bytes.Contains(html, []byte("capplan report --fairshare=")) {
		t.Error("the loose report does not show its command")
	}
}

func TestReportUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"nothing", []string{"report"}, 2, "give a bundle"},
		{"both", []string{"report", dir, "--dag", "x.json"}, 2, "cannot be combined"},
		{"loose without out", []string{"report", "--dag", "x.json"}, 2, "an output directory is required"},
		{"no index", []string{"report", dir}, 1, "plan.json"},
		{"other file", []string{"report", filepath.Join(dir, "x.json")}, 1, "x.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCapplan(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}
