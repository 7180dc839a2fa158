package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// shardOptions are the sharding flags of sweep and the dag subcommands.
type shardOptions struct {
	Shard   string
	FromEnv bool
	Shards  int

	// shard is the resolved shard (nil: unsharded).
	shard *plan.Shard
	// getenv reads the environment (os.Getenv; tests replace it).
	getenv func(string) string
}

func (s *shardOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&s.Shard, "shard", "", "run only shard `INDEX/COUNT` of the items (0/8 … 7/8) and write its part; merge the parts with capplan merge")
	f.BoolVar(&s.FromEnv, "shard-from-env", false, "take the shard from JOB_COMPLETION_INDEX (Kubernetes Indexed Job; count from --shards or CAPPLAN_SHARDS) or SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (Slurm array)")
	f.IntVar(&s.Shards, "shards", 0, "shard `count` for --shard-from-env (default: CAPPLAN_SHARDS or SLURM_ARRAY_TASK_COUNT)")
}

// resolve checks the flags and reads the shard.
func (s *shardOptions) resolve() error {
	switch {
	case s.Shard != "" && s.FromEnv:
		return usageErrorf("--shard and --shard-from-env cannot be combined")
	case s.Shards != 0 && !s.FromEnv:
		return usageErrorf("--shards goes with --shard-from-env (with --shard, give INDEX/COUNT)")
	case s.Shards < 0:
		return usageErrorf("invalid --shards %d: want at least 1", s.Shards)
	}
	var sh plan.Shard
	var err error
	switch {
	case s.Shard != "":
		sh, err = pipeline.ParseShard(s.Shard)
	case s.FromEnv:
		getenv := s.getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		sh, err = pipeline.ShardFromEnv(getenv, s.Shards)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	s.shard = &sh
	return nil
}

// validatePartOutput checks the output flags of a sharded run: the part
// goes to -o, a directory or a .json file, and nowhere else.
func validatePartOutput(o *outputOptions) error {
	switch {
	case o.Out == "":
		return usageErrorf("a sharded run writes its part with -o: give a directory (every shard writes its own file in it) or a .json file")
	case o.JSON || o.CSV || o.XLSX != "":
		return usageErrorf("a sharded run writes only its part (-o); --json, --csv and --xlsx apply to the merged document (capplan merge)")
	}
	return nil
}

// partPath is where a part goes: out itself when it names a .json file,
// else the part's file in the directory out (created).
func partPath(out string, p *plan.Part) (string, error) {
	if strings.EqualFold(filepath.Ext(out), ".json") {
		return out, nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", out, err)
	}
	return filepath.Join(out, pipeline.PartFileName(p.Command, p.Shard)), nil
}

// writePart writes a shard's part atomically and says where on stderr.
func writePart(streams *ioStreams, out string, p *plan.Part) error {
	path, err := partPath(out, p)
	if err != nil {
		return err
	}
	if err := writeTo(nil, path, func(w io.Writer) error { return reports.WriteJSON(w, p) }); err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "capplan: shard %s: %d of %d items, estimated cost %d of %d (slowest shard %.3f × the mean); wrote %s\n",
		p.Shard, len(p.Slice), p.Items, p.Cost.Slice, p.Cost.Total, p.Cost.MaxOverMean, path)
	return nil
}

// validate resolves the shard and checks the output flags: those of a
// part when sharded, the usual ones otherwise.
func (s *shardOptions) validate(out *outputOptions) error {
	if err := s.resolve(); err != nil {
		return err
	}
	if s.shard != nil {
		return validatePartOutput(out)
	}
	return out.validate()
}
