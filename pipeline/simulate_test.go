package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim/policies"
)

func encode(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSimulateExample runs the embedded example under every baseline with
// the invariants checked, paired against drf.
func TestSimulateExample(t *testing.T) {
	set, err := Simulate(SimulateOptions{Example: true, Policies: []string{"fifo", "drf", "sjf", "srtf", "tetris", "cp", "capacity"},
		Baseline: "drf", Seed: 1, Check: true, Gantt: []string{"first"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(set.Runs) != 7 || set.Workload.Jobs != 40 || set.Cluster.Machines != 16 {
		t.Fatalf("%d runs, %d jobs, %d machines", len(set.Runs), set.Workload.Jobs, set.Cluster.Machines)
	}
	for _, r := range set.Runs {
		if r.Summary.Finished != 40 || r.Summary.AvgJCT <= 0 || len(r.Gantt) != 1 {
			t.Errorf("%s: %d finished, avg JCT %v, %d gantt jobs", r.Policy.Name, r.Summary.Finished, r.Summary.AvgJCT, len(r.Gantt))
		}
		for _, j := range r.Jobs {
			if *j.JCT+1e-9 < j.LB {
				t.Errorf("%s: job %s JCT %v below its bound %v", r.Policy.Name, j.Name, *j.JCT, j.LB)
			}
		}
		if r.Policy.Name != "drf" && (r.Compare == nil || r.Compare.Paired != 40) {
			t.Errorf("%s: compare %+v", r.Policy.Name, r.Compare)
		}
	}
}

// TestSimulateDeterministic is SIMULATE.md §7.1.9: the same cell under
// GOMAXPROCS 1 and 2, with 1 and 2 workers, gives byte-identical JSON.
func TestSimulateDeterministic(t *testing.T) {
	run := func(procs, workers int) []byte {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		set, err := Simulate(SimulateOptions{Workload: "fb", WorkloadParams: map[string]string{"jobs": "150", "machines": "20"},
			Policies: []string{"fifo", "drf", "tetris", "sjf"}, Baseline: "drf", Seed: 7, Noise: 0.3, Workers: workers,
			Progress: func(int) {}})
		if err != nil {
			t.Fatal(err)
		}
		return encode(t, set)
	}
	a, b := run(1, 1), run(2, 2)
	if !bytes.Equal(a, b) {
		t.Fatal("JSON differs between GOMAXPROCS 1 and 2")
	}
	if c := run(2, 1); !bytes.Equal(a, c) {
		t.Fatal("JSON differs between 1 and 2 workers")
	}
}

// TestSimulateAlone: alone JCTs never exceed the shared ones under fifo on
// the example, and slowdown = JCT/alone ≥ 1.
func TestSimulateAlone(t *testing.T) {
	set, err := Simulate(SimulateOptions{Example: true, Policies: []string{"fifo"}, Seed: 1, Alone: true, Noise: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range set.Runs[0].Jobs {
		if j.Alone == nil || j.Slowdown == nil || *j.Slowdown < 1-1e-9 {
			t.Errorf("job %s: alone %v slowdown %v", j.Name, j.Alone, j.Slowdown)
		}
	}
}

// TestSimulateErrors: unknown policies and workloads are errors naming the
// valid ones.
func TestSimulateErrors(t *testing.T) {
	_, err := Simulate(SimulateOptions{Example: true, Policies: []string{"nope"}})
	var up *policies.UnknownPolicyError
	if !errors.As(err, &up) || len(up.Valid) < 7 {
		t.Errorf("unknown policy: %v", err)
	}
	if _, err := Simulate(SimulateOptions{Workload: "bogus", Policies: []string{"fifo"}}); err == nil {
		t.Error("unknown workload accepted")
	}
	if _, err := Simulate(SimulateOptions{Workload: "fb", WorkloadParams: map[string]string{"jbos": "3"}, Policies: []string{"fifo"}}); err == nil {
		t.Error("unknown workload parameter accepted")
	}
}

// TestSimulateGoogleLike runs a small GoogleLike workload with its job
// constraints under drf, checked.
func TestSimulateGoogleLike(t *testing.T) {
	set, err := Simulate(SimulateOptions{Workload: "googlelike", WorkloadParams: map[string]string{"jobs": "40", "machines": "60", "types": "6"},
		Policies: []string{"drf", "fifo"}, Seed: 3, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if set.Runs[0].Summary.Finished != 40 {
		t.Errorf("finished %d of 40", set.Runs[0].Summary.Finished)
	}
}

// TestSimulateAlibaba replays the Alibaba v2018 sample with trace arrivals
// on 100 machines under fifo (SIMULATE.md §2.3 W-ALI).
func TestSimulateAlibaba(t *testing.T) {
	path := testdatasets.Need(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	set, err := Simulate(SimulateOptions{WorkloadPath: path, Policies: []string{"fifo"}, Seed: 1, TickSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := set.Runs[0]
	if r.Summary.Finished == 0 || r.Summary.Unfinished != 0 || set.Workload.Jobs != 2120 {
		t.Errorf("finished %d, unfinished %d, jobs %d (rejected %d)", r.Summary.Finished, r.Summary.Unfinished, set.Workload.Jobs, len(set.Workload.Rejected))
	}
	t.Logf("W-ALI fifo: %d finished, %d rejected, makespan %.0f s, avg JCT %.1f s", r.Summary.Finished, len(set.Workload.Rejected),
		r.Summary.Makespan, r.Summary.AvgJCT)
}

// TestSimulatePSPLIB: one project alone under cp finishes at the dag cp
// makespan (checked in package sim) and never below its critical path.
func TestSimulatePSPLIB(t *testing.T) {
	path := filepath.Join(testdatasets.Need(t, "psplib/j30"), "j301_1.sm")
	set, err := Simulate(SimulateOptions{WorkloadPath: path, Policies: []string{"cp"}, TickSeconds: 1, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if j := set.Runs[0].Jobs[0]; *j.JCT < j.LB {
		t.Errorf("makespan %v below bound %v", *j.JCT, j.LB)
	}
}

var _ = plan.KindSimulationSet
