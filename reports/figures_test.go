package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// checkSVG parses an SVG document through to its end and checks its root.
func checkSVG(t *testing.T, name string, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", name, root)
	}
}

func TestFiguresExample(t *testing.T) {
	b := exampleBundle(t)
	figs, err := Figures(b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		checkSVG(t, f.Name, f.SVG)
	}
	want := []string{"shares", "shapes-cpu-memory", "shapes-cpu-gpu", "packing-cpu", "packing-memory", "packing-gpu", "sizing",
		"gantt-1-q17", "gantt-2-etl-nightly", "gantt-3-train-pipeline",
		// the simulated check: the JCT CDF, utilisation and shares per run,
		// X-Sight's view of the checked policy for the applications with jobs
		"sim-cdf-jct", "sim-util-xschedule", "sim-shares-xschedule", "sim-util-drf", "sim-shares-drf",
		"sim-xsight-xschedule-batch-etl", "sim-xsight-xschedule-spark-analytics", "sim-xsight-xschedule-ml-train"}
	if !slices.Equal(names, want) {
		t.Errorf("figures %v, want %v", names, want)
	}
	again, err := Figures(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range figs {
		if !bytes.Equal(figs[i].SVG, again[i].SVG) {
			t.Errorf("%s differs between two renderings", figs[i].Name)
		}
	}
}

// TestGanttLanes: tasks [0,10), [5,15), [10,20), [12,13) need 3 lanes (at
// time 12 three run); the third task reuses lane 0, freed at 10.
func TestGanttLanes(t *testing.T) {
	tasks := []plan.DAGTask{{ID: "a", Start: 0, End: 10}, {ID: "b", Start: 5, End: 15}, {ID: "c", Start: 10, End: 20}, {ID: "d", Start: 12, End: 13}}
	lane, lanes := ganttLanes(tasks)
	if lanes != 3 || !slices.Equal(lane, []int{0, 1, 0, 2}) {
		t.Errorf("lanes %v (%d), want [0 1 0 2] (3)", lane, lanes)
	}
}

// TestSizingFigureSingleType draws a one-type sizing: 5 nodes against a
// lower bound of 4, no prices.
func TestSizingFigureSingleType(t *testing.T) {
	pp := &plan.PackingPlan{Mode: "sizing", Resources: []string{"cpu"}, NodeCapacity: map[string]float64{"cpu": 8},
		NodesUsed: 5, LowerBound: 4, Bounds: map[string]int{"volume": 4}}
	f, err := SizingFigure(pp, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, f.Name, f.SVG)
	if !strings.Contains(string(f.SVG), "Sizing: 5 nodes (lower bound 4)") {
		t.Error("the title does not state the nodes and the bound")
	}
	if _, err := SizingFigure(&plan.PackingPlan{Mode: "ownership"}, nil); err == nil {
		t.Error("SizingFigure accepted an ownership plan")
	}
}

// TestPackingFigureAggregates: 400 nodes are drawn as ⌈400/160⌉ = 3 nodes
// per bar.
func TestPackingFigureAggregates(t *testing.T) {
	pp := &plan.PackingPlan{Mode: "ownership", Resources: []string{"cpu"}, NodeCapacity: map[string]float64{"cpu": 4}}
	for i := range 400 {
		pp.Nodes = append(pp.Nodes, plan.PackedNode{Name: "n", Containers: []plan.PackedContainer{{Owner: []string{"a", "b"}[i%2], Size: map[string]float64{"cpu": 2}}}})
	}
	figs, err := PackingFigures(pp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || !strings.Contains(string(figs[0].SVG), "each bar averages 3 nodes") {
		t.Errorf("figures %d; want one that averages 3 nodes per bar", len(figs))
	}
}
