package workloads

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/sim"
)

// Alibaba is an Alibaba cluster-trace-v2018 batch_task trace read for the
// simulator (W-ALI): the rows of dags.ReadAlibabaRows, which accepts and
// rejects jobs by the same rules as every DAG command, kept at the stage
// level. Where the task-level dag.DAG expands each barrier into
// |parent|·|child| task edges, a simulator job keeps one link per barrier,
// so a job costs O(rows), and the trace is read streaming.
//
// One stage per row: instance_num tasks of duration end − start seconds,
// demand cpu = plan_cpu/100 cores and mem = plan_mem. Users are
// AlibabaUser.
type Alibaba struct {
	rows *dags.AlibabaRows
	// Rejected lists the rejected jobs and lines, "line N: reason".
	Rejected []sim.Rejection
}

// W-ALI's per-job limits: a job of more tasks or task edges is rejected.
// The simulator never expands a barrier into edges, so they are far above
// the DAG commands' defaults (dags.AlibabaMaxTasks, AlibabaMaxEdges).
const (
	AlibabaMaxTasks = 200_000
	AlibabaMaxEdges = 20_000_000
)

// ReadAlibaba reads a batch_task CSV with W-ALI's per-job limits; only
// read errors are errors.
func ReadAlibaba(name string, r io.Reader) (*Alibaba, error) {
	rows, err := dags.ReadAlibabaRows(name, r, dags.AlibabaOptions{MaxTasks: AlibabaMaxTasks, MaxEdges: AlibabaMaxEdges})
	if err != nil {
		return nil, fmt.Errorf("workloads: %w", err)
	}
	a := &Alibaba{rows: rows}
	for _, rj := range rows.Rejected {
		a.Rejected = append(a.Rejected, sim.Rejection{Job: rj.Job, Reason: fmt.Sprintf("line %d: %s", rj.Line, rj.Reason)})
	}
	return a, nil
}

// Quanta returns the quanta of the accepted jobs' demands and of the
// Alibaba machine.
func (a *Alibaba) Quanta() sim.Quanta {
	b := sim.NewQuantaBuilder(2)
	for d, x := range dags.AlibabaMachine {
		b.Add(d, x)
	}
	for _, j := range a.rows.Jobs {
		for _, r := range j.Rows {
			b.Add(0, r.CPU)
			b.Add(1, r.Mem)
		}
	}
	return b.Quanta()
}

// Jobs converts the accepted jobs, in file order. With compress > 0, a
// job arrives at its earliest start_time less the trace's, divided by
// compress; otherwise at 0.
func (a *Alibaba) Jobs(conv *sim.DAGConversion, compress float64) []sim.Job {
	t0 := int64(math.MaxInt64)
	for _, j := range a.rows.Jobs {
		for _, r := range j.Rows {
			t0 = min(t0, r.Start)
		}
	}
	jobs := make([]sim.Job, 0, len(a.rows.Jobs))
	for _, j := range a.rows.Jobs {
		first := int64(math.MaxInt64)
		job := sim.Job{Name: j.Name, User: AlibabaUser(j.Name), Stages: make([]sim.Stage, len(j.Rows))}
		for k, r := range j.Rows {
			first = min(first, r.Start)
			job.Stages[k] = sim.Stage{Name: r.Name, Tasks: int32(r.Instances), Duration: conv.Ticks(float64(r.End - r.Start)),
				Demand: sim.Vec{conv.Quanta.Demand(0, r.CPU), conv.Quanta.Demand(1, r.Mem)}}
			for _, p := range r.Parents {
				job.Links = append(job.Links, sim.Link{From: int32(p), To: int32(k), Kind: sim.Barrier})
			}
		}
		slices.SortStableFunc(job.Links, func(x, y sim.Link) int {
			if x.From != y.From {
				return int(x.From - y.From)
			}
			return int(x.To - y.To)
		})
		job.Links = slices.Compact(job.Links)
		if compress > 0 {
			job.Arrival = conv.Ticks(float64(first-t0) / compress)
		}
		jobs = append(jobs, job)
	}
	return jobs
}
