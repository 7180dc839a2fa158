package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/plan"
)

// shapeFixture is a two-shape catalog: s1 = 2 cpu / 4Gi serving 10 requests
// of 1 cpu / 4Gi (waste 10 cpu, 0 memory); s2 = 8 cpu / 32Gi serving 2
// requests of 8 cpu / 16Gi (waste 0 cpu, 32Gi).
func shapeFixture() *plan.ShapeCatalog {
	const gi = 1 << 30
	return &plan.ShapeCatalog{
		Header:       plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindShapeCatalog, Generator: "capplan test"},
		Resources:    []string{"cpu", "memory"},
		K:            2,
		Method:       "ptas",
		CostFunction: "sum",
		WeightBy:     "count",
		Cost:         1.05, LowerBound: 1, Ratio: 1.05, Epsilon: 0.1,
		Shapes: []plan.Shape{
			{Name: "s1", Size: map[string]float64{"cpu": 2, "memory": 4 * gi}, Cost: 0.01, Requests: 10, Classes: 1, Fits: []string{"a", "b", "c"},
				Waste: []plan.Waste{{Resource: "cpu", Requested: 10, Allocated: 20, Wasted: 10, Percent: 100}, {Resource: "memory", Requested: 40 * gi, Allocated: 40 * gi}}},
			{Name: "s2", Size: map[string]float64{"cpu": 8, "memory": 32 * gi}, Cost: 0.05, Requests: 2, Classes: 1, Fits: []string{"b"},
				Waste: []plan.Waste{{Resource: "cpu", Requested: 16, Allocated: 16}, {Resource: "memory", Requested: 32 * gi, Allocated: 64 * gi, Wasted: 32 * gi, Percent: 100}}},
		},
		Assignments: []plan.Assignment{
			{Application: "web", Request: map[string]float64{"cpu": 1, "memory": 4 * gi}, Count: 10, Shape: "s1"},
			{Application: "db", Request: map[string]float64{"cpu": 8, "memory": 16 * gi}, Count: 2, Shape: "s2"},
		},
		Waste: []plan.Waste{{Resource: "cpu", Requested: 26, Allocated: 36, Wasted: 10, Percent: 38.4615}, {Resource: "memory", Requested: 72 * gi, Allocated: 104 * gi, Wasted: 32 * gi, Percent: 44.4444}},
	}
}

func TestShapeCatalogText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteShapeCatalogText(&b, shapeFixture(), false, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# ptas, sum cost, K=2: 2 shapes for 2 request classes; cost 1.05, lower bound 1, ratio 1.05, within 1.1× of optimal (ε = 0.1); waste cpu 38.46%, memory 44.44%\n",
		"s1\t2\t4Gi\t0.01\t10\t1\t100%\t0%\ta,b +1 more\n",
		"s2\t8\t32Gi\t0.05\t2\t1\t0%\t100%\tb\n",
		"memory\t72Gi\t104Gi\t32Gi\t44.44%\n",
		"db\t8\t16Gi\t2\ts2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestShapeCatalogCSVAndWorkbook(t *testing.T) {
	doc := shapeFixture()
	var b bytes.Buffer
	if err := WriteShapeCatalogCSV(&b, doc); err != nil {
		t.Fatal(err)
	}
	if got := strings.SplitN(b.String(), "\n", 2)[0]; got != "shape,cpu,memory,cost,requests,classes,waste cpu,waste memory,fits" {
		t.Errorf("CSV header %q", got)
	}
	wb, err := ShapeCatalogWorkbook(doc)
	if err != nil {
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
	if got := strings.Join(f.GetSheetList(), ","); got != "Summary,Shapes,Waste,Assignments,Steps" {
		t.Errorf("sheets %s", got)
	}
	// Memory is stored in GiB as a number, whatever the text shows.
	if v, _ := f.GetCellValue("Shapes", "C3", excelize.Options{RawCellValue: true}); v != "32" {
		t.Errorf("Shapes!C3 = %q, want 32Gi in GiB", v)
	}
}
