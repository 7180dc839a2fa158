package export

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// ShardedRun is a capplan run split into shards for a batch system: every
// shard runs the same command with --shard-from-env, the system tells each
// its index, and a merge step runs once every shard has succeeded
// (DESIGN.md, Scale).
type ShardedRun struct {
	// Name names the jobs ("capplan-sweep"): an RFC 1123 label.
	Name string
	// Command is the shard's capplan command line without the program and
	// without shard flags: ["sweep", "sweep.yaml", "-o", "out",
	// "--workers", "2"]. Paths in it are relative to the working directory
	// (the volume's mount path on Kubernetes).
	Command []string
	// Merge is the merge step's command line: ["merge", "out", "-o",
	// "out"].
	Merge []string
	// Shards is the number of shards (array tasks, completions).
	Shards int
	// Capplan is the program: "capplan" (found on the PATH) or a path.
	Capplan string
	// Resources each shard requests.
	Resources ShardResources
}

// ShardResources are what one shard needs.
type ShardResources struct {
	// MilliCPU is the CPU a shard uses, in thousandths of a core.
	MilliCPU int64
	// MemoryBytes is a shard's memory request.
	MemoryBytes int64
	// Basis says where the numbers come from ("measured on shard 0/8:
	// peak RSS 182 MiB, 1.83 cores on average over 12.4 s; memory × 1.25"
	// or "given with --cpu and --memory"), recorded in the artefacts.
	Basis string
}

// MaxShardsPerJob bounds the shards of one Job or array (Kubernetes
// allows up to 100,000 completions with a per-index backoff limit).
const MaxShardsPerJob = 100_000

// minMemoryBytes is the smallest memory request written (16 MiB): less
// cannot start a Go program.
const minMemoryBytes = 16 << 20

// shardFlags are the flags a shard's command must not carry: the
// exporters add --shard-from-env.
var shardFlags = []string{"--shard", "--shard-from-env", "--shards"}

// validate checks the run and returns the shard command line with
// --shard-from-env.
func (r *ShardedRun) validate() ([]string, error) {
	switch {
	case len(validation.IsDNS1123Label(r.Name)) > 0:
		return nil, fmt.Errorf("export: job name %q: want lowercase letters, digits and '-', at most 63 characters, starting and ending with a letter or digit", r.Name)
	case len(r.Command) == 0:
		return nil, fmt.Errorf("export: no capplan command to shard")
	case len(r.Merge) == 0:
		return nil, fmt.Errorf("export: no merge command")
	case r.Shards < 1 || r.Shards > MaxShardsPerJob:
		return nil, fmt.Errorf("export: %d shards: want 1 … %d", r.Shards, MaxShardsPerJob)
	case r.Resources.MilliCPU < 1:
		return nil, fmt.Errorf("export: a shard's CPU must be positive (got %dm)", r.Resources.MilliCPU)
	case r.Resources.MemoryBytes < minMemoryBytes:
		return nil, fmt.Errorf("export: a shard's memory must be at least %d MiB (got %d bytes)", minMemoryBytes>>20, r.Resources.MemoryBytes)
	case !safeShellWord.MatchString(r.Capplan):
		return nil, fmt.Errorf("export: capplan program %q: give a name or a path without spaces or shell characters", r.Capplan)
	}
	for _, a := range r.Command {
		for _, f := range shardFlags {
			if a == f || strings.HasPrefix(a, f+"=") {
				return nil, fmt.Errorf("export: the command already has %s: the shard flags are added by the export", f)
			}
		}
	}
	return append(append([]string{}, r.Command...), "--shard-from-env"), nil
}

// provenanceLines head every file of a sharded export: the command, the
// shard count and the basis of the resources.
func (r *ShardedRun) provenanceLines(what string) []string {
	return []string{
		fmt.Sprintf("%s: capplan %s, in %d shards, then capplan %s.", what, strings.Join(r.Command, " "), r.Shards, strings.Join(r.Merge, " ")),
		"Resources per shard: " + r.Resources.Basis + ".",
	}
}

// safeShellWord matches words the shell reads as they are.
var safeShellWord = regexp.MustCompile(`^[A-Za-z0-9_./:=,@%+-]+$`)

// shellWord writes a word for a POSIX shell: as it is when the shell
// reads it so, else quoted (shellQuote).
func shellWord(s string) string {
	if safeShellWord.MatchString(s) {
		return s
	}
	return shellQuote(s)
}

// shellLine quotes and joins words.
func shellLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellWord(w)
	}
	return strings.Join(q, " ")
}

// mebibytes rounds bytes up to whole MiB.
func mebibytes(b int64) int64 { return (b + 1<<20 - 1) >> 20 }

// wholeCores rounds millicores up to whole cores (at least 1).
func wholeCores(m int64) int64 { return max(1, (m+999)/1000) }
