package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// psplibJobs loads the first n J30 instances.
func psplibJobs(t *testing.T, n int) []*dags.PSPLIB {
	dir := testdatasets.Need(t, "psplib/j30")
	names, err := filepath.Glob(filepath.Join(dir, "*.sm"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no .sm files in %s", dir)
	}
	if len(names) > n {
		names = names[:n]
	}
	var out []*dags.PSPLIB
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := dags.ParsePSPLIB(filepath.Base(name), f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// aloneUnderCP simulates project p alone under cp on its machines and
// returns the result and each DAG task's start.
func aloneUnderCP(t *testing.T, d *dag.DAG, machines [][]float64) (*sim.Result, []sim.Tick) {
	conv := sim.DAGConversion{Resources: d.Resources, Quanta: make(sim.Quanta, d.K()), TickSeconds: d.Unit}
	for k := range conv.Quanta {
		conv.Quanta[k] = 1000 // one unit of each PSPLIB resource
	}
	c := &sim.Cluster{Resources: d.Resources}
	for i, m := range machines {
		capv := make(sim.Vec, len(m))
		for k, x := range m {
			capv[k] = conv.Quanta.Capacity(k, x)
		}
		c.Machines = append(c.Machines, sim.Machine{Name: "m" + string(rune('0'+i)), Cap: capv, Node: -1, Owner: sim.NoUser})
	}
	job, index, err := conv.Job(d, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	pol, _ := policies.New("cp", nil)
	tr := &sim.Trace{}
	res, err := sim.Run(sim.Config{Cluster: c, Users: users(1), Policy: pol, Check: true, Observers: []sim.Observer{tr}},
		sim.NewSliceSource([]sim.Job{job}))
	if err != nil {
		t.Fatal(err)
	}
	byTask := map[int32]sim.Tick{}
	for _, r := range tr.Runs {
		byTask[r.Task] = r.Start
	}
	starts := make([]sim.Tick, d.N())
	for v := range starts {
		starts[v] = byTask[index[v]]
	}
	return res, starts
}

// TestCPMatchesDAG is SIMULATE.md §7.3: one job alone under cp matches
// `dag schedule --method cp` (the parallel SGS with the CP rule, best
// alignment) exactly — every task's start — on one machine and on
// three, and its makespan is
// never below the DAG's lower bounds.
func TestCPMatchesDAG(t *testing.T) {
	for _, p := range psplibJobs(t, 40) {
		for _, copies := range []int{1, 3} {
			var machines [][]float64
			for i := 0; i < copies; i++ {
				machines = append(machines, p.Capacity)
			}
			want, err := dag.Run("cp", p.DAG, machines, dag.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, starts := aloneUnderCP(t, p.DAG, machines)
			got := res.Jobs[0].JCT()
			for v, st := range starts {
				if st != sim.Tick(want.Start[v]) {
					t.Errorf("%s on %d machines: task %s starts at %d, dag cp at %d", p.DAG.Name, copies, p.DAG.Tasks[v].ID, st, want.Start[v])
					break
				}
			}
			if got != sim.Tick(want.Makespan()) {
				t.Errorf("%s on %d machines: simulated makespan %d, dag cp %d", p.DAG.Name, copies, got, want.Makespan())
			}
			lb := dag.LowerBounds(p.DAG, machines)
			if int64(got) < lb.Best {
				t.Errorf("%s: makespan %d below the lower bound %d", p.DAG.Name, got, lb.Best)
			}
			if int64(res.Jobs[0].LB) > int64(got) || int64(res.Jobs[0].LB) < lb.CP {
				t.Errorf("%s: job lb %d outside [CP %d, makespan %d]", p.DAG.Name, res.Jobs[0].LB, lb.CP, got)
			}
		}
	}
}

// TestDAGRoundTrip: a job converted to the dag model and back keeps its
// stages, links, durations and demands.
func TestDAGRoundTrip(t *testing.T) {
	conv := sim.DAGConversion{Resources: []string{"cpu"}, Quanta: sim.Quanta{1000}, TickSeconds: 1}
	j := sim.Job{Name: "J", Stages: []sim.Stage{stage("a", 2, 3, 1), {Name: "b", Tasks: 2, Durations: []sim.Tick{4, 5}, Demand: sim.Vec{2}},
		stage("c", 1, 1, 1)}, Links: []sim.Link{{From: 0, To: 1, Kind: sim.OneToOne}, {From: 1, To: 2}}, Edges: []sim.Edge{{From: 0, To: 4}}}
	d, err := conv.DAG(&j)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := conv.Job(d, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Stages) != 3 || back.Stages[1].Durations[1] != 5 || back.Stages[1].Demand[0] != 2 || len(back.Links) != 2 ||
		len(back.Edges) != 1 || back.Edges[0] != (sim.Edge{From: 0, To: 4}) || dag.CPLength(d) != 3+5+1 {
		t.Errorf("round trip: %+v (cp %d)", back, dag.CPLength(d))
	}
}
