package main

import (
	"strconv"
	"time"

	"github.com/spf13/pflag"
)

// dagBudgetOptions are the work budget flags of the dag subcommands that
// search: --budget counts work units (deterministic), --time-limit is an
// opt-in wall-clock limit recorded in the document when it cuts a search.
type dagBudgetOptions struct {
	MaxWork   int64
	TimeLimit time.Duration
}

// bind adds --budget and --time-limit; what says what they limit.
func (o *dagBudgetOptions) bind(f *pflag.FlagSet, what string) {
	f.Int64Var(&o.MaxWork, "budget", 0, "work budget of "+what+" per job, in `units` (about one per task or edge visited, window updated or search node; deterministic; 0: 50000000 on DAGs of at most 120 tasks, else 3000000 and at least 16 schedule passes)")
	f.DurationVar(&o.TimeLimit, "time-limit", 0, "opt-in wall-clock limit of "+what+" per job, such as 2s (0: none); the document records when it cut the search")
}

func (o *dagBudgetOptions) validate() error {
	switch {
	case o.MaxWork < 0:
		return usageErrorf("invalid --budget %d: want at least 1 work unit (0: the default)", o.MaxWork)
	case o.TimeLimit < 0:
		return usageErrorf("invalid --time-limit %v: want a positive duration such as 2s (0: none)", o.TimeLimit)
	}
	return nil
}

// set reports whether either flag was given.
func (o *dagBudgetOptions) set() bool { return o.MaxWork > 0 || o.TimeLimit > 0 }

// flags records the budget in the document's flags.
func (o *dagBudgetOptions) flags(m map[string]string) {
	if o.MaxWork > 0 {
		m["budget"] = strconv.FormatInt(o.MaxWork, 10)
	}
	if o.TimeLimit > 0 {
		m["timeLimit"] = o.TimeLimit.String()
	}
}
