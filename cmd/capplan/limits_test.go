package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/capplan/capplan/datasets"
)

// TestInputClasses runs issue 11's classes of bad and big input through
// the command line: each case ends with its exit code and a message naming
// the flag, field or file, never a panic, and allocates less than 1 GiB
// (runtime.MemStats.TotalAlloc, garbage included) although every input is
// under 1 KB. Parser-level cases of the same classes live with their
// readers: datasets/range_test.go (1e308, 1e-300, NaN/Inf with lines,
// /dev/zero), datasets/dags (a malformed CSV quote, a UTF-8 BOM, PSPLIB
// headers claiming 10^12 jobs and durations near 2^63), binpack/vbp
// (overflow in the checkers, two full-node items on one node), lp (the
// simplex's cell limit) and signal_test.go (SIGINT/SIGTERM).
//
// On main before issue 11: --machine-capacity cpu=1e19 overflowed,
// gpux=4 was ignored, --machines 10000000 and `count: 10000000` allocated
// gigabytes, -c /dev/zero read 1 GB, and a one-type sizing of 3,000,000
// containers ran to 1.5 GB.
func TestInputClasses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	example := datasets.ExampleFiles()
	cluster := write("cluster.yaml", string(example["cluster.yaml"]))
	demand := write("demand.yaml", string(example["demand.yaml"]))
	hugeCluster := write("huge.yaml", "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu]\nnodes:\n- {name: std, count: 10000000, capacity: {cpu: 32}}\n")
	oneType := write("one.yaml", "apiVersion: capplan/v1\nkind: Cluster\nresources: [cpu, memory]\nnodes:\n- {name: std, capacity: {cpu: 32, memory: 128Gi}}\n")
	// 3 × 1,000,000 containers: past the one-type default of 2,000,000.
	many := write("many.yaml", "apiVersion: capplan/v1\nkind: Demand\napplications:\n- name: a\n  requests:\n"+
		"  - {shape: {cpu: 1, memory: 1Gi}, count: 1000000}\n  - {shape: {cpu: 3, memory: 5Gi}, count: 1000000}\n  - {shape: {cpu: 7, memory: 1Gi}, count: 1000000}\n")
	// Capacity 2^62 and two items of 2^62: their sum overflows int64.
	overflow := write("overflow.vbp", "1\n4611686018427387904\n1\n4611686018427387904 2\n")
	bomCSV := write("bom.csv", "\ufefftask_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\n"+
		"M1,1,j_1,1,Terminated,100,110,50,0.3\nR2_1,1,j_1,1,Terminated,110,130,100,0.5\n")

	cases := []struct {
		class, name string
		args        []string
		code        int
		stderr      []string
	}{
		{"overflow", "capacity past int64", []string{"dag", "schedule", "--example", "--machines", "2", "--machine-capacity", "cpu=1e19"},
			exitUsage, []string{"invalid --machine-capacity cpu=10e18", "at most about 9.2e15"}},
		{"overflow", "two full-node items", []string{"pack", "--min-nodes", overflow, "--json"},
			exitFailure, []string{"overflow.vbp:2: capacity[0]", "the largest amount capplan packs exactly"}},
		{"huge size", "--machines 10^7", []string{"dag", "schedule", "--example", "--machines", "10000000"},
			exitUsage, []string{"invalid --machines 10000000", "at most 100000"}},
		{"huge size", "count: 10000000 nodes", []string{"fairshare", "-c", hugeCluster, "-d", demand},
			exitFailure, []string{"huge.yaml", "nodes[0].count", "10000000 nodes, more than the 100000 supported"}},
		{"huge size", "-c /dev/zero", []string{"fairshare", "-c", "/dev/zero", "-d", demand},
			exitFailure, []string{"/dev/zero: larger than 256 MiB"}},
		{"huge size", "3,000,000 containers on one type", []string{"pack", "--min-nodes", "-c", oneType, "-d", many, "--node-type", "std"},
			exitFailure, []string{"many.yaml: 3000000 containers", "--max-items"}},
		{"huge size", "-k 10^9", []string{"shapes", "-c", cluster, "-d", demand, "-k", "1000000000", "--json"}, 0, nil},
		{"huge size", "W-FB on 10^7 machines", []string{"simulate", "--workload", "fb", "--wparam", "machines=10000000", "-o", filepath.Join(dir, "s.json")},
			exitFailure, []string{"machines=10000000", "more than the 100000 machines"}},
		{"validation", "--eps NaN", []string{"shapes", "--example", "--eps", "NaN"}, exitUsage, []string{"invalid --eps NaN"}},
		{"validation", "unknown --machine-capacity resource", []string{"dag", "schedule", "--example", "--machines", "2", "--machine-capacity", "gpux=4"},
			exitUsage, []string{"invalid --machine-capacity gpux", `uses resource "gpux"`}},
		{"validation", "UTF-8 BOM in batch_task", []string{"dag", "schedule", bomCSV, "--machines", "1"}, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.class+"/"+tc.name, func(t *testing.T) {
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			code, out, errOut := runCapplan(t, tc.args...)
			runtime.ReadMemStats(&m1)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine ") {
				t.Errorf("stack trace on stderr:\n%s", errOut)
			}
			if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<30 {
				t.Errorf("allocated %d MiB on an input under 1 KB", a>>20)
			}
			if tc.name == "UTF-8 BOM in batch_task" && (!strings.Contains(out, "j_1") || strings.Contains(out, "task_name")) {
				t.Errorf("the header row became a job, or j_1 is missing:\n%s", out)
			}
		})
	}
}
