package main

import (
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/pipeline"
)

// bindDAGBudget adds --budget and --time-limit, the work budget of the dag
// subcommands that search; what says what they limit.
func bindDAGBudget(f *pflag.FlagSet, b *pipeline.DAGBudget, what string) {
	f.Int64Var(&b.MaxWork, "budget", 0, "work budget of "+what+" per job, in `units` (about one per task or edge visited, window updated or search node; deterministic; 0: 50000000 on DAGs of at most 60 tasks, in proportion to the tasks up to 120 tasks, else 3000000 and at least 16 schedule passes)")
	f.DurationVar(&b.TimeLimit, "time-limit", 0, "opt-in wall-clock limit of "+what+" per job, such as 2s (0: none); the document records when it cut the search")
}
