package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

func fp(x float64) *float64 { return &x }

// simSet is a two-policy set: drf (jobs a: 10 s, b: 4 s) and tetris (a: 5,
// b: 8), paired against drf, with a short utilisation series and a traced
// job.
func simSet() *plan.SimulationSet {
	seed := int64(1)
	run := func(name string, ja, jb float64) plan.SimulationRun {
		r := plan.SimulationRun{Policy: plan.SimPolicy{Name: name}, Jobs: []plan.SimJob{
			{Name: "a", User: "u0", Arrival: 0, Start: fp(0), Finish: fp(ja), JCT: fp(ja), LB: 4},
			{Name: "b", User: "u1", Arrival: 1, Start: fp(1), Finish: fp(1 + jb), JCT: fp(jb), LB: 2},
		}, Series: plan.SimSeries{Start: 0, Step: 2, Utilization: map[string][]float64{"cpu": {1, 0.5, 0.25}}, Running: []float64{2, 1, 1}},
			Gantt: []plan.SimGanttJob{{Job: "a", Runs: []plan.SimRun{{Task: 0, Stage: 0, Start: 0, End: 3, Kind: "killed"},
				{Task: 0, Stage: 0, Start: 3, End: ja, Kind: "finished"}, {Task: 1, Stage: 1, Start: 0, End: 2, Kind: "finished"}}}}}
		plan.SummarizeJCT(&r.Summary, r.Jobs)
		r.Summary.Makespan = max(ja, 1+jb)
		r.Summary.Utilization = map[string]float64{"cpu": 0.6}
		r.Summary.Jain = map[string]plan.SimJain{"60s": {Mean: 0.9, Min: 0.8, Max: 1, Windows: 3}}
		return r
	}
	set := &plan.SimulationSet{Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindSimulationSet, Seed: &seed},
		SimulationContext: plan.SimulationContext{Workload: plan.SimWorkload{Name: "w", Jobs: 2, Tasks: 2},
			Cluster: plan.SimCluster{Machines: 1, Classes: 1, Resources: []string{"cpu"}}, Tick: 1, Contention: "off"},
		Baseline: "drf", Runs: []plan.SimulationRun{run("drf", 10, 4), run("tetris", 5, 8)}}
	set.Runs[1].Compare = plan.Compare("drf", &set.Runs[0], &set.Runs[1])
	return set
}

func TestSimulationText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSimulationText(&b, simSet(), false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// tetris vs drf: FI 2 and 0.5, median 1.25; avg JCT 7/6.5
	for _, want := range []string{"# simulated w (2 jobs, 2 tasks)", "policy\tfinished\tavg JCT", "tetris\t2\t6.5", "1.25"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulationCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSimulationCSV(&b, simSet()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "policy,job,user,arrival,start,finish,jct,lb,fi" || len(lines) != 5 || lines[3] != "tetris,a,u0,0,0,5,5,4,2" {
		t.Errorf("CSV:\n%s", b.String())
	}
}

func TestSimulationWorkbook(t *testing.T) {
	wb, err := SimulationWorkbook(simSet())
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(wb.Sheets(), ",")
	if got != "Summary,Jobs-drf,Jobs-tetris,Compare,Utilization,Fairness,Inputs" {
		t.Errorf("sheets %s", got)
	}
	var a, b bytes.Buffer
	if err := wb.Write(&a); err != nil {
		t.Fatal(err)
	}
	wb2, _ := SimulationWorkbook(simSet())
	_ = wb2.Write(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("workbook bytes differ between two builds")
	}
}

// TestSimulationFigures: every figure is well-formed XML with an svg root,
// and rendering twice gives the same bytes.
func TestSimulationFigures(t *testing.T) {
	figs, err := SimulationFigures(simSet())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		d := xml.NewDecoder(bytes.NewReader(f.SVG))
		root := ""
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not XML: %v", f.Name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("%s: root element %q", f.Name, root)
		}
	}
	want := "cdf-jct,cdf-fi,bars,util-drf,gantt-a-drf,util-tetris,gantt-a-tetris"
	if strings.Join(names, ",") != want {
		t.Errorf("figures %v", names)
	}
	again, _ := SimulationFigures(simSet())
	for i := range figs {
		if !bytes.Equal(figs[i].SVG, again[i].SVG) {
			t.Errorf("%s: bytes differ between renders", figs[i].Name)
		}
	}
}
