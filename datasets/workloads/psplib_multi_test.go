package workloads

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/sim"
)

// TestPSPLIBMulti: three J30 projects on four machines. Each job keeps its
// project's 30 activities and precedence; each machine holds the largest
// availability of each resource over the three (checked against the
// files), so the simulator admits every job.
func TestPSPLIBMulti(t *testing.T) {
	dir := testdatasets.Need(t, "psplib/j30")
	var ps []*dags.PSPLIB
	var names []string
	for _, f := range []string{"j3010_1.sm", "j3010_2.sm", "j3011_1.sm"} {
		r, err := os.Open(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		p, err := dags.ParsePSPLIB(f, r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		ps, names = append(ps, p), append(names, f)
	}
	c, us, jobs, err := PSPLIBMulti(ps, names, 4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Machines) != 4 || len(us) != 2 || len(jobs) != 3 {
		t.Fatalf("%d machines, %d users, %d jobs", len(c.Machines), len(us), len(jobs))
	}
	for k := range c.Resources {
		want := 0.0
		for _, p := range ps {
			want = max(want, p.Capacity[k])
		}
		if got := float64(c.Machines[0].Cap[k]) * c.Quanta[k]; got != want {
			t.Errorf("%s capacity %v, want the largest availability %v", c.Resources[k], got, want)
		}
	}
	for i, j := range jobs {
		if j.NumTasks() != ps[i].DAG.N() || j.Name != names[i] {
			t.Errorf("job %s: %d tasks, project %d", j.Name, j.NumTasks(), ps[i].DAG.N())
		}
	}
	rej, err := sim.Admit(sim.Config{Cluster: c, Users: us}, jobs)
	if err != nil || len(rej) > 0 {
		t.Errorf("admit: %v %v", rej, err)
	}
	if _, _, _, err := PSPLIBMulti(ps, names[:2], 4, 2, 1); err == nil {
		t.Error("names of another length accepted")
	}
}

// TestStageDepth: stage chains over links and cross-stage edges.
func TestStageDepth(t *testing.T) {
	st := func(n int32) sim.Stage { return sim.Stage{Name: "s", Tasks: n, Duration: 1, Demand: sim.Vec{1}} }
	cases := []struct {
		name string
		job  sim.Job
		want int
	}{
		{"flat", sim.Job{Stages: []sim.Stage{st(2), st(3)}}, 1},
		// 0 → 1 → 2 and 0 → 2: the longest chain has 3 stages
		{"chain", sim.Job{Stages: []sim.Stage{st(1), st(1), st(1)}, Links: []sim.Link{{From: 0, To: 1}, {From: 1, To: 2}, {From: 0, To: 2}}}, 3},
		// an edge from task 0 (stage 0) to task 3 (stage 1, tasks 2–3)
		{"edge", sim.Job{Stages: []sim.Stage{st(2), st(2)}, Edges: []sim.Edge{{From: 0, To: 3}}}, 2},
		// an edge inside stage 0 adds nothing
		{"inside", sim.Job{Stages: []sim.Stage{st(2)}, Edges: []sim.Edge{{From: 0, To: 1}}}, 1},
	}
	for _, c := range cases {
		if got := StageDepth(&c.job); got != c.want {
			t.Errorf("%s: depth %d, want %d", c.name, got, c.want)
		}
	}
}
