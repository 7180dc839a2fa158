package dags

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/capplan/capplan/dag"
)

// Default per-job limits of the DAG loaders. A job beyond either is
// rejected (Alibaba traces) or refused (workloads) before it is expanded;
// --max-tasks and --max-edges change them. Memory grows with tasks +
// edges per job times the jobs scheduled at once (one per worker), and
// time with tasks·(tasks + edges) for the heavier schedulers.
const (
	// DefaultMaxTasks bounds the tasks one workload job expands into.
	DefaultMaxTasks = 200_000
	// DefaultMaxEdges bounds the task edges one workload job expands
	// into (about 64 MB of DAG). A barrier between stages of n and m tasks
	// expands to n·m edges.
	DefaultMaxEdges = 2_000_000
	// AlibabaMaxTasks and AlibabaMaxEdges are the defaults for the jobs of
	// an Alibaba batch_task trace (AlibabaOptions{}). With them the
	// README's `capplan dag schedule` of the v2018 sample keeps 1,710 of
	// its 2,120 jobs (491,136 tasks) and peaks under 0.5 GB; at 20,000
	// tasks and 1,000,000 edges it peaked at 1.66 GB and took six times
	// as long (2 cores; make bench reports the figures).
	AlibabaMaxTasks = 5_000
	AlibabaMaxEdges = 200_000
)

// MaxJobTicks bounds the sum of a job's task durations, in ticks (2^53).
// Every time the dag schedulers and bounds compute (sums along paths and
// over all tasks, backward placement at negative times) then lies within
// ±2^53: far inside int64, and exact as a float64.
const MaxJobTicks = 1 << 53

// MaxCapacityRatio bounds, per resource, the total capacity of the
// machines (the pooled machine) over the smallest positive demand of a
// job (2^53): the number of tasks that can run at once, which the dag
// bounds count in int64, stays exact.
const MaxCapacityRatio = 1 << 53

// tickSum adds task durations, count copies at a time, and remembers
// whether the sum passed MaxJobTicks (or overflowed on the way).
type tickSum struct {
	total uint64
	over  bool
}

func (s *tickSum) add(dur, count int64) {
	if dur < 0 || count < 0 {
		return // negative durations are reported by dag.Builder
	}
	hi, lo := bits.Mul64(uint64(dur), uint64(count))
	sum, carry := bits.Add64(s.total, lo, 0)
	if hi != 0 || carry != 0 || sum > MaxJobTicks {
		s.over = true
	}
	s.total = sum
}

// check returns why the sum is out of range, or "".
func (s *tickSum) check() string {
	if s.over {
		return fmt.Sprintf("task durations sum to more than %d ticks, the range capplan schedules in", uint64(MaxJobTicks))
	}
	return ""
}

// CheckTicks returns an error when the durations of d sum to more than
// MaxJobTicks.
func CheckTicks(d *dag.DAG) error {
	var s tickSum
	for i := range d.Tasks {
		s.add(d.Tasks[i].Duration, 1)
	}
	if why := s.check(); why != "" {
		return &dag.InputError{Source: d.Name, Problems: []string{why}}
	}
	return nil
}

// CheckScale returns an error when, in some resource, the machines' total
// capacity over the smallest positive demand of a task of d exceeds
// MaxCapacityRatio: such a machine would hold more tasks at once than the
// dag bounds count exactly. Capacities must be finite.
func CheckScale(d *dag.DAG, machines [][]float64) error {
	var problems []string
	for r, name := range d.Resources {
		low := math.Inf(1)
		for i := range d.Tasks {
			if x := d.Tasks[i].Demand[r]; x > 0 {
				low = min(low, x)
			}
		}
		total := 0.0
		for _, c := range machines {
			total += c[r]
		}
		if math.IsInf(total, 0) || math.IsNaN(total) || (!math.IsInf(low, 1) && total/low > MaxCapacityRatio) {
			problems = append(problems, fmt.Sprintf("resource %s: the machines' capacity %g is more than %g times the smallest demand %g; give capacities and demands in units closer to each other",
				name, total, float64(MaxCapacityRatio), low))
		}
	}
	if len(problems) > 0 {
		return &dag.InputError{Source: d.Name, Problems: problems}
	}
	return nil
}
