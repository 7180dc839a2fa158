package pipeline

import (
	"time"

	"github.com/capplan/capplan/dag"
)

// DAGBudget is the work budget of the DAG steps that search: best's
// schedules and the destructive lower bounds (energetic reasoning, the LP
// test, the exact search). MaxWork counts dag work units (about one per
// task or edge visited, window updated or search node; deterministic);
// TimeLimit is opt-in and recorded when it cuts a search.
type DAGBudget struct {
	// MaxWork per job (0: dag's default, dag.SearchWork on DAGs of at
	// most 120 tasks, else DefaultMaxWork and at least 16 schedule passes).
	MaxWork int64
	// TimeLimit is an opt-in wall-clock limit per job (0: none). When it
	// cuts a search the document says so and the result depends on the
	// machine.
	TimeLimit time.Duration
}

func (b DAGBudget) validate() error {
	switch {
	case b.MaxWork < 0:
		return optionErrorf("invalid --budget %d: want at least 1 work unit (0: the default)", b.MaxWork)
	case b.TimeLimit < 0:
		return optionErrorf("invalid --time-limit %v: want a positive duration such as 2s (0: none)", b.TimeLimit)
	}
	return nil
}

// set reports whether a budget or a limit was given.
func (b DAGBudget) set() bool { return b.MaxWork > 0 || b.TimeLimit > 0 }

// flags records the budget in a document's flags.
func (b DAGBudget) flags(m map[string]string) { budgetFlags(m, b.MaxWork, b.TimeLimit) }

// options are the dag options of one job's search.
func (b DAGBudget) options(seed uint64, workers int) dag.Options {
	return dag.Options{Seed: seed, Workers: workers, MaxWork: b.MaxWork, TimeLimit: b.TimeLimit}
}
