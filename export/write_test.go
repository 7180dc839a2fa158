package export

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	files := []File{{Path: "a/b.yaml", Data: []byte("x: 1\n")}, {Path: "run.sh", Data: []byte("#!/bin/sh\n"), Executable: true}}
	if err := WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a", "b.yaml")); err != nil || string(data) != "x: 1\n" {
		t.Errorf("a/b.yaml: %q, %v", data, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "run.sh")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("run.sh is not executable: %v", err)
	}
	for _, bad := range []string{"../x", "/etc/x", "a/../../x", "", "a//b"} {
		if err := WriteDir(dir, []File{{Path: "ok", Data: nil}, {Path: bad}}); err == nil {
			t.Errorf("WriteDir accepted path %q", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ok")); !os.IsNotExist(err) {
		t.Error("WriteDir wrote a file before refusing a bad path")
	}
}

func TestInputErrors(t *testing.T) {
	over := twoTypes()
	over.Shares[0].ByType = map[string]float64{"cpu": 3} // 3 + 1 of 3 machines
	unknown := twoTypes()
	unknown.Shares[1].ByType = map[string]float64{"tpu": 1}
	clash := twoTypes()
	clash.Shares[1].Application = "ETL"
	demand := &datasets.Demand{Source: "demand.yaml", Applications: []datasets.Application{{Name: "etl"}}}
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"no fair share", Input{}, "FairShare document is required"},
		{"wrong kind", Input{FairShare: &plan.FairShare{Header: plan.Header{Kind: "Plan"}}}, `kind is "Plan"`},
		{"over-allocated", Input{FairShare: over}, `machine type "cpu": the shares allocate 4 machines of 3`},
		{"unknown type", Input{FairShare: unknown}, `byType names machine type "tpu"`},
		{"name clash", Input{FairShare: clash}, `"etl" and "ETL" both become "etl"`},
		{"not in demand", Input{FairShare: twoTypes(), Demand: demand}, `application "svc" of the plan is not in the demand demand.yaml`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []func(Input) (*Export, error){YARN, Kubernetes, Kueue} {
				_, err := f(tc.in)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want one containing %q", err, tc.want)
				}
			}
		})
	}
	if _, err := YARN(Input{}); !errors.Is(err, ErrNoFairShare) {
		t.Errorf("YARN without a plan: %v, want ErrNoFairShare", err)
	}
}

// TestAmounts checks per-resource totals: svc's plan gives it 32 cores
// and 192Gi (twoTypes); capped at 16 cores, its amount on each type halves
// (16 + 16 → 8 + 8), memory stays.
func TestAmounts(t *testing.T) {
	in := Input{FairShare: twoTypes(), Amounts: map[string]map[string]float64{"svc": {"cpu": 16, "memory": 1e15}}}
	objs, err := KubernetesObjects(in)
	if err != nil {
		t.Fatal(err)
	}
	hard := objs.ResourceQuotas[1].Spec.Hard
	if cpu, mem := hard["requests.cpu"], hard["requests.memory"]; cpu.String() != "16" || mem.String() != "192Gi" {
		t.Errorf("svc quota cpu %s, memory %s; want 16 and 192Gi", cpu.String(), mem.String())
	}
	set, err := KueueObjects(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, fq := range set.ClusterQueues[1].Spec.ResourceGroups[0].Flavors {
		if got := fq.Resources[0].NominalQuota; got.String() != "8" {
			t.Errorf("svc flavor %s: %s cores, want 8", fq.Name, got.String())
		}
	}
}

// TestNoEligibleType: an application the plan gives nothing and no demand
// admits anywhere still gets its queue and namespace, with warnings that
// name it.
func TestNoEligibleType(t *testing.T) {
	fs := twoTypes()
	fs.Shares = append(fs.Shares, plan.Share{Application: "orphan", Weight: 1, ByType: map[string]float64{}})
	y, err := YARN(Input{FairShare: fs})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Kueue(Input{FairShare: fs})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		got  []string
		want string
	}{{y.Warnings, "yarn: application orphan may use no machine type"}, {q.Warnings, "kueue: application orphan may use no machine type"}} {
		if !strings.Contains(strings.Join(w.got, "\n"), w.want) {
			t.Errorf("warnings %v lack %q", w.got, w.want)
		}
	}
	checkCapacities(t, capacityConfig(t, fileData(t, y, YARNCapacitySchedulerPath)))
}
