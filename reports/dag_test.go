package reports

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

// dagDoc is a one-job DAGSchedule: a → b on two machines of 4 cpu.
func dagDoc() *plan.DAGSchedule {
	seed := int64(7)
	doc := &plan.DAGSchedule{
		Header: plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindDAGSchedule, Generator: "capplan test",
			Inputs: []plan.Input{{Role: "workload", Path: "w.yaml", SHA256: "abc"}}, Flags: map[string]string{"method": "cp"}, Seed: &seed},
		Format: "workload", Method: "cp",
		Machines: []plan.DAGMachineGroup{{Name: "m", Count: 2, Capacity: map[string]float64{"cpu": 4, "memory": 8 << 30}}},
		Jobs: []plan.DAGJob{{
			DAGJobInfo: plan.DAGJobInfo{Name: "j", NumTasks: 2, Edges: 1, Stages: 2, Resources: []string{"cpu"}, Unit: 1,
				Bounds: plan.DAGBoundSet{CPLength: 30, TWork: 2.5, Energy: 3, NewLB: 30, NodePacking: 30, Bin: 20, Best: 30}},
			Makespan: 30, Method: "cp", Optimal: true, Certificate: "optimal (proved by cpLength)",
			Order: []string{"a", "b"},
			Tasks: []plan.DAGTask{{ID: "b", Start: 10, End: 30, Machine: 1}, {ID: "a", Start: 0, End: 10, Machine: 0}},
		}},
	}
	doc.Summarize()
	return doc
}

func TestDAGScheduleText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDAGScheduleText(&b, dagDoc(), false); err != nil {
		t.Fatal(err)
	}
	want := `# cp schedules of 1 job, 2 tasks (workload) on 2 × m (cpu 4, memory 8Gi): 1 optimal, gap to the best bound mean 0%, max 0%; 0 rejected

# Jobs
job	tasks	makespan	cpLength	tWork	energy	newLB	nodePacking	bin	best bound	gap	method	optimal	certificate
j	2	30	30	2.5	3	30	30	20	30	0%	cp	yes	optimal (proved by cpLength)

# Tasks of j
task	start	end	machine
a	0	10	m-0
b	10	30	m-1
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteDAGScheduleText(&b, dagDoc(), true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "JOB   TASKS   MAKESPAN") {
		t.Errorf("terminal:\n%s", b.String())
	}
}

func TestDAGScheduleCSVAndWorkbook(t *testing.T) {
	doc := dagDoc()
	doc.Pooled = true
	ms := 40.0
	doc.Jobs[0].MachinesMakespan = &ms
	doc.Jobs[0].Compare = map[string]float64{"bfs": 35}
	var b bytes.Buffer
	if err := WriteDAGScheduleCSV(&b, doc); err != nil {
		t.Fatal(err)
	}
	// One row per task in schedule order, the form dag check reads.
	want := "job,task,start,end,machine\n" +
		"j,a,0,10,m-0\n" +
		"j,b,10,30,m-1\n"
	if b.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", b.String(), want)
	}
	wb, err := DAGScheduleWorkbook(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := wb.Sheets(); !slices.Equal(got, []string{"Summary", "Jobs", "Tasks", "Machines", "Gantt"}) {
		t.Errorf("sheets %v", got)
	}
	rows, err := wb.Excel().GetRows("Tasks")
	// Times in hours: task b runs from 10 s to 30 s.
	if err != nil || len(rows) != 3 || !slices.Equal(rows[2], []string{"j", "b", "0.0028", "0.0083", "1", "m-1"}) || rows[0][2] != "start (hours)" {
		t.Errorf("Tasks sheet %v, %v", rows, err)
	}
}

func TestDAGCheckText(t *testing.T) {
	doc := &plan.DAGCheck{
		Header:   plan.Header{Kind: plan.KindDAGCheck},
		Format:   "psplib",
		Machines: []plan.DAGMachineGroup{{Name: "machine", Count: 1, Capacity: map[string]float64{"R1": 4}}},
		Jobs: []plan.DAGCheckJob{{
			DAGJobInfo: plan.DAGJobInfo{Name: "p", NumTasks: 2, Bounds: plan.DAGBoundSet{CPLength: 8, TWork: 4, Energy: 4, NewLB: 8, NodePacking: 8, Bin: 4, Best: 8}},
			Makespan:   10, Gap: 0.25,
			Gaps:       map[string]float64{"cpLength": 0.25, "tWork": 1.5, "energy": 1.5, "newLB": 0.25, "nodePacking": 0.25, "bin": 1.5, "best": 0.25},
			Violations: []plan.DAGViolation{{Kind: "precedence", Task: "3", Pred: "2", Machine: -1, Time: 4, Until: 5, Message: "task 3 starts at 4, before its predecessor 2 ends at 5"}},
		}},
	}
	doc.Summarize()
	var b bytes.Buffer
	if err := WriteDAGCheckText(&b, doc, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# checked 1 job, 2 tasks (psplib) on 1 × machine (R1 4): INFEASIBLE: 1 violation in 1 of them\n",
		"p\tprecedence\t3\t4\t5\ttask 3 starts at 4, before its predecessor 2 ends at 5\n",
		"p\tcpLength\t8\t10\t25%\n",
		"p\ttWork\t4\t10\t150%\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if _, err := DAGCheckWorkbook(doc); err != nil {
		t.Fatal(err)
	}
	// The CSV ends with the bound that gives the best value and the verdict.
	doc.Jobs[0].Bounds.BestBy, doc.Jobs[0].Certificate = "cpLength", "infeasible (1 violation)"
	b.Reset()
	csv := DAGCheckCSVTable(doc)
	if err := csv.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); !strings.HasSuffix(lines[0], ",gap:best,bestBy,certificate") ||
		!strings.HasSuffix(lines[1], ",8,0.25,cpLength,infeasible (1 violation)") {
		t.Errorf("csv:\n%s", b.String())
	}
}

// dagBoundsDoc is a one-job DAGBounds whose best bound comes from a
// destructive bound; timed adds the seconds --timings records.
func dagBoundsDoc(timed bool) *plan.DAGBounds {
	sec := func(x float64) *float64 {
		if !timed {
			return nil
		}
		return &x
	}
	return &plan.DAGBounds{
		Header:   plan.Header{Kind: plan.KindDAGBounds, Generator: "capplan test"},
		Format:   "psplib",
		Machines: []plan.DAGMachineGroup{{Name: "machine", Count: 1, Capacity: map[string]float64{"R1": 4}}},
		Jobs: []plan.DAGJobInfo{{Name: "p", NumTasks: 30, Edges: 42, Stages: 30,
			Bounds: plan.DAGBoundSet{CPLength: 38, TWork: 24.5, Energy: 25, NewLB: 38, NodePacking: 37, Bin: 27, Best: 43, BestBy: "energetic",
				List: []plan.DAGBound{{Name: "cpLength", Value: 38}, {Name: "energy", Value: 25}, {Name: "newLB", Value: 38},
					{Name: "nodePacking", Value: 37}, {Name: "bin", Value: 27},
					{Name: "energetic", Value: 43, Work: 344088, Seconds: sec(0.25)}, {Name: "search", Value: 43, Work: 29851, Seconds: sec(0.5)}}}}},
	}
}

// TestDAGBoundsText checks that dag bounds names the best bound and lists
// every destructive bound with its value and work (and seconds when
// timed), in the text, the CSV and the workbook.
func TestDAGBoundsText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDAGBoundsText(&b, dagBoundsDoc(false), false); err != nil {
		t.Fatal(err)
	}
	want := `# lower bounds of 1 job (psplib) on 1 × machine (R1 4); 0 rejected

# Lower bounds
job	tasks	edges	stages	cpLength	tWork	energy	newLB	nodePacking	bin	best bound	best by
p	30	42	30	38	24.5	25	38	37	27	43	energetic

# Destructive bounds
job	bound	value	work units
p	energetic	43	344088
p	search	43	29851
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteDAGBoundsText(&b, dagBoundsDoc(true), false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "job\tbound\tvalue\twork units\tseconds\np\tenergetic\t43\t344088\t0.25\n") {
		t.Errorf("timed:\n%s", b.String())
	}
	b.Reset()
	csv := DAGBoundsCSVTable(dagBoundsDoc(false))
	if err := csv.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if want := "name,numTasks,edges,stages,cpLength,tWork,energy,newLB,nodePacking,bin,best,bestBy\np,30,42,30,38,24.5,25,38,37,27,43,energetic\n"; b.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", b.String(), want)
	}
	// Without destructive bounds the text has the bounds table alone.
	doc := dagBoundsDoc(false)
	doc.Jobs[0].Bounds.List = doc.Jobs[0].Bounds.List[:5]
	b.Reset()
	if err := WriteDAGBoundsText(&b, doc, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Destructive") {
		t.Errorf("no destructive bounds, yet:\n%s", b.String())
	}
	wb, err := DAGBoundsWorkbook(dagBoundsDoc(true))
	if err != nil {
		t.Fatal(err)
	}
	if got := wb.Sheets(); !slices.Equal(got, []string{"Summary", "Jobs", "Destructive bounds", "Machines"}) {
		t.Errorf("sheets %v", got)
	}
	rows, err := wb.Excel().GetRows("Destructive bounds")
	if err != nil || len(rows) != 3 || !slices.Equal(rows[2], []string{"p", "search", "43.0000", "29,851", "0.5000"}) || rows[0][4] != "seconds" {
		t.Errorf("Destructive bounds sheet %v, %v", rows, err)
	}
}
