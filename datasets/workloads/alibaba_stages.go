package workloads

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/sim"
)

// ReadAlibaba reads Alibaba cluster-trace-v2018 batch_task rows straight
// into simulator jobs, keeping every barrier stage-level. It accepts and
// rejects exactly the jobs dags.ParseAlibaba does (same limits, same
// rules; TestReadAlibabaMatchesDags checks it), but where ParseAlibaba
// expands each barrier into |parent|·|child| task edges — 576 million
// edges and 9.4 GB of heap for the 2,120-job sample — a job here costs
// O(rows + tasks). TODO(lead): once datasets/dags can keep barriers
// stage-level, read through it and delete the row parsing here.
//
// One stage per row: instance_num tasks of duration end − start seconds,
// demand cpu = plan_cpu/100 cores and mem = plan_mem; a row's parents are
// the further `_`-separated numbers of its task name (M1, R2_1, J5_3_4).
// With compress > 0, a job arrives at its earliest start_time less the
// trace's, divided by compress; otherwise at 0. Users are AlibabaUser.
type AlibabaRows struct {
	// Jobs in order of first appearance, their stage demands in base units.
	jobs     []abJob
	Rejected []sim.Rejection
}

type abJob struct {
	name string
	rows []abRow
}

type abRow struct {
	line       int
	name       string
	id         int
	preds      []int
	n          int
	start, end int64
	cpu, mem   float64
	rejection  string
}

// batch_task columns (schema.txt of the trace).
const (
	abTaskName = iota
	abInstances
	abJobName
	abType
	abStatus
	abStart
	abEnd
	abCPU
	abMem
	abCols
)

// ParseAlibabaRows reads and groups the rows of a batch_task CSV; only
// read errors are errors.
func ParseAlibabaRows(name string, r io.Reader) (*AlibabaRows, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	out := &AlibabaRows{}
	at := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var perr *csv.ParseError
		if errors.As(err, &perr) {
			out.Rejected = append(out.Rejected, sim.Rejection{Reason: fmt.Sprintf("line %d: %v", perr.Line, perr.Err)})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("workloads: %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0) // a record read without error has a field
		if line == 1 && len(rec) > 0 && rec[0] == "task_name" {
			continue
		}
		if len(rec) <= abJobName || rec[abJobName] == "" {
			out.Rejected = append(out.Rejected, sim.Rejection{Reason: fmt.Sprintf("line %d: row has no job_name", line)})
			continue
		}
		k, seen := at[rec[abJobName]]
		if !seen {
			k = len(out.jobs)
			at[rec[abJobName]] = k
			out.jobs = append(out.jobs, abJob{name: rec[abJobName]})
		}
		out.jobs[k].rows = append(out.jobs[k].rows, parseRow(rec, line))
	}
	return out, nil
}

// parseRow parses one row's fields; problems go to rejection.
func parseRow(rec []string, line int) abRow {
	r := abRow{line: line}
	if len(rec) != abCols {
		r.rejection = fmt.Sprintf("row has %d fields, want %d", len(rec), abCols)
		return r
	}
	r.name = rec[abTaskName]
	digits := strings.TrimLeftFunc(r.name, func(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' })
	for k, p := range strings.Split(digits, "_") {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || p == "" || p[0] == '+' || p[0] == '-' {
			r.rejection = fmt.Sprintf("task name %q is not a dag.DAG task name (letters, id, _parent ids)", r.name)
			return r
		}
		if k == 0 {
			r.id = v
		} else {
			r.preds = append(r.preds, v)
		}
	}
	field := func(col int, what string) float64 {
		if r.rejection != "" {
			return 0
		}
		v, err := strconv.ParseFloat(rec[col], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			r.rejection = fmt.Sprintf("task %s: %s %q is not a number", r.name, what, rec[col])
		}
		return v
	}
	n := field(abInstances, "instance_num")
	start, end := field(abStart, "start_time"), field(abEnd, "end_time")
	r.cpu, r.mem = field(abCPU, "plan_cpu")/100, field(abMem, "plan_mem")
	switch {
	case r.rejection != "":
	case n < 1 || n != math.Trunc(n):
		r.rejection = fmt.Sprintf("task %s: instance_num %v is not a positive whole number", r.name, n)
	case start != math.Trunc(start) || end != math.Trunc(end):
		r.rejection = fmt.Sprintf("task %s: times %v, %v are not whole seconds", r.name, start, end)
	case end < start:
		r.rejection = fmt.Sprintf("task %s: end_time %v before start_time %v", r.name, end, start)
	case r.cpu < 0 || r.mem < 0:
		r.rejection = fmt.Sprintf("task %s: negative plan_cpu or plan_mem", r.name)
	}
	r.n, r.start, r.end = int(min(n, math.MaxInt32)), int64(start), int64(end)
	return r
}

// check returns why a job is rejected under dags' default limits, or "".
func (j *abJob) check() string {
	byID := map[int]int{}
	tasks, edges := 0, 0
	for k, r := range j.rows {
		if r.rejection != "" {
			return fmt.Sprintf("line %d: %s", r.line, r.rejection)
		}
		if k2, dup := byID[r.id]; dup {
			return fmt.Sprintf("line %d: task id %d used by %s and %s", r.line, r.id, j.rows[k2].name, r.name)
		}
		byID[r.id] = k
		tasks += r.n
	}
	if tasks > dags.DefaultMaxTasks {
		return fmt.Sprintf("line %d: %d instances exceed the limit of %d tasks", j.rows[0].line, tasks, dags.DefaultMaxTasks)
	}
	for _, r := range j.rows {
		for _, p := range r.preds {
			pk, ok := byID[p]
			if !ok {
				return fmt.Sprintf("line %d: task %s depends on task %d, which the job does not have", r.line, r.name, p)
			}
			edges += j.rows[pk].n * r.n
		}
	}
	if edges > dags.DefaultMaxEdges {
		return fmt.Sprintf("line %d: %d task edges exceed the limit of %d", j.rows[0].line, edges, dags.DefaultMaxEdges)
	}
	return ""
}

// Quanta returns the quanta of the rows' demands and the Alibaba machine.
func (a *AlibabaRows) Quanta() sim.Quanta {
	b := sim.NewQuantaBuilder(2)
	for d, x := range dags.AlibabaMachine {
		b.Add(d, x)
	}
	for _, j := range a.jobs {
		for _, r := range j.rows {
			if r.rejection == "" {
				b.Add(0, r.cpu)
				b.Add(1, r.mem)
			}
		}
	}
	return b.Quanta()
}

// Jobs converts the accepted jobs; rejected ones (and cyclic ones, which
// the simulator rejects at admission) are added to Rejected.
func (a *AlibabaRows) Jobs(conv *sim.DAGConversion, compress float64) []sim.Job {
	t0 := int64(math.MaxInt64)
	for _, j := range a.jobs {
		if j.check() != "" {
			continue
		}
		for _, r := range j.rows {
			t0 = min(t0, r.start)
		}
	}
	var jobs []sim.Job
	for _, j := range a.jobs {
		if why := j.check(); why != "" {
			a.Rejected = append(a.Rejected, sim.Rejection{Job: j.name, Reason: why})
			continue
		}
		byID := map[int]int32{}
		first := int64(math.MaxInt64)
		job := sim.Job{Name: j.name, User: AlibabaUser(j.name), Stages: make([]sim.Stage, len(j.rows))}
		for k, r := range j.rows {
			byID[r.id] = int32(k)
			first = min(first, r.start)
			job.Stages[k] = sim.Stage{Name: r.name, Tasks: int32(r.n), Duration: conv.Ticks(float64(r.end - r.start)),
				Demand: sim.Vec{conv.Quanta.Demand(0, r.cpu), conv.Quanta.Demand(1, r.mem)}}
		}
		for k, r := range j.rows {
			for _, p := range r.preds {
				job.Links = append(job.Links, sim.Link{From: byID[p], To: int32(k), Kind: sim.Barrier})
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
