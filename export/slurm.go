package export

import (
	"fmt"
	"regexp"
	"strings"
)

// Paths of the Slurm export, relative to the export directory.
const (
	SlurmShardsPath = "slurm/shards.sbatch"
	SlurmMergePath  = "slurm/merge.sbatch"
	SlurmSubmitPath = "slurm/submit.sh"
)

// SlurmOptions are the Slurm settings of a sharded run.
type SlurmOptions struct {
	Run ShardedRun
	// Partition, Time (a Slurm time limit such as 2:00:00) and Chdir (the
	// jobs' working directory; "": where sbatch runs) are optional.
	Partition, Time, Chdir string
}

// slurmDefaultMaxArraySize is Slurm's default MaxArraySize: array indices
// must stay below it.
const slurmDefaultMaxArraySize = 1001

// slurmWord matches the values written into #SBATCH lines unquoted.
var slurmWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+-]+$`)

// Slurm exports a sharded run as a Slurm job array:
//
//   - slurm/shards.sbatch: #SBATCH --array=0-(N−1) with the shard's
//     --cpus-per-task (whole cores, rounded up) and --mem (MiB, rounded
//     up); Slurm sets SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, so
//     `capplan … --shard-from-env` runs shard SLURM_ARRAY_TASK_ID/N;
//   - slurm/merge.sbatch: the merge, one task;
//   - slurm/submit.sh: submits the array, then the merge with
//     --dependency=afterok on the array's job id, so that it starts only
//     once every shard has succeeded; its arguments go to the merge's
//     sbatch (--wait makes the script wait for the merge).
//
// Every script runs ${CAPPLAN:-<program>}, so a cluster can point at its
// own build.
func Slurm(o SlurmOptions) (*Export, error) {
	args, err := o.Run.validate()
	if err != nil {
		return nil, err
	}
	for _, f := range []struct{ flag, v string }{{"--partition", o.Partition}, {"--time", o.Time}, {"--chdir", o.Chdir}} {
		if f.v != "" && !slurmWord.MatchString(f.v) {
			return nil, fmt.Errorf("export: slurm %s %q: use letters, digits and _ . / : @ %% + - only", f.flag, f.v)
		}
	}
	r := o.Run
	head := r.provenanceLines("Slurm job array")
	common := func(b *strings.Builder) {
		if o.Partition != "" {
			fmt.Fprintf(b, "#SBATCH --partition=%s\n", o.Partition)
		}
		if o.Time != "" {
			fmt.Fprintf(b, "#SBATCH --time=%s\n", o.Time)
		}
		if o.Chdir != "" {
			fmt.Fprintf(b, "#SBATCH --chdir=%s\n", o.Chdir)
		}
	}
	program := `"${CAPPLAN:-` + r.Capplan + `}"` // validate: r.Capplan is a plain shell word
	mem := mebibytes(r.Resources.MemoryBytes)
	var shards strings.Builder
	shards.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&shards, "#SBATCH --job-name=%s\n", r.Name)
	fmt.Fprintf(&shards, "#SBATCH --array=0-%d\n", r.Shards-1)
	shards.WriteString("#SBATCH --ntasks=1\n")
	fmt.Fprintf(&shards, "#SBATCH --cpus-per-task=%d\n", wholeCores(r.Resources.MilliCPU))
	fmt.Fprintf(&shards, "#SBATCH --mem=%dM\n", mem)
	fmt.Fprintf(&shards, "#SBATCH --output=%s-%%A_%%a.out\n", r.Name)
	common(&shards)
	shards.WriteString(commentLines("# ", append(head, "Submit with submit.sh (the array, then the merge once every shard succeeded).")))
	shards.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&shards, "exec %s %s\n", program, shellLine(args))

	var merge strings.Builder
	merge.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&merge, "#SBATCH --job-name=%s\n", mergeJobName(r.Name))
	merge.WriteString("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&merge, "#SBATCH --mem=%dM\n", mem)
	fmt.Fprintf(&merge, "#SBATCH --output=%s-%%j.out\n", mergeJobName(r.Name))
	common(&merge)
	merge.WriteString(commentLines("# ", append(head, "Submitted by submit.sh with --dependency=afterok on the array.")))
	merge.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&merge, "exec %s %s\n", program, shellLine(r.Merge))

	var submit strings.Builder
	submit.WriteString("#!/bin/bash\n")
	submit.WriteString(commentLines("# ", append(head,
		"Submits the shards as a job array, then the merge, which starts once every",
		"shard has succeeded (--dependency=afterok). Arguments go to the merge's",
		"sbatch: submit.sh --wait returns when the merge is done, with its exit status.",
		"Prints the two job ids.")))
	submit.WriteString("set -euo pipefail\n")
	submit.WriteString("here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n")
	submit.WriteString("array=$(sbatch --parsable \"$here/shards.sbatch\")\n")
	submit.WriteString("array=${array%%;*}\n")
	submit.WriteString("echo \"shards: job $array\"\n")
	submit.WriteString("sbatch --parsable --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes \"$@\" \"$here/merge.sbatch\" | sed 's/^/merge: job /'\n")
	var warnings []string
	if r.Shards > slurmDefaultMaxArraySize-1 {
		warnings = append(warnings, fmt.Sprintf("slurm: an array of %d tasks needs MaxArraySize > %d in slurm.conf (the default is %d)",
			r.Shards, r.Shards-1, slurmDefaultMaxArraySize))
	}
	return &Export{Warnings: warnings, Files: []File{
		{Path: SlurmShardsPath, Data: []byte(shards.String()), Executable: true},
		{Path: SlurmMergePath, Data: []byte(merge.String()), Executable: true},
		{Path: SlurmSubmitPath, Data: []byte(submit.String()), Executable: true},
	}}, nil
}
