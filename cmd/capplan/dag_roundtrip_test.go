package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/capplan/capplan/plan"
)

// TestDAGScheduleCSVRoundTrip (issue 12, item 6): what `capplan dag
// schedule --csv` writes, `capplan dag check --schedule` reads back as a
// feasible schedule of the same makespans, on a workload with a cluster, a
// workload on --machines and a PSPLIB project.
func TestDAGScheduleCSVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	example := filepath.Join(dir, "ex")
	if code, _, errOut := runCapplan(t, "example", example); code != 0 {
		t.Fatalf("example: %s", errOut)
	}
	workload, cluster := filepath.Join(example, "workload.yaml"), filepath.Join(example, "cluster.yaml")
	cases := []struct {
		name  string
		input []string // the input and machine flags, for both commands
	}{
		{"workload on a cluster", []string{workload, "-c", cluster}},
		{"workload on --machines", []string{workload, "--machines", "3", "--machine-capacity", "cpu=32,memory=256Gi,gpu=8"}},
		{"PSPLIB", []string{dagSharedData(t, "psplib/j30/j301_1.sm"), "--machines", "2"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"dag", "schedule", "--method", "graphene", "--csv"}, tc.input...)
			code, out, errOut := runCapplan(t, args...)
			if code != 0 {
				t.Fatalf("schedule: exit %d: %s", code, errOut)
			}
			csvPath := filepath.Join(dir, "s"+string(rune('0'+i))+".csv")
			if err := os.WriteFile(csvPath, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			sched, _ := dagJSON[plan.DAGSchedule](t, append([]string{"schedule", "--method", "graphene", "--json"}, tc.input...)...)
			chk, _ := dagJSON[plan.DAGCheck](t, append([]string{"check", "--schedule", csvPath, "--json"}, tc.input...)...)
			if len(chk.Jobs) != len(sched.Jobs) {
				t.Fatalf("checked %d jobs, scheduled %d", len(chk.Jobs), len(sched.Jobs))
			}
			for k, j := range chk.Jobs {
				if !j.Feasible || len(j.Violations) > 0 || j.Makespan != sched.Jobs[k].Makespan {
					t.Errorf("%s: feasible %v, %d violations, makespan %v (scheduled %v)", j.Name, j.Feasible, len(j.Violations), j.Makespan, sched.Jobs[k].Makespan)
				}
			}
		})
	}
}
