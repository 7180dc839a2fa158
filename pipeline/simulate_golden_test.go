package pipeline

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/plan"
)

// updateSimGolden rewrites testdata/simulate_golden.sha256 from the
// current code instead of comparing with it: only for an intended change
// of results, explained in the commit.
var updateSimGolden = flag.Bool("golden-update", false, "rewrite testdata/simulate_golden.sha256")

// goldenSimPolicies is a fixed list, so a policy added later needs no
// digest.
var goldenSimPolicies = []string{"fifo", "fifo-strict", "capacity", "drf", "sjf", "srtf", "cp", "tetris", "tetrisfair"}

// TestSimulateGolden compares the SHA-256 of SimulationSet documents with
// testdata/simulate_golden.sha256: the embedded example (paired against
// drf, with --alone and a Gantt job, invariants checked), a small W-FB
// with noise, a googlelike cluster, and (without -short) the whole
// Alibaba v2018 sample with trace arrivals and with Poisson arrivals at
// load 0.9 under noise (its first 4 hours), and a PSPLIB project under cp. Speed work on the
// simulator must leave every document byte-identical.
func TestSimulateGolden(t *testing.T) {
	type cell struct {
		name string
		opts func() SimulateOptions
	}
	cells := []cell{
		{"example", func() SimulateOptions {
			return SimulateOptions{Example: true, Policies: goldenSimPolicies, Baseline: "drf", Seed: 1, Check: true, Alone: true,
				Gantt: []string{"first"}}
		}},
		{"fb", func() SimulateOptions {
			return SimulateOptions{Workload: "fb", WorkloadParams: map[string]string{"jobs": "200", "machines": "25"}, Policies: goldenSimPolicies,
				Baseline: "drf", Seed: 7, Noise: 0.3, Load: 0.9, Check: true}
		}},
		{"googlelike", func() SimulateOptions {
			return SimulateOptions{Workload: "googlelike", WorkloadParams: map[string]string{"jobs": "80", "machines": "50", "types": "5"},
				Policies: goldenSimPolicies, Baseline: "fifo", Seed: 2, Check: true}
		}},
	}
	if !testing.Short() {
		ali := testdatasets.Need(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
		psp := filepath.Join(testdatasets.Need(t, "psplib/j30"), "j301_1.sm")
		cells = append(cells,
			cell{"ali-trace", func() SimulateOptions {
				return SimulateOptions{WorkloadPath: ali, Policies: goldenSimPolicies, Baseline: "fifo", Seed: 1, TickSeconds: 1}
			}},
			cell{"ali-poisson", func() SimulateOptions {
				return SimulateOptions{WorkloadPath: ali, Policies: []string{"fifo", "drf", "srtf", "cp", "tetris"}, Seed: 2, TickSeconds: 1,
					Load: 0.9, Noise: 0.3, Until: 14400}
			}},
			cell{"psplib", func() SimulateOptions {
				return SimulateOptions{WorkloadPath: psp, Policies: goldenSimPolicies, TickSeconds: 1, Check: true}
			}},
		)
	}
	const file = "testdata/simulate_golden.sha256"
	want := map[string]string{}
	if !*updateSimGolden {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if sum, name, ok := strings.Cut(sc.Text(), "  "); ok {
				want[name] = sum
			}
		}
		f.Close()
	}
	var out strings.Builder
	for _, c := range cells {
		t0 := time.Now()
		set, err := Simulate(c.opts())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v", c.name, time.Since(t0))
		got := plan.Digest(encode(t, set))
		fmt.Fprintf(&out, "%s  %s\n", got, c.name)
		if *updateSimGolden {
			continue
		}
		if w, ok := want[c.name]; !ok {
			t.Errorf("%s: no golden digest", c.name)
		} else if w != got {
			t.Errorf("%s: document digest %s, golden %s", c.name, got, w)
		}
	}
	if *updateSimGolden {
		if testing.Short() {
			t.Fatal("-golden-update needs the full set of cells (no -short)")
		}
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
