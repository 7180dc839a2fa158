package pipeline

import (
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
)

// TestSimulatePSPLIBDir: a directory of PSPLIB projects is W-PSP, one job
// per project, five of them here on two machines at load 0.8.
func TestSimulatePSPLIBDir(t *testing.T) {
	dir := testdatasets.Need(t, "psplib/j30")
	set, err := Simulate(SimulateOptions{WorkloadPath: dir, WorkloadParams: map[string]string{"jobs": "5", "machines": "2"},
		Policies: []string{"drf", "carbyne"}, Baseline: "drf", Seed: 1, Load: 0.8, TickSeconds: 1, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if set.Workload.Jobs != 5 || set.Cluster.Machines != 2 || len(set.Runs) != 2 || set.Runs[1].Summary.Finished != 5 {
		t.Fatalf("jobs %d machines %d runs %d", set.Workload.Jobs, set.Cluster.Machines, len(set.Runs))
	}
	if _, err := Simulate(SimulateOptions{WorkloadPath: dir, WorkloadParams: map[string]string{"bogus": "1"}, Policies: []string{"drf"}}); err == nil {
		t.Error("unknown parameter accepted")
	}
}
