package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// sweepDoc is a hand-made sweep: two policies × two loads × two seeds,
// paired with drf; its aggregates are as buildSweepDoc computes them.
func sweepDoc(loads ...float64) *plan.SimulationSweep {
	doc := &plan.SimulationSweep{
		Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindSimulationSweep, Generator: "test", Inputs: []plan.Input{{Role: "sweep", Path: "s.yaml", SHA256: "ab"}}},
		Sweep:  plan.SweepInfo{Baseline: "drf", Axes: []plan.SweepAxis{{Name: "policy", Values: []string{"drf", "srtf"}}, {Name: "seed", Values: []string{"1", "2"}}}},
	}
	for _, l := range loads {
		for _, p := range []string{"drf", "srtf"} {
			a := plan.SweepAggregate{Workload: "fb", Variant: p, Load: l, Metrics: map[string]plan.SweepStat{
				"avgJCT":   {N: 2, Mean: 100 * l, CI95: 10, Low: 100*l - 10, High: 100*l + 10, Median: 100 * l, Min: 95 * l, Max: 105 * l},
				"makespan": {N: 2, Mean: 500, Low: 500, High: 500, Median: 500, Min: 500, Max: 500},
			}}
			for seed := int64(1); seed <= 2; seed++ {
				c := plan.SweepCell{Index: len(doc.Cells), ID: "id", Workload: "fb", Policy: plan.SimPolicy{Name: p}, Variant: p, Seed: seed, Load: l,
					Summary: plan.SimSummary{AvgJCT: 100 * l, Makespan: 500, Finished: 10}}
				if p != "drf" {
					c.Compare = &plan.SweepCompare{Baseline: c.Index - 2, FI: plan.SimQuantiles{Mean: 1.2, P50: 1.1}, AvgJCTRatio: 1.2, Slowed: 0.25, Paired: 10}
					a.Metrics["fi.mean"] = plan.SweepStat{N: 2, Mean: 1.2, CI95: 0.1, Low: 1.1, High: 1.3, Median: 1.2, Min: 1.15, Max: 1.25}
					a.Metrics["slowed"] = plan.SweepStat{N: 2, Mean: 0.25}
				}
				a.Cells = append(a.Cells, c.Index)
				doc.Cells = append(doc.Cells, c)
			}
			doc.Aggregates = append(doc.Aggregates, a)
		}
	}
	if len(loads) > 1 {
		doc.Sweep.Axes = append(doc.Sweep.Axes, plan.SweepAxis{Name: "load", Values: []string{"0.6", "0.9"}})
	}
	doc.Sweep.Cells = len(doc.Cells)
	return doc
}

func TestSweepText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSweepText(&b, sweepDoc(0.6, 0.9), false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "# sweep of 8 cells (2 policy, 2 seed, 2 load), 4 groups across seeds, paired with drf" {
		t.Errorf("summary %q", lines[0])
	}
	// srtf at load 0.9: avg JCT 90 ± 10 (median 90, min 85.5, max 94.5),
	// makespan 500 ± 0, FI 1.2 ± 0.1, 25% slowed.
	want := "fb\tsrtf\t0.9\t2\t90\t10\t90\t85.5\t94.5\t500\t0\t1.2\t0.1\t25%"
	if !strings.Contains(b.String(), want) {
		t.Errorf("no row %q in\n%s", want, b.String())
	}
	if !strings.Contains(b.String(), "fb\tdrf\t0.6\t2\t60\t10\t60\t57\t63\t500\t0\t-\t-\t-") {
		t.Errorf("the baseline's row should have no FI:\n%s", b.String())
	}
}

func TestSweepCSVAndWorkbook(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSweepCSV(&b, sweepDoc(0.6)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "index,id,workload,policy,seed,load") || !strings.HasSuffix(lines[3], ",1.2,1.1,1.2,0.25") {
		t.Errorf("CSV:\n%s", b.String())
	}
	wb, err := SweepWorkbook(sweepDoc(0.6, 0.9))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(wb.Sheets(), ","); got != "Summary,Metrics,Cells,Axes,Inputs" {
		t.Errorf("sheets %s", got)
	}
	var x, y bytes.Buffer
	_ = wb.Write(&x)
	wb2, _ := SweepWorkbook(sweepDoc(0.6, 0.9))
	_ = wb2.Write(&y)
	if x.Len() == 0 || !bytes.Equal(x.Bytes(), y.Bytes()) {
		t.Error("workbook bytes differ between two builds")
	}
}

// TestSweepFigures: against load when the sweep varies it (one figure per
// metric, the FI only with a baseline), policies side by side otherwise;
// every figure well-formed and the same bytes twice.
func TestSweepFigures(t *testing.T) {
	for _, tc := range []struct {
		loads []float64
		want  string
	}{
		{[]float64{0.6, 0.9}, "sweep-avgJCT-vs-load-fb,sweep-makespan-vs-load-fb,sweep-fi_mean-vs-load-fb"},
		{[]float64{0.6}, "sweep-avgJCT-fb-load_0_6,sweep-makespan-fb-load_0_6,sweep-fi_mean-fb-load_0_6"},
	} {
		figs, err := SweepFigures(sweepDoc(tc.loads...))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range figs {
			names = append(names, f.Name)
			checkSVG(t, f.Name, f.SVG)
		}
		if got := strings.Join(names, ","); got != tc.want {
			t.Errorf("loads %v: figures %s, want %s", tc.loads, got, tc.want)
		}
		again, _ := SweepFigures(sweepDoc(tc.loads...))
		for i := range figs {
			if !bytes.Equal(figs[i].SVG, again[i].SVG) {
				t.Errorf("%s: bytes differ between two renderings", figs[i].Name)
			}
		}
	}
}
