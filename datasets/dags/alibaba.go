package dags

import (
	"fmt"
	"io"
	"math"

	"github.com/capplan/capplan/dag"
)

// AlibabaMachine is the capacity of one Alibaba v2018 machine in the
// resources of ParseAlibaba: 96 cores (machine_meta cpu_num) and the full
// normalised memory (mem_size 100).
var AlibabaMachine = []float64{96, 100}

// AlibabaOptions tune ReadAlibabaRows and ParseAlibaba.
type AlibabaOptions struct {
	// MaxTasks and MaxEdges bound one job's expansion (0:
	// AlibabaMaxTasks, AlibabaMaxEdges); larger jobs are rejected.
	MaxTasks, MaxEdges int
}

// withDefaults fills in the default limits.
func (o AlibabaOptions) withDefaults() AlibabaOptions {
	if o.MaxTasks <= 0 {
		o.MaxTasks = AlibabaMaxTasks
	}
	if o.MaxEdges <= 0 {
		o.MaxEdges = AlibabaMaxEdges
	}
	return o
}

// AlibabaJob is one accepted job, expanded.
type AlibabaJob struct {
	Name string
	// DAG is AlibabaRowJob.DAG: one stage per batch_task row, named by
	// task_name, with instance_num tasks name[0] … name[n-1]; resources
	// "cpu" (cores) and "mem" (normalised, 100 = one machine); Unit 1 s.
	// Every edge is a barrier.
	DAG *dag.DAG
	// Observed start and end (trace seconds) and status of each stage,
	// indexed like dag.DAG.Stages.
	Start, End []int64
	Status     []string
}

// ObservedSpan returns the job's observed run time, max End − min Start.
func (j *AlibabaJob) ObservedSpan() int64 {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for s := range j.Start {
		lo, hi = min(lo, j.Start[s]), max(hi, j.End[s])
	}
	return hi - lo
}

// Rejection says why one job (or one unattributable line) was dropped.
type Rejection struct {
	Job    string // "" when the line has no job field
	Line   int    // first offending line
	Reason string
}

// AlibabaTrace is the result of ParseAlibaba.
type AlibabaTrace struct {
	Jobs     []AlibabaJob // in order of first appearance
	Rejected []Rejection
}

// ParseAlibaba reads a batch_task file with ReadAlibabaRows (same rules,
// same rejections) and expands every accepted job into its task-level
// dag.DAG at once. Its memory is O(Σ tasks + edges) over all jobs: for
// large traces, read the rows and expand one job at a time instead
// (AlibabaRowJob.DAG). Only read errors are returned as errors.
func ParseAlibaba(name string, r io.Reader, opts AlibabaOptions) (*AlibabaTrace, error) {
	rows, err := ReadAlibabaRows(name, r, opts)
	if err != nil {
		return nil, err
	}
	out := &AlibabaTrace{Rejected: rows.Rejected}
	for i := range rows.Jobs {
		rj := &rows.Jobs[i]
		d, err := rj.DAG()
		if err != nil {
			// ReadAlibabaRows checked everything Build checks.
			return nil, fmt.Errorf("internal error: %s: job %s: %w", name, rj.Name, err)
		}
		j := AlibabaJob{Name: rj.Name, DAG: d}
		for _, r := range rj.Rows {
			j.Start = append(j.Start, r.Start)
			j.End = append(j.End, r.End)
			j.Status = append(j.Status, r.Status)
		}
		out.Jobs = append(out.Jobs, j)
	}
	return out, nil
}
