package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"
)

// TestExportJobsRun exports a sharded `dag bounds` for Kubernetes and
// Slurm, then runs what each exported artefact would run, without the
// batch system: every shard's command with the environment the system
// sets (JOB_COMPLETION_INDEX and the Job's CAPPLAN_SHARDS; Slurm's
// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, through the sbatch
// scripts themselves), then the merge. Both merged documents must be
// byte-identical to the unsharded run's.
func TestExportJobsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in subprocesses")
	}
	work := t.TempDir()
	manyJobsWorkload(t, work)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmdline := []string{"dag", "bounds", "jobs.yaml", "--machines", "2", "--machine-capacity", "cpu=4"}
	jobs := t.TempDir()
	mustRun(t, append([]string{"export", "k8s-job", "slurm", "--shards", "3", "--image", "capplan:test", "--pvc", "data",
		"--cpu", "1", "--memory", "128Mi", "--capplan", self, "-o", jobs, "--"}, append(cmdline, "-o", "parts")...)...)
	run := func(env []string, program string, args ...string) {
		t.Helper()
		c := exec.Command(program, args...)
		c.Dir = work
		c.Env = append(append(os.Environ(), runMainEnv+"=1", "CAPPLAN="+self, "JOB_COMPLETION_INDEX=", "SLURM_ARRAY_TASK_ID="), env...)
		var errOut bytes.Buffer
		c.Stderr = &errOut
		if err := c.Run(); err != nil {
			t.Fatalf("%s %v: %v\n%s", program, args, err, errOut.String())
		}
	}
	whole := filepath.Join(work, "whole.json")
	run(nil, self, append(cmdline, "-o", whole)...)
	want, _ := os.ReadFile(whole)

	// Kubernetes: the pods of the Indexed Job, then the merge Job.
	var job, merge batchv1.Job
	for path, j := range map[string]*batchv1.Job{"k8s-job/job.yaml": &job, "k8s-job/merge-job.yaml": &merge} {
		data, err := os.ReadFile(filepath.Join(jobs, path))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(data, j); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	c := job.Spec.Template.Spec.Containers[0]
	if want := "--workers 1 --shard-from-env"; !strings.HasSuffix(strings.Join(c.Args, " "), want) {
		t.Errorf("args %v do not end with %q", c.Args, want)
	}
	for i := range int(*job.Spec.Completions) {
		env := []string{fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)}
		for _, e := range c.Env {
			env = append(env, e.Name+"="+e.Value)
		}
		run(env, self, c.Args...)
	}
	run(nil, self, merge.Spec.Template.Spec.Containers[0].Args...)
	got, err := os.ReadFile(filepath.Join(work, "parts", "bounds.json"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Kubernetes: merged document differs from the unsharded run's (%v)", err)
	}

	// Slurm: the array's tasks run shards.sbatch, then merge.sbatch runs.
	if err := os.RemoveAll(filepath.Join(work, "parts")); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		run([]string{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=0"},
			"bash", filepath.Join(jobs, "slurm", "shards.sbatch"))
	}
	run(nil, "bash", filepath.Join(jobs, "slurm", "merge.sbatch"))
	got, err = os.ReadFile(filepath.Join(work, "parts", "bounds.json"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Slurm: merged document differs from the unsharded run's (%v)", err)
	}
}

// TestExportJobsMeasure measures shard 0 in a subprocess and checks that
// the requests come from it.
func TestExportJobsMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("short: runs capplan in a subprocess")
	}
	t.Setenv(runMainEnv, "1") // the measured child is this test binary
	out := t.TempDir()
	_, stderr := mustRun(t, "export", "slurm", "--shards", "2", "--measure", "-o", out, "--",
		"sweep", "--example", "--policies", "fifo,drf", "-o", "never-written")
	if !strings.Contains(stderr, "measured on shard 0/2: peak RSS") {
		t.Errorf("stderr %q", stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "slurm", "shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	var mem int
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "#SBATCH --mem="); ok {
			fmt.Sscanf(v, "%dM", &mem)
		}
	}
	// A Go program holds a few MiB at least; the floor is 64 MiB.
	if mem < 64 || !strings.Contains(string(data), "# Resources per shard: measured on shard 0/2") {
		t.Errorf("--mem %d MiB in\n%s", mem, data)
	}
	if _, err := os.Stat("never-written"); !os.IsNotExist(err) {
		t.Error("the measured shard wrote into the command's -o")
	}
}

func TestExportJobsErrors(t *testing.T) {
	base := []string{"export", "k8s-job", "--image", "i", "--pvc", "d", "--cpu", "1", "--memory", "1Gi"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no shards", append(base, "-o", "x", "--", "dag", "bounds", "--example", "-o", "p"), "give the number of shards: --shards N"},
		{"no command", append(base, "--shards", "2", "-o", "x"), "give the capplan command to shard after --"},
		{"not shardable", append(base, "--shards", "2", "-o", "x", "--", "fairshare", "--example", "-o", "p"), "must be one of sweep, dag schedule, dag bounds, dag check"},
		{"already sharded", append(base, "--shards", "2", "-o", "x", "--", "dag", "bounds", "--example", "--shard", "0/2", "-o", "p"), "must not have --shard"},
		{"one output file", append(base, "--shards", "2", "-o", "x", "--", "dag", "bounds", "--example", "-o", "p.json"), "give a directory"},
		{"no output", append(base, "--shards", "2", "-o", "x", "--", "dag", "bounds", "--example"), "needs -o DIR"},
		{"bad flag", append(base, "--shards", "2", "-o", "x", "--", "dag", "bounds", "--nosuch"), "unknown flag: --nosuch"},
		{"no memory", []string{"export", "slurm", "--shards", "2", "--cpu", "1", "-o", "x", "--", "sweep", "s.yaml", "-o", "o"}, "--cpu and --memory, or --measure"},
		{"plan target with a command", []string{"export", "yarn", "--shards", "2", "-o", "x", "--", "sweep", "s.yaml"}, "only the k8s-job and slurm targets take a command"},
		{"mixed targets", []string{"export", "yarn", "slurm", "--shards", "2", "--cpu", "1", "--memory", "1Gi", "-o", "x", "--", "sweep", "s.yaml", "-o", "o"}, "cannot be combined with k8s-job and slurm"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, a := range tc.args {
				if a == "x" {
					tc.args[i] = filepath.Join(dir, "x")
				}
			}
			code, _, errOut := runCapplan(t, tc.args...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitUsage, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(err) {
				t.Error("files were written")
			}
		})
	}
}
