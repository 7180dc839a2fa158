package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// writeTestBundle plans badPlanFiles (sizing std=1,big=3 with its curve,
// the workload) and writes the bundle into a new directory, as `capplan
// plan` does. It returns the directory and the input paths.
func writeTestBundle(t *testing.T) (string, PlanOptions) {
	t.Helper()
	o := badPlanOptions(t)
	o.Size = "std=1,big=3"
	res, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	e, err := export.BundleFiles(res.Bundle, res.Demand)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := export.WriteDir(dir, e.Files); err != nil {
		t.Fatal(err)
	}
	return dir, o
}

func checkBundle(t *testing.T, dir string) *PlanCheckResult {
	t.Helper()
	r, err := CheckPlan(PlanCheckOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCheckPlanPasses(t *testing.T) {
	dir, _ := writeTestBundle(t)
	r := checkBundle(t, dir)
	var steps []string
	for _, c := range r.Checks {
		steps = append(steps, c.Step)
		if c.Err != nil {
			t.Errorf("%s: %s: %v", c.Step, c.What, c.Err)
		}
	}
	// Each step and the sizing curve are checked.
	if got := strings.Join(steps, ","); got != "documents,files,inputs,fairshare,shapes,ownership,sizing,sizing,dag,simulation" {
		t.Errorf("checks %s", got)
	}
}

// editJSON rewrites the JSON file name of the bundle through edit, as a
// generic tree; with fixDigest it also records the new digest in
// plan.json, as a forger would, so that only the re-verification can
// tell.
func editJSON(t *testing.T, dir, name string, fixDigest bool, edit func(doc map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	var buf bytes.Buffer
	if err := reports.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if fixDigest {
		editJSON(t, dir, plan.PlanFile, false, func(p map[string]any) {
			for _, s := range p["steps"].([]any) {
				if s := s.(map[string]any); s["file"] == name {
					s["sha256"] = plan.Digest(buf.Bytes())
				}
			}
		})
	}
}

// at walks a JSON tree by keys and indices.
func at(v any, path ...any) any {
	for _, k := range path {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// TestCheckPlanTampered changes one number (or file) of a bundle and
// requires the check that guards it to fail with a message naming it.
func TestCheckPlanTampered(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string, o PlanOptions)
		step   string
		want   string
	}{
		{"document without its digest", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanFairShareFile, false, func(d map[string]any) { at(d, "shares", 0).(map[string]any)["machines"] = 3.0 })
		}, "documents", "fairshare.json has sha256"},
		{"fair share moved", func(t *testing.T, dir string, _ PlanOptions) {
			// web gives one of its 2 machines to batch: both still sum to
			// the amounts only if machinesExact changes too, and then the
			// levels are no longer max-min fair (flow.Verify).
			editJSON(t, dir, PlanFairShareFile, true, func(d map[string]any) {
				for u, m := range map[int]float64{0: 1, 1: 3} {
					s := at(d, "shares", u).(map[string]any)
					s["machines"], s["machinesExact"] = m, big.NewRat(int64(m), 1).RatString()
					s["levelExact"] = s["machinesExact"]
					for k := range s["byType"].(map[string]any) {
						s["byType"].(map[string]any)[k] = m
					}
				}
			})
		}, plan.StepFairShare, "certificate"},
		{"shape shrunk", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanShapesFile, true, func(d map[string]any) {
				size := at(d, "shapes", 0, "size").(map[string]any)
				size["cpu"] = size["cpu"].(float64) - 1
			})
		}, plan.StepShapes, "does not fit its shape"},
		{"λ raised", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanPackingFile, true, func(d map[string]any) { d["lambda"] = d["lambda"].(float64) * 2 })
		}, plan.StepOwnership, "requires"},
		{"container dropped from the sizing", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanSizingFile, true, func(d map[string]any) {
				n := at(d, "nodes", 0).(map[string]any)
				n["containers"] = n["containers"].([]any)[1:]
			})
		}, plan.StepSizing, "item not packed"},
		{"sizing bound raised", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanSizingFile, true, func(d map[string]any) { d["costLowerBound"] = d["costLowerBound"].(float64) - 0.5 })
		}, plan.StepSizing, "the recomputed bound is"},
		{"curve bound raised", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, plan.PlanFile, false, func(d map[string]any) {
				pt := at(d, "sizingCurve", 1).(map[string]any)
				pt["lowerBound"] = pt["lowerBound"].(float64) + 1
			})
		}, plan.StepSizing, "sizingCurve[1] (forecast × 0.5): lowerBound"},
		{"task started early", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanDAGFile, true, func(d map[string]any) {
				tasks := at(d, "jobs", 0, "tasks").([]any)
				last := tasks[len(tasks)-1].(map[string]any)
				last["start"], last["end"] = 0.0, last["end"].(float64)-last["start"].(float64)
			})
		}, plan.StepDAG, "breaks"},
		{"makespan below the bound", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanDAGFile, true, func(d map[string]any) {
				b := at(d, "jobs", 0, "bounds").(map[string]any)
				b["cpLength"] = b["cpLength"].(float64) + 1
			})
		}, plan.StepDAG, "bounds.cpLength"},
		{"simulated JCT changed", func(t *testing.T, dir string, _ PlanOptions) {
			// Consistent with its finish, so the document still validates:
			// only the re-run can tell.
			editJSON(t, dir, PlanSimulationFile, true, func(d map[string]any) {
				j := at(d, "results", 0, "jobs", 0).(map[string]any)
				j["finish"], j["jct"] = j["finish"].(float64)+1, j["jct"].(float64)+1
			})
		}, plan.StepSimulation, "differs from the simulation re-run on the same inputs"},
		{"simulated share inconsistent", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanSimulationFile, true, func(d map[string]any) {
				a := at(d, "results", 0, "ownership", "apps", 0).(map[string]any)
				a["below"] = a["active"].(float64) + 1
			})
		}, plan.StepSimulation, "want below ≤ waiting ≤ active"},
		{"simulation of another packing", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanSimulationFile, true, func(d map[string]any) {
				for _, in := range d["inputs"].([]any) {
					if in := in.(map[string]any); in["role"] == "packing" {
						in["sha256"] = plan.Digest([]byte("another plan"))
					}
				}
			})
		}, plan.StepSimulation, "input packing packing.json has sha256"},
		{"simulation without its digest", func(t *testing.T, dir string, _ PlanOptions) {
			editJSON(t, dir, PlanSimulationFile, false, func(d map[string]any) { d["seed"] = 2.0 })
		}, "documents", "simulation.json has sha256"},
		{"report restyled", func(t *testing.T, dir string, _ PlanOptions) {
			os.WriteFile(filepath.Join(dir, export.ReportHTMLPath), []byte("<html></html>"), 0o644)
		}, "files", "report.html has sha256"},
		{"input changed", func(t *testing.T, dir string, o PlanOptions) {
			data, _ := os.ReadFile(o.Inputs.DemandPath)
			os.WriteFile(o.Inputs.DemandPath, bytes.Replace(data, []byte("count: 10"), []byte("count: 11"), 1), 0o644)
		}, "inputs", "has changed since the plan was made"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, o := writeTestBundle(t)
			tc.tamper(t, dir, o)
			r := checkBundle(t, dir)
			failed := r.Failed()
			if len(failed) == 0 {
				t.Fatalf("no check failed")
			}
			if failed[0].Step != tc.step || !strings.Contains(failed[0].Err.Error(), tc.want) {
				t.Errorf("first failure %s: %v; want %s: …%s…", failed[0].Step, failed[0].Err, tc.step, tc.want)
			}
			if tc.step == "documents" && !errors.Is(failed[0].Err, plan.ErrDigest) {
				t.Errorf("%v is not plan.ErrDigest", failed[0].Err)
			}
		})
	}
}

// TestRecoveredAllocations checks the fair-share check's premise on random
// CMMF problems: every per-type allocation the exact solver finds, printed
// as a float64 and recovered by plan.RatFromFloat, is the exact rational
// again, so flow.Verify judges the solver's own allocation.
func TestRecoveredAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for trial := range 300 {
		p := &flow.Problem{Types: make([]int64, 1+rng.IntN(6))}
		for t := range p.Types {
			p.Types[t] = 1 + rng.Int64N(40)
		}
		for range 1 + rng.IntN(7) {
			u := flow.User{Weight: 1 + rng.Int64N(9), Demand: flow.Unbounded}
			if rng.IntN(3) == 0 {
				u.Demand = rng.Int64N(30)
			}
			for t := range p.Types {
				if rng.IntN(2) == 0 {
					u.Types = append(u.Types, t)
				}
			}
			p.Users = append(p.Users, u)
		}
		res, err := flow.Solve(p, false)
		if err != nil {
			t.Fatal(err)
		}
		for u := range p.Users {
			for k := range p.Users[u].Types {
				want := res.Alloc[u][k]
				got := plan.RatFromFloat(want.Float64())
				if got.Cmp(want.Big()) != 0 {
					t.Fatalf("trial %d: user %d type %d: %s recovered as %s", trial, u, p.Users[u].Types[k], want, got.RatString())
				}
			}
		}
	}
}
