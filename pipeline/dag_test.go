package pipeline

import (
	"slices"
	"testing"

	"github.com/capplan/capplan/plan"
)

// One job: a (2 s) before b (3 s), and c (4 s), each needing 1 cpu. The
// critical path a→b is 5 s and the work 2 + 3 + 4 = 9 cpu·s.
const dagWorkload = `apiVersion: capplan/v1
kind: Workload
jobs:
  - name: j
    tasks:
      - {id: a, duration: 2, demand: {cpu: 1}}
      - {id: b, duration: 3, demand: {cpu: 1}, after: [a]}
      - {id: c, duration: 4, demand: {cpu: 1}}
`

func TestDAGSchedule(t *testing.T) {
	files := writeFiles(t, map[string]string{"w.yaml": dagWorkload})
	for _, tc := range []struct {
		name     string
		machines int
		capacity string
		method   string
		// makespan and best bound, seconds.
		makespan, bound float64
	}{
		// One 2-cpu machine: a and c at 0, b at 2 ends at 5 = the
		// critical path; TWork 9/2 = 4.5 rounds up to 5 too.
		{"best on 2 cpu", 1, "cpu=2", "", 5, 5},
		{"graphene on 2 cpu", 1, "cpu=2", "graphene", 5, 5},
		{"cp on 2 cpu", 1, "cpu=2", "cp", 5, 5},
		// Two 1-cpu machines (the largest demand): the same 5 s.
		{"sgs on 2 machines", 2, "", "sgs", 5, 5},
		// One 1-cpu machine: all 9 cpu·s in a row; TWork 9/1 = 9.
		{"best on 1 cpu", 1, "cpu=1", "best", 9, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := DAGSchedule(DAGScheduleOptions{Method: tc.method, Seed: 1, Compare: []string{"bfs", "bfs"},
				Input: DAGInput{Path: files["w.yaml"], Machines: tc.machines, MachineCapacity: tc.capacity, Workers: 2}})
			if err != nil {
				t.Fatal(err)
			}
			doc := res.Doc
			if len(doc.Jobs) != 1 || doc.Format != "workload" {
				t.Fatalf("%d jobs, format %s", len(doc.Jobs), doc.Format)
			}
			j := doc.Jobs[0]
			if j.Makespan != tc.makespan || j.Bounds.Best != tc.bound || j.Optimal != (tc.makespan == tc.bound) || j.Bounds.CPLength != 5 {
				t.Errorf("makespan %v, bounds %+v, optimal %v; want %v ≥ %v", j.Makespan, j.Bounds, j.Optimal, tc.makespan, tc.bound)
			}
			// b starts when a ends.
			if a, b := j.Tasks[0], j.Tasks[1]; b.Start < a.End {
				t.Errorf("a %+v, b %+v", a, b)
			}
			if len(j.Compare) != 1 || j.Compare["bfs"] < tc.bound || doc.Flags["compare"] != "bfs" {
				t.Errorf("compare %v, flags %v", j.Compare, doc.Flags)
			}
			if (doc.Method == "best") != (doc.Search != nil) || doc.Summary.Jobs != 1 || doc.Summary.Tasks != 3 {
				t.Errorf("method %s, search %+v, summary %+v", doc.Method, doc.Search, doc.Summary)
			}
		})
	}
}

func TestDAGBounds(t *testing.T) {
	files := writeFiles(t, map[string]string{"w.yaml": dagWorkload})
	var done []int
	doc, err := DAGBounds(DAGBoundsOptions{Input: DAGInput{Path: files["w.yaml"], Machines: 1, MachineCapacity: "cpu=2",
		Progress: func(d, total int) { done = append(done, d, total) }}})
	if err != nil {
		t.Fatal(err)
	}
	// Critical path 5; TWork 9 cpu·s / 2 cpu = 4.5, its energy bound
	// ⌈4.5⌉ = 5; the best is 5.
	b := doc.Jobs[0].Bounds
	if b.CPLength != 5 || b.TWork != 4.5 || b.Energy != 5 || b.Best != 5 || b.TWorkByResource["cpu"] != 4.5 {
		t.Errorf("bounds %+v", b)
	}
	if !slices.Equal(done, []int{1, 1}) || doc.Flags["machines"] != "1" || doc.Flags["machineCapacity"] != "cpu=2" {
		t.Errorf("progress %v, flags %v", done, doc.Flags)
	}
}

func TestDAGCheck(t *testing.T) {
	for _, tc := range []struct {
		name     string
		schedule string
		// violations by kind.
		want []string
	}{
		// a and c at 0 on the 2-cpu machine, b when a ends: feasible.
		{"feasible", "job,task,start,end,machine\nj,a,0,2,0\nj,b,2,5,0\nj,c,0,4,0\n", nil},
		// b at 1, before a ends at 2, and a, b and c together need 3 cpu
		// over [1, 2).
		{"early b", "job,task,start,end,machine\nj,a,0,2,0\nj,b,1,4,0\nj,c,0,4,0\n", []string{"capacity", "precedence"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := writeFiles(t, map[string]string{"w.yaml": dagWorkload, "s.csv": tc.schedule})
			doc, err := DAGCheck(DAGCheckOptions{SchedulePath: files["s.csv"],
				Input: DAGInput{Path: files["w.yaml"], Machines: 1, MachineCapacity: "cpu=2"}})
			if err != nil {
				t.Fatal(err)
			}
			j := doc.Jobs[0]
			var kinds []string
			for _, v := range j.Violations {
				kinds = append(kinds, v.Kind)
			}
			slices.Sort(kinds)
			if !slices.Equal(kinds, tc.want) || j.Feasible != (len(tc.want) == 0) || doc.Summary.Violations != len(tc.want) {
				t.Errorf("violations %v (feasible %v), want %v", kinds, j.Feasible, tc.want)
			}
			if tc.want == nil && (j.Makespan != 5 || j.Gap != 0) {
				t.Errorf("makespan %v, gap %v", j.Makespan, j.Gap)
			}
			if doc.Inputs[len(doc.Inputs)-1].Role != "schedule" || doc.Kind != plan.KindDAGCheck {
				t.Errorf("inputs %+v", doc.Inputs)
			}
		})
	}
}

func TestDAGOptionErrors(t *testing.T) {
	files := writeFiles(t, map[string]string{"w.yaml": dagWorkload})
	w := files["w.yaml"]
	for name, o := range map[string]DAGScheduleOptions{
		"no input":           {},
		"input and example":  {Input: DAGInput{Path: w, Example: true}},
		"format":             {Input: DAGInput{Path: w, Format: "dot"}},
		"cluster & machines": {Input: DAGInput{Path: w, ClusterPath: "c.yaml", Machines: 2}},
		"capacity":           {Input: DAGInput{Path: w, Machines: 1, MachineCapacity: "cpu=lots"}},
		"method":             {Input: DAGInput{Path: w, Machines: 1}, Method: "fastest"},
		"compare":            {Input: DAGInput{Path: w, Machines: 1}, Compare: []string{"fastest"}},
		"budget not best":    {Input: DAGInput{Path: w, Machines: 1}, Method: "cp", Budget: DAGBudget{MaxWork: 10}},
		"negative budget":    {Input: DAGInput{Path: w, Machines: 1}, Budget: DAGBudget{MaxWork: -1}},
		"workload, no nodes": {Input: DAGInput{Path: w}},
	} {
		if _, err := DAGSchedule(o); !IsOptionError(err) {
			t.Errorf("%s: error %v, want an option error", name, err)
		}
	}
	if _, err := DAGCheck(DAGCheckOptions{Input: DAGInput{Path: w, Machines: 1}}); !IsOptionError(err) {
		t.Errorf("check without a schedule: %v", err)
	}
}
