package datasets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

func TestExamplesPassEveryCheck(t *testing.T) {
	files := ExampleFiles()
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{"cluster.yaml", "demand-next.yaml", "demand.yaml", "nodes-demand.yaml", "nodes.json", "sweep.yaml", "workload.yaml"}; !slices.Equal(names, want) {
		t.Fatalf("ExampleFiles() names = %v, want %v", names, want)
	}
	c, d := examplePair(t)
	w, err := ParseWorkload("workload.yaml", files["workload.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckDemand(c, d); err != nil {
		t.Errorf("CheckDemand: %v", err)
	}
	if err := CheckWorkload(c, w); err != nil {
		t.Errorf("CheckWorkload: %v", err)
	}
	// The brief for the example: 4-6 groups, 6-8 applications with 2-5
	// request shapes each, 2-3 jobs.
	if n := len(c.Groups); n < 4 || n > 6 {
		t.Errorf("example cluster has %d groups, want 4-6", n)
	}
	if n := len(d.Applications); n < 6 || n > 8 {
		t.Errorf("example demand has %d applications, want 6-8", n)
	}
	for _, a := range d.Applications {
		if n := len(a.Requests); n < 2 || n > 5 {
			t.Errorf("application %s has %d request shapes, want 2-5", a.Name, n)
		}
	}
	if n := len(w.Jobs); n < 2 || n > 3 {
		t.Errorf("example workload has %d jobs, want 2-3", n)
	}
	// The example sweep: the simulate example and W-FB at 300 jobs, three
	// policies, seeds 1..3, two loads: 2·3·3·2 = 36 cells.
	sw, err := ParseSweep("sweep.yaml", files["sweep.yaml"])
	if err != nil {
		t.Fatal(err)
	}
	if cells := len(sw.Workloads) * len(sw.Policies) * len(sw.Seeds) * len(sw.Loads); cells != 36 || sw.Baseline != "drf" {
		t.Errorf("example sweep: %d cells, baseline %q; want 36 cells paired with drf", cells, sw.Baseline)
	}
	inst, err := Coalesce(c, d)
	if err != nil {
		t.Fatalf("Coalesce: %v", err)
	}
	if inst.Types == nil || len(inst.Applications) != len(d.Applications) {
		t.Errorf("Coalesce gave %d types and %d applications", len(inst.Types), len(inst.Applications))
	}
}

func TestLoadDetectsEveryExampleKind(t *testing.T) {
	dir := t.TempDir()
	if err := WriteExamples(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"cluster.yaml": "*datasets.Cluster", "demand.yaml": "*datasets.Demand", "workload.yaml": "*datasets.Workload"} {
		v, err := Load(filepath.Join(dir, name), LoadOptions{})
		if err != nil {
			t.Fatalf("Load(%s): %v", name, err)
		}
		if got := typeName(v); got != want {
			t.Errorf("Load(%s) gave %s, want %s", name, got, want)
		}
	}
	v, err := Load(filepath.Join("testdata", "kubectl-nodes.json"), LoadOptions{})
	if err != nil || typeName(v) != "*datasets.Cluster" {
		t.Errorf("Load(kubectl-nodes.json) = %s, %v; want a *Cluster", typeName(v), err)
	}
}

func TestWriteExamples(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir")
	if err := WriteExamples(dir); err != nil {
		t.Fatal(err)
	}
	for name, data := range ExampleFiles() {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: written content differs (err %v)", name, err)
		}
	}
	// A second run must refuse, and leave a user's edit alone.
	edited := []byte("# mine\n")
	if err := os.WriteFile(filepath.Join(dir, "demand.yaml"), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteExamples(dir)
	if !errors.Is(err, ErrExists) {
		t.Fatalf("second WriteExamples: got %v, want ErrExists", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "demand.yaml")); !bytes.Equal(got, edited) {
		t.Errorf("WriteExamples overwrote an existing file")
	}
	// Nothing is written when only some files exist.
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, "workload.yaml"), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteExamples(dir2); !errors.Is(err, ErrExists) {
		t.Fatalf("got %v, want ErrExists", err)
	}
	if _, err := os.Stat(filepath.Join(dir2, "cluster.yaml")); !os.IsNotExist(err) {
		t.Errorf("WriteExamples wrote cluster.yaml despite refusing")
	}
}

func typeName(v any) string {
	switch v.(type) {
	case *Cluster:
		return "*datasets.Cluster"
	case *Demand:
		return "*datasets.Demand"
	case *Workload:
		return "*datasets.Workload"
	case nil:
		return "nil"
	}
	return "other"
}
