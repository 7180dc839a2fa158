package export

import (
	"os/exec"
	"strings"
	"testing"
)

func TestSlurm(t *testing.T) {
	run := testRun()
	run.Command = []string{"dag", "schedule", "my jobs.csv", "-o", "parts"}
	run.Merge = []string{"merge", "parts", "-o", "parts/schedule.json"}
	e, err := Slurm(SlurmOptions{Run: run, Partition: "batch", Time: "2:00:00", Chdir: "/scratch/plan"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range e.Files {
		if !f.Executable {
			t.Errorf("%s is not executable", f.Path)
		}
		files[f.Path] = string(f.Data)
		if err := exec.Command("bash", "-n", "-c", string(f.Data)).Run(); err != nil {
			t.Errorf("%s: bash -n: %v", f.Path, err)
		}
	}
	shards := files[SlurmShardsPath]
	// 1800m → 2 whole cores; 300 MiB + 1 byte → 301 MiB.
	for _, want := range []string{"#SBATCH --array=0-7\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --mem=301M\n", "#SBATCH --partition=batch\n",
		"#SBATCH --time=2:00:00\n", "#SBATCH --chdir=/scratch/plan\n", "#SBATCH --output=capplan-sweep-%A_%a.out\n",
		`exec "${CAPPLAN:-capplan}" dag schedule 'my jobs.csv' -o parts --shard-from-env` + "\n"} {
		if !strings.Contains(shards, want) {
			t.Errorf("shards.sbatch lacks %q:\n%s", want, shards)
		}
	}
	// The #SBATCH lines come before the first command, where sbatch reads
	// them.
	if i, j := strings.LastIndex(shards, "#SBATCH"), strings.Index(shards, "set -euo"); i > j {
		t.Error("an #SBATCH line follows a command")
	}
	if m := files[SlurmMergePath]; !strings.Contains(m, `exec "${CAPPLAN:-capplan}" merge parts -o parts/schedule.json`) || strings.Contains(m, "--array") {
		t.Errorf("merge.sbatch:\n%s", m)
	}
	if s := files[SlurmSubmitPath]; !strings.Contains(s, `--dependency=afterok:"$array"`) || !strings.Contains(s, `"$@"`) {
		t.Errorf("submit.sh:\n%s", s)
	}
	if _, err := Slurm(SlurmOptions{Run: run, Partition: "a b"}); err == nil {
		t.Error("a partition with a space was accepted")
	}
}

// TestSlurmLargeArray warns when the array exceeds Slurm's default
// MaxArraySize (indices 0 … 1000).
func TestSlurmLargeArray(t *testing.T) {
	run := testRun()
	for _, tc := range []struct {
		shards int
		warn   bool
	}{{1000, false}, {1001, true}} {
		run.Shards = tc.shards
		e, err := Slurm(SlurmOptions{Run: run})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(e.Warnings) > 0; got != tc.warn {
			t.Errorf("%d shards: warnings %v", tc.shards, e.Warnings)
		}
	}
}
