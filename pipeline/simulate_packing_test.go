package pipeline

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/capplan/capplan/datasets"
)

// xflexPlan returns W-XFLEX's embedded packing plan as a generic JSON
// document, for tests to spoil.
func xflexPlan(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(datasets.XFlexExampleFiles()["plan.json"], &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func nodeOf(doc map[string]any, i int) map[string]any {
	return doc["nodes"].([]any)[i].(map[string]any)
}

func containerOf(doc map[string]any, i, k int) map[string]any {
	return nodeOf(doc, i)["containers"].([]any)[k].(map[string]any)
}

// TestBadPackingRejected: a packing plan that does not fit the cluster or
// the demand is an error that wraps ErrPacking and names the field.
func TestBadPackingRejected(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(doc map[string]any)
		want  []string // substrings of the error
	}{
		{"unknown node", func(d map[string]any) { nodeOf(d, 2)["name"] = "xflex-9" },
			[]string{"nodes[2].name", `node "xflex-9" is not in cluster`}},
		{"duplicate node", func(d map[string]any) { nodeOf(d, 3)["name"] = "xflex-1" },
			[]string{"nodes[3].name", `"xflex-1" appears again (first at nodes[1])`}},
		{"over-full node", func(d map[string]any) {
			n := nodeOf(d, 4)
			n["containers"] = append(n["containers"].([]any), containerOf(d, 4, 0))
		}, []string{"nodes[4].containers: over-full", "need 14 cpu, node xflex-4 has 13"}},
		{"owner not in the demand", func(d map[string]any) { containerOf(d, 5, 7)["owner"] = "spark" },
			[]string{"nodes[5].containers[7].owner", `application "spark" is not in the demand`}},
		{"unknown resource", func(d map[string]any) { containerOf(d, 0, 1)["size"].(map[string]any)["gpu"] = 1 },
			[]string{"nodes[0].containers[1].size.gpu", `no resource "gpu"`}},
		{"negative size", func(d map[string]any) { containerOf(d, 1, 2)["size"].(map[string]any)["cpu"] = -1 },
			[]string{"nodes[1].containers[2].size.cpu", "not a finite amount ≥ 0"}},
		{"sizing plan", func(d map[string]any) { d["mode"] = "sizing" }, []string{`mode: is "sizing", want "ownership"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := xflexPlan(t)
			tc.spoil(doc)
			path := writeJSON(t, doc)
			_, err := Simulate(SimulateOptions{Workload: "xflex", PackingPath: path, Policies: []string{"xschedule"}, Seed: 1})
			if !errors.Is(err, ErrPacking) {
				t.Fatalf("err = %v, want ErrPacking", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), "plan.json") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestXFlexDeterministic: the W-XFLEX cell with X-Sight views, twice and
// with one or two workers, gives the same document; xschedule's runs meet
// the invariants (Check).
func TestXFlexDeterministic(t *testing.T) {
	run := func(workers int) []byte {
		set, err := Simulate(SimulateOptions{Workload: "xflex", Policies: []string{"xschedule", "drf-am"}, Seed: 3, Check: true,
			XSight: true, Workers: workers, Generator: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := set.Validate(); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(set)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b, c := run(1), run(2), run(1)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Error("W-XFLEX documents differ between runs or worker counts")
	}
}

// TestBeyondBound checks the time a linear imbalance spends beyond ±Δ
// against hand arithmetic.
func TestBeyondBound(t *testing.T) {
	cases := []struct {
		s0, slope, dt, bound, want float64
	}{
		{0, 1, 10, 4, 6},   // s = t: above 4 for t ∈ (4, 10]
		{5, -1, 10, 2, 6},  // 5 → −5: above 2 for t < 3, below −2 for t > 7
		{1, 0, 10, 2, 0},   // flat inside the band
		{-3, 0, 10, 2, 10}, // flat below −2
		{0, 1, 10, 0, 10},  // Δ = 0: any debt is beyond
	}
	for _, c := range cases {
		if got := beyond(c.s0, c.slope, c.dt, c.bound); got != c.want {
			t.Errorf("beyond(%v, %v, %v, %v) = %v, want %v", c.s0, c.slope, c.dt, c.bound, got, c.want)
		}
	}
}
