package reports

import (
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// TestDAGStepTableCertificate: the bundle's DAG table and its evidence line
// say which bound proves a schedule optimal, or its gap to which bound.
func TestDAGStepTableCertificate(t *testing.T) {
	doc := dagDoc()
	doc.Jobs = append(doc.Jobs, doc.Jobs[0])
	doc.Jobs[0].Certificate = "optimal (proved by energetic)"
	second := &doc.Jobs[1]
	second.Name, second.Makespan, second.Gap, second.Optimal = "k", 33, 0.1, false
	second.Certificate = "gap 10% to the lp bound"
	tab := DAGStepTable(doc)
	col := slices.IndexFunc(tab.Columns, func(c Column) bool { return c.Header == "certificate" })
	if col < 0 || tab.Columns[col].Format != ShowText {
		t.Fatalf("no certificate column: %v", tab.Columns)
	}
	if tab.Rows[0][col] != "optimal (proved by energetic)" || tab.Rows[1][col] != "gap 10% to the lp bound" {
		t.Errorf("certificates %v, %v", tab.Rows[0][col], tab.Rows[1][col])
	}
	for _, r := range tab.Rows {
		if len(r) != len(tab.Columns) {
			t.Errorf("row of %d cells, %d columns", len(r), len(tab.Columns))
		}
	}
	ev := strings.Join(Evidence(&plan.Bundle{DAG: doc}), "\n")
	for _, want := range []string{"best 30 s: optimal (proved by energetic).", "best 30 s: gap 10% to the lp bound."} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence lacks %q:\n%s", want, ev)
		}
	}
}
