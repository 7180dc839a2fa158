package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capplan/capplan/internal/testdatasets"
)

// manyJobsWorkload writes a Workload of 12 small two-stage jobs of
// different sizes into dir and returns its path.
func manyJobsWorkload(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: capplan/v1\nkind: Workload\njobs:\n")
	for i := range 12 {
		fmt.Fprintf(&b, "  - name: j%d\n    stages:\n", i)
		fmt.Fprintf(&b, "      - {name: map, tasks: %d, duration: %d, demand: {cpu: 1}}\n", 2+i%5, 10+3*i)
		fmt.Fprintf(&b, "      - {name: reduce, tasks: %d, duration: %d, demand: {cpu: 2}, after: [map]}\n", 1+i%3, 5+i)
	}
	path := filepath.Join(dir, "jobs.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustRun runs capplan in-process and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, out, errOut := runCapplan(t, args...)
	if code != 0 {
		t.Fatalf("capplan %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out, errOut
}

// shardCase is a shardable command line: args without -o, and the
// unsharded run's output file relative to its -o.
type shardCase struct {
	name string
	args []string
	// sweep: -o names a directory and the document is sweep.json in it.
	sweep bool
}

// TestShardedMergeIdentical runs every shardable command unsharded and in
// N = 1, 2, 3 and 7 shards, merges the parts (listed in reverse order) and
// requires the merged document to be byte-identical to the unsharded one.
// Seven shards exceed the jobs of the example, so some shards are empty.
func TestShardedMergeIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs every command 14 times")
	}
	dir := t.TempDir()
	jobs := manyJobsWorkload(t, dir)
	machines := []string{"--machines", "2", "--machine-capacity", "cpu=4"}
	sched := filepath.Join(dir, "jobs-schedule.json")
	mustRun(t, append([]string{"dag", "schedule", jobs, "-o", sched}, machines...)...)
	cases := []shardCase{
		{name: "schedule", args: append([]string{"dag", "schedule", jobs, "--compare", "cp,bfs"}, machines...)},
		{name: "schedule-example", args: []string{"dag", "schedule", "--example", "--machines", "4"}},
		{name: "bounds", args: append([]string{"dag", "bounds", jobs}, machines...)},
		{name: "check", args: []string{"dag", "check", "--schedule", sched, jobs}},
		{name: "sweep", args: []string{"sweep", "--example", "--policies", "fifo,drf,srtf", "--baseline", "drf", "--seeds", "1..3", "--loads", "0.6,0.9"}, sweep: true},
	}
	if testdatasets.Dir() != "" || testdatasets.InCI() {
		ali := testdatasets.Need(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
		data, err := os.ReadFile(ali)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfterN(data, []byte("\n"), 301)
		head := filepath.Join(dir, "ali300.csv")
		if err := os.WriteFile(head, bytes.Join(lines[:300], nil), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, shardCase{name: "bounds-alibaba", args: []string{"dag", "bounds", head, "--machines", "2"}},
			shardCase{name: "schedule-alibaba", args: []string{"dag", "schedule", head, "--method", "cp"}})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := filepath.Join(dir, tc.name)
			whole := base + "-whole.json"
			if tc.sweep {
				mustRun(t, append(tc.args, "-o", base+"-whole")...)
				whole = filepath.Join(base+"-whole", "sweep.json")
			} else {
				mustRun(t, append(tc.args, "-o", whole)...)
			}
			want, err := os.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3, 7} {
				out := fmt.Sprintf("%s-%d", base, n)
				for i := n - 1; i >= 0; i-- {
					mustRun(t, append(tc.args, "--shard", fmt.Sprintf("%d/%d", i, n), "-o", out)...)
				}
				merged := out + ".json"
				mustRun(t, "merge", out, "-o", merged)
				got, err := os.ReadFile(merged)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("N=%d: the merged document differs from the unsharded one (%d vs %d bytes)", n, len(got), len(want))
				}
				if tc.sweep {
					// merge -o DIR writes the sweep's files as the
					// unsharded run does.
					mustRun(t, "merge", out, "-o", out+"-dir")
					for _, f := range []string{"sweep.json", "sweep.xlsx", "figures/sweep-avgJCT-vs-load-example.svg"} {
						a, err1 := os.ReadFile(filepath.Join(base+"-whole", f))
						b, err2 := os.ReadFile(filepath.Join(out+"-dir", f))
						if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
							t.Errorf("N=%d: %s differs from the unsharded run's (%v, %v)", n, f, err1, err2)
						}
					}
				}
			}
		})
	}
}

// TestShardBadInput checks that bad shard flags are usage errors that name
// the problem and write nothing.
func TestShardBadInput(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"index beyond the count", []string{"dag", "bounds", "--example", "--shard", "3/2"}, "invalid --shard 3/2: the shard index must lie in 0 … 1"},
		{"no shards", []string{"dag", "schedule", "--example", "--shard", "0/0"}, "invalid --shard 0/0: the shard count must be at least 1"},
		{"not a shard", []string{"dag", "check", "--example", "--schedule", "x.json", "--shard", "two"}, `invalid --shard "two": want INDEX/COUNT`},
		{"unset environment", []string{"dag", "bounds", "--example", "--shard-from-env"}, "--shard-from-env: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm job array) is set"},
		{"both", []string{"dag", "bounds", "--example", "--shard", "0/2", "--shard-from-env"}, "--shard and --shard-from-env cannot be combined"},
		{"sweep", []string{"sweep", "--example", "--policies", "fifo", "--shard", "3/2"}, "invalid --shard 3/2"},
		{"sweep environment", []string{"sweep", "--example", "--policies", "fifo", "--shard-from-env"}, "--shard-from-env: neither"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, errOut := runCapplan(t, append(tc.args, "-o", out)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitUsage, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s was written", out)
			}
		})
	}
	// With the Kubernetes index set but no count anywhere.
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	t.Setenv("CAPPLAN_SHARDS", "")
	out := filepath.Join(t.TempDir(), "out")
	code, _, errOut := runCapplan(t, "dag", "bounds", "--example", "--shard-from-env", "-o", out)
	if code != exitUsage || !strings.Contains(errOut, "the shard count is not known: give --shards N or set CAPPLAN_SHARDS") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// And with it: shard 2 of 3 from the environment.
	t.Setenv("CAPPLAN_SHARDS", "3")
	mustRun(t, "dag", "bounds", "--example", "--shard-from-env", "-o", out)
	if _, err := os.Stat(filepath.Join(out, "bounds-part-2-of-3.json")); err != nil {
		t.Errorf("shard 2/3 from JOB_COMPLETION_INDEX: %v", err)
	}
}

// TestMergeRefuses checks that merge refuses parts of different inputs, a
// missing shard and a repeated shard, with a clear error and no output.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	a := manyJobsWorkload(t, dir)
	data, _ := os.ReadFile(a)
	b := filepath.Join(dir, "other", "jobs.yaml")
	if err := os.MkdirAll(filepath.Dir(b), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, bytes.Replace(data, []byte("duration: 10,"), []byte("duration: 11,"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	machines := []string{"--machines", "2", "--machine-capacity", "cpu=4"}
	parts := filepath.Join(dir, "parts")
	for i := range 3 {
		mustRun(t, append([]string{"dag", "bounds", a, "--shard", fmt.Sprintf("%d/3", i), "-o", parts}, machines...)...)
	}
	// Shard 1 of the same run over the other file (its path differs only
	// in the directory, its content in one duration).
	foreign := filepath.Join(dir, "foreign")
	mustRun(t, append([]string{"dag", "bounds", b, "--shard", "1/3", "-o", foreign}, machines...)...)
	p := func(i int) string { return filepath.Join(parts, fmt.Sprintf("bounds-part-%d-of-3.json", i)) }
	copyPath := filepath.Join(dir, "copy-of-0.json")
	data0, _ := os.ReadFile(p(0))
	if err := os.WriteFile(copyPath, data0, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		parts []string
		want  string
	}{
		{"other input", []string{p(0), filepath.Join(foreign, "bounds-part-1-of-3.json"), p(2)}, "belong to different runs: different inputs"},
		{"missing shard", []string{p(0), p(2)}, "missing shard 1 of 3"},
		{"repeated shard", []string{p(0), p(1), p(2), copyPath}, "shard 0/3 is given twice"},
		{"no part here", []string{dir + "/other"}, "no part files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged.json")
			code, _, errOut := runCapplan(t, append([]string{"merge", "-o", out}, tc.parts...)...)
			if code == exitOK || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want a failure containing %q", code, errOut, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s was written", out)
			}
		})
	}
	// The complete set merges.
	mustRun(t, "merge", parts, "-o", filepath.Join(dir, "merged.json"))
}
