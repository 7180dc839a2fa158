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
