package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// xsightSet is simSet with X-Sight views on its tetris run: two
// applications of two containers each, a pair whose imbalance crosses the
// bound 1 (0 → 3 → −2), and a snapshot with a borrowed container and an
// AM's.
func xsightSet() *plan.SimulationSet {
	set := simSet()
	size := map[string]float64{"cpu": 1}
	set.Runs[1].XSight = &plan.SimXSight{
		Apps: []plan.SimXApp{
			{App: "u0", Containers: 2, Charge: 0.5, Step: 2, T: []float64{0, 2, 4}, OwnUsed: []float64{0.5, 1, 0}, Lent: []float64{0.5, 0, 0},
				Borrowed: []float64{0, 0.5, 0}},
			{App: "u1", Containers: 2, Charge: 0.5, Step: 2, T: []float64{0, 2, 4}, OwnUsed: []float64{0, 0.5, 0}, Lent: []float64{0, 0.5, 0},
				Borrowed: []float64{0.5, 0, 0}},
		},
		Pairs: []plan.SimXPair{{A: "u0", B: "u1", Bound: 1, T: []float64{0, 3, 8}, Share: []float64{0, 3, -2}, Beyond: 3}},
		Snapshots: []plan.SimXSnapshot{{T: 2, Nodes: []plan.SimXNode{{Name: "n0", Containers: []plan.SimXContainer{
			{Owner: "u0", Size: size, User: "u1", Job: "b"}, {Owner: "u0", Size: size, Shape: "am", User: "u0", Job: "AM"},
			{Owner: "u1", Size: size}, {Owner: "u1", Size: size, User: "u1", Job: "b"}}}}}},
	}
	return set
}

// TestXSightFigures: the X-Sight figures are written for the run that has
// views, parse as SVG, and render to the same bytes twice; the xlsx gains
// its XSight, Pairs and Snapshots sheets.
func TestXSightFigures(t *testing.T) {
	figs, err := XSightFigures(xsightSet())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		d := xml.NewDecoder(bytes.NewReader(f.SVG))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: not XML: %v", f.Name, err)
			}
		}
	}
	if want := "xsight-util-tetris-u0,xsight-util-tetris-u1,xsight-pair-tetris-u0-u1,xsight-packing-tetris-2"; strings.Join(names, ",") != want {
		t.Errorf("figures %v, want %s", names, want)
	}
	again, _ := XSightFigures(xsightSet())
	for i := range figs {
		if !bytes.Equal(figs[i].SVG, again[i].SVG) {
			t.Errorf("%s: bytes differ between renders", figs[i].Name)
		}
	}
	if !bytes.Contains(figs[3].SVG, []byte("AM")) {
		t.Error("the snapshot does not label the AM's container")
	}
	wb, err := SimulationWorkbook(xsightSet())
	if err != nil {
		t.Fatal(err)
	}
	for _, sheet := range []string{SheetSimXSight, SheetSimPairs, SheetSimSnapshot} {
		if _, ok := wb.sheets[sheet]; !ok {
			t.Errorf("workbook lacks sheet %s", sheet)
		}
	}
}

// TestSplitAt cuts a segment where it crosses levels: 0 → 3 over [0, 3]
// crosses 1 at t = 1.
func TestSplitAt(t *testing.T) {
	got := splitAt(0, 3, 0, 3, 1, -1)
	if len(got) != 2 || got[0] != (segment{0, 1, 0, 1}) || got[1] != (segment{1, 3, 1, 3}) {
		t.Errorf("splitAt = %v", got)
	}
}
