package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// TestDAGCertificates: j301_1's optimum is 43 (j30opt.sm) and its cheap
// bounds reach only 38, so the proof must come from a destructive bound.
// `dag schedule` says "optimal (proved by <bound>)" with the bound named
// in bestBy; `dag bounds --json` lists every bound with its value and
// work (seconds only with --timings), none above 43; `dag check` on the
// schedule gives the same certificate and the gap to every listed bound.
func TestDAGCertificates(t *testing.T) {
	path := testdatasets.Need(t, "psplib/j30/j301_1.sm")
	doc, out := dagJSON[plan.DAGSchedule](t, "schedule", path, "--json")
	j := doc.Jobs[0]
	want := "optimal (proved by " + j.Bounds.BestBy + ")"
	if j.Makespan != 43 || j.Bounds.Best != 43 || !j.Optimal || j.Certificate != want || j.WorkUsed <= 0 {
		t.Fatalf("schedule: makespan %v, bound %v by %q, certificate %q, work %d", j.Makespan, j.Bounds.Best, j.Bounds.BestBy, j.Certificate, j.WorkUsed)
	}
	if cheap := []string{"cpLength", "energy", "newLB", "nodePacking", "bin"}; j.Bounds.BestBy == "" || slices.Contains(cheap, j.Bounds.BestBy) {
		t.Errorf("bestBy %q: the cheap bounds reach only 38", j.Bounds.BestBy)
	}

	for _, timings := range []bool{false, true} {
		args := []string{"bounds", path, "--json"}
		if timings {
			args = append(args, "--timings")
		}
		b, _ := dagJSON[plan.DAGBounds](t, args...)
		bs := b.Jobs[0].Bounds
		if bs.Best != 43 || bs.BestBy == "" {
			t.Fatalf("bounds: best %v by %q, want 43", bs.Best, bs.BestBy)
		}
		names := map[string]bool{}
		for _, x := range bs.List {
			names[x.Name] = true
			if x.Value > 43 {
				t.Errorf("bound %s = %v above the optimum 43", x.Name, x.Value)
			}
			if (x.Seconds != nil) != timings {
				t.Errorf("bound %s: seconds %v with --timings %v", x.Name, x.Seconds, timings)
			}
		}
		for _, n := range []string{"cpLength", "energy", "newLB", "nodePacking", "bin", "energetic", bs.BestBy} {
			if !names[n] {
				t.Errorf("bounds list %v lacks %s", bs.List, n)
			}
		}
	}

	dir := t.TempDir()
	sched := filepath.Join(dir, "s.json")
	if err := os.WriteFile(sched, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := dagJSON[plan.DAGCheck](t, "check", "--schedule", sched, path, "--json")
	cj := c.Jobs[0]
	if !cj.Feasible || !strings.HasPrefix(cj.Certificate, "optimal (proved by ") || cj.Gaps[cj.Bounds.BestBy] != 0 {
		t.Errorf("check: feasible %v, certificate %q, gaps %v", cj.Feasible, cj.Certificate, cj.Gaps)
	}
	if cj.Gaps["cpLength"] <= 0 {
		t.Errorf("check: gap to cpLength %v, want 43/38 − 1", cj.Gaps["cpLength"])
	}

	// Every task at time 0: precedence violations, no certificate.
	var rows strings.Builder
	rows.WriteString("task,start,end,machine\n")
	for _, task := range j.Tasks {
		fmt.Fprintf(&rows, "%s,0,%v,0\n", task.ID, task.End-task.Start)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, outBad, errOut := runCapplan(t, "dag", "check", "--schedule", bad, path, "--json")
	var cb plan.DAGCheck
	if code == 0 || json.Unmarshal([]byte(outBad), &cb) != nil || len(cb.Jobs) != 1 ||
		!strings.HasPrefix(cb.Jobs[0].Certificate, "infeasible (") {
		t.Errorf("check of a broken schedule: exit %d, certificate %+v\n%s", code, cb.Jobs, errOut)
	}
}

// TestDAGDeterministicAcrossCores: `dag schedule` and `dag bounds` write
// byte-identical JSON at GOMAXPROCS 1 and 2 for the same seed, on a J30
// instance whose proof is not found at once (the search workers and the
// genetic-algorithm islands all run in lockstep).
func TestDAGDeterministicAcrossCores(t *testing.T) {
	path := testdatasets.Need(t, "psplib/j30/j305_3.sm")
	for _, args := range [][]string{
		{"dag", "schedule", path, "--json", "--seed", "7", "--budget", "2000000"},
		{"dag", "bounds", path, "--json", "--budget", "2000000"},
	} {
		var outs []string
		for _, procs := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			code, out, errOut := runCapplan(t, args...)
			runtime.GOMAXPROCS(prev)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			outs = append(outs, out)
		}
		if outs[0] != outs[1] {
			t.Errorf("%v: output differs between GOMAXPROCS 1 and 2", args[1:3])
		}
	}
}
