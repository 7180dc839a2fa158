package dags

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/capplan/capplan/dag"
)

// AlibabaMachine is the capacity of one Alibaba v2018 machine in the
// resources of ParseAlibaba: 96 cores (machine_meta cpu_num) and the full
// normalised memory (mem_size 100).
var AlibabaMachine = []float64{96, 100}

// DefaultMaxTasks bounds the tasks a loader expands one job into.
const DefaultMaxTasks = 200_000

// batch_task columns, per the trace's schema.txt.
const (
	colTaskName = iota
	colInstances
	colJob
	colType
	colStatus
	colStart
	colEnd
	colCPU
	colMem
	batchTaskCols
)

// AlibabaOptions tune ParseAlibaba.
type AlibabaOptions struct {
	// MaxTasks and MaxEdges bound one job's expansion (0: DefaultMaxTasks,
	// DefaultMaxEdges); larger jobs are rejected.
	MaxTasks, MaxEdges int
}

// AlibabaJob is one accepted job.
type AlibabaJob struct {
	Name string
	// dag.DAG has one stage per batch_task row, named by task_name, with
	// instance_num tasks name[0] … name[n-1]; resources "cpu" (cores) and
	// "mem" (normalised, 100 = one machine); Unit 1 s. Every edge is a
	// barrier: an instance waits for all instances of its parent tasks.
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

// abRow is one parsed batch_task row.
type abRow struct {
	line      int
	name      string
	id        int
	preds     []int
	n         int
	start     int64
	end       int64
	status    string
	cpu, mem  float64
	rejection string
}

// ParseAlibaba reads Alibaba cluster-trace-v2018 batch_task rows (CSV, no
// header, columns task_name, instance_num, job_name, task_type, status,
// start_time, end_time, plan_cpu, plan_mem; a leading header row is
// skipped). The dag.DAG of a job is encoded in its task names: after the
// leading letters, the first number is the task's id and every further
// `_`-separated number a parent id (M1, R2_1, J5_3_4). Each job is
// accepted or rejected as a whole: odd names (task_…, trailing `_`),
// missing fields, end before start, repeated ids, unknown parents, cycles
// and oversized expansions reject a job with a reason, and the rest are
// kept. Durations are end − start seconds; cpu is plan_cpu/100 cores. Only
// read errors are returned as errors.
func ParseAlibaba(name string, r io.Reader, opts AlibabaOptions) (*AlibabaTrace, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	out := &AlibabaTrace{}
	rows := map[string][]abRow{}
	var order []string
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		var perr *csv.ParseError
		if errors.As(err, &perr) {
			out.Rejected = append(out.Rejected, Rejection{Line: perr.Line, Reason: perr.Err.Error()})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dag: %s: %w", name, err)
		}
		if line == 1 && len(rec) > 0 && rec[0] == "task_name" {
			continue
		}
		if len(rec) <= colJob || rec[colJob] == "" {
			out.Rejected = append(out.Rejected, Rejection{Line: line, Reason: "row has no job_name"})
			continue
		}
		job := rec[colJob]
		if _, seen := rows[job]; !seen {
			order = append(order, job)
		}
		rows[job] = append(rows[job], parseABRow(rec, line))
	}
	for _, job := range order {
		j, rej := alibabaJob(job, rows[job], opts)
		if rej != nil {
			out.Rejected = append(out.Rejected, *rej)
			continue
		}
		out.Jobs = append(out.Jobs, *j)
	}
	return out, nil
}

// parseABRow parses the fields of one row; problems go to rejection.
func parseABRow(rec []string, line int) abRow {
	r := abRow{line: line}
	if len(rec) != batchTaskCols {
		r.rejection = fmt.Sprintf("row has %d fields, want %d", len(rec), batchTaskCols)
		return r
	}
	r.name, r.status = rec[colTaskName], rec[colStatus]
	digits := strings.TrimLeftFunc(r.name, func(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' })
	parts := strings.Split(digits, "_")
	for k, p := range parts {
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
	n := field(colInstances, "instance_num")
	start, end := field(colStart, "start_time"), field(colEnd, "end_time")
	r.cpu, r.mem = field(colCPU, "plan_cpu")/100, field(colMem, "plan_mem")
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

// alibabaJob builds one job, or says why it is rejected.
func alibabaJob(job string, rows []abRow, opts AlibabaOptions) (*AlibabaJob, *Rejection) {
	maxTasks, maxEdges := opts.MaxTasks, opts.MaxEdges
	if maxTasks == 0 {
		maxTasks = DefaultMaxTasks
	}
	if maxEdges == 0 {
		maxEdges = DefaultMaxEdges
	}
	reject := func(line int, format string, a ...any) (*AlibabaJob, *Rejection) {
		return nil, &Rejection{Job: job, Line: line, Reason: fmt.Sprintf(format, a...)}
	}
	byID := map[int]int{}
	tasks := 0
	for k, r := range rows {
		if r.rejection != "" {
			return reject(r.line, "%s", r.rejection)
		}
		if k2, dup := byID[r.id]; dup {
			return reject(r.line, "task id %d used by %s and %s", r.id, rows[k2].name, r.name)
		}
		byID[r.id] = k
		tasks += r.n
	}
	if tasks > maxTasks {
		return reject(rows[0].line, "%d instances exceed the limit of %d tasks", tasks, maxTasks)
	}
	// Stage-level check first: unknown parents and cycles, named by
	// task_name, and the number of task edges.
	sb := dag.NewBuilder(job, nil, 1)
	edges := 0
	for _, r := range rows {
		sb.AddTask(r.name, -1, 0, nil)
	}
	for k, r := range rows {
		for _, p := range r.preds {
			pk, ok := byID[p]
			if !ok {
				return reject(r.line, "task %s depends on task %d, which the job does not have", r.name, p)
			}
			sb.AddEdge(pk, k)
			edges += rows[pk].n * r.n
		}
	}
	if _, err := sb.Build(); err != nil {
		var ce *dag.CycleError
		if errors.As(err, &ce) {
			return reject(rows[0].line, "cycle: %s", strings.Join(ce.Cycle, " -> "))
		}
		return reject(rows[0].line, "%v", err)
	}
	if edges > maxEdges {
		return reject(rows[0].line, "%d task edges exceed the limit of %d", edges, maxEdges)
	}
	b := dag.NewBuilder(job, []string{"cpu", "mem"}, 1)
	j := &AlibabaJob{Name: job}
	for _, r := range rows {
		s := b.Stage(r.name)
		for i := 0; i < r.n; i++ {
			b.AddTask(r.name+"["+strconv.Itoa(i)+"]", s, r.end-r.start, []float64{r.cpu, r.mem})
		}
		j.Start = append(j.Start, r.start)
		j.End = append(j.End, r.end)
		j.Status = append(j.Status, r.status)
	}
	for k, r := range rows {
		for _, p := range r.preds {
			b.Connect(byID[p], k, dag.Barrier)
		}
	}
	d, err := b.Build()
	if err != nil {
		return reject(rows[0].line, "%v", err)
	}
	j.DAG = d
	return j, nil
}
