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

// MaxTraceTime bounds |start_time| and |end_time| of a batch_task row, in
// seconds (2^53: every time converts to float64 exactly, and a duration
// fits int64 with room to spare).
const MaxTraceTime = 1 << 53

// MaxPlanAmount bounds plan_cpu/100 (cores) and plan_mem, as the Workload
// quantities are bounded: a milli-unit still fits an int64.
const MaxPlanAmount = math.MaxInt64 / 1000

// utf8BOM is the byte-order mark some tools put before a CSV header.
const utf8BOM = "\ufeff"

// AlibabaRow is one batch_task row of an accepted job: one stage of
// Instances identical tasks.
type AlibabaRow struct {
	// Line is the row's line in the file.
	Line int
	// Name is task_name (M1, R2_1, J5_3_4), ID the first number in it.
	Name string
	ID   int
	// Parents are the indices in the job's Rows of the row's parents (the
	// further `_`-separated numbers of the name), in name order.
	Parents []int
	// Instances is instance_num, at least 1.
	Instances int
	// Start and End are start_time and end_time (trace seconds, End ≥
	// Start); Status is the status column.
	Start, End int64
	Status     string
	// CPU is plan_cpu/100 (cores), Mem plan_mem (normalised, 100 = one
	// machine).
	CPU, Mem float64
}

// AlibabaRowJob is one accepted job of a batch_task file, kept at the
// row level: the stage DAG its task names encode has been checked (ids
// unique, parents known, no cycle, within the task, edge and time
// limits), and DAG expands it into tasks.
type AlibabaRowJob struct {
	Name string
	// Rows are the job's rows in file order.
	Rows []AlibabaRow
	// Tasks is Σ Instances; Edges the task edges the barriers expand to,
	// Σ over parent links of Instances(parent)·Instances(child).
	Tasks, Edges int
}

// AlibabaRows is the result of ReadAlibabaRows.
type AlibabaRows struct {
	Jobs     []AlibabaRowJob // in order of first appearance
	Rejected []Rejection     // jobs in order of first appearance, lines where met
}

// abJob collects one job's rows while the file is read.
type abJob struct {
	name string
	rows []AlibabaRow
	// bad is the job's first problem, by line; its rows are dropped then.
	bad *Rejection
}

// ReadAlibabaRows reads Alibaba cluster-trace-v2018 batch_task rows (CSV,
// columns task_name, instance_num, job_name, task_type, status,
// start_time, end_time, plan_cpu, plan_mem; a leading header row, with or
// without a UTF-8 byte-order mark, is skipped) and groups them by job,
// streaming: memory is O(rows), never O(tasks) or O(edges). The DAG of a
// job is encoded in its task names: after the leading letters, the first
// number is the task's id and every further `_`-separated number a parent
// id. Each job is accepted or rejected as a whole, with the line and the
// reason of its first problem: odd names (task_…, trailing `_`), missing
// or non-numeric fields, times outside ±MaxTraceTime or end before start,
// plan_cpu or plan_mem outside [0, MaxPlanAmount], repeated ids, more than
// opts.MaxTasks tasks, unknown parents, cycles, more than opts.MaxEdges
// task edges, and task durations summing to more than MaxJobTicks. A line
// that is not valid CSV or has no job_name is rejected on its own. Only
// read errors are returned as errors. Cost O(rows + links) time.
func ReadAlibabaRows(name string, r io.Reader, opts AlibabaOptions) (*AlibabaRows, error) {
	opts = opts.withDefaults()
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	out := &AlibabaRows{}
	var jobs []*abJob
	at := map[string]*abJob{}
	status := map[string]string{} // interned status strings
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var perr *csv.ParseError
		if errors.As(err, &perr) {
			out.Rejected = append(out.Rejected, Rejection{Line: perr.Line, Reason: perr.Err.Error()})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dag: %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0) // a record read without error has a field
		if first {
			rec[0] = strings.TrimPrefix(rec[0], utf8BOM)
			if rec[0] == "task_name" {
				continue
			}
		}
		if len(rec) <= colJob || rec[colJob] == "" {
			out.Rejected = append(out.Rejected, Rejection{Line: line, Reason: "row has no job_name"})
			continue
		}
		j := at[rec[colJob]]
		if j == nil {
			j = &abJob{name: strings.Clone(rec[colJob])}
			at[j.name] = j
			jobs = append(jobs, j)
		}
		if j.bad != nil {
			continue
		}
		row, why := parseAlibabaRow(rec, line, status)
		if why != "" {
			// An earlier repeated id is the first problem; else this row.
			if dup := duplicateID(j.name, j.rows); dup != nil {
				j.bad = dup
			} else {
				j.bad = &Rejection{Job: j.name, Line: line, Reason: why}
			}
			j.rows = nil
			continue
		}
		j.rows = append(j.rows, row)
	}
	for _, j := range jobs {
		if j.bad == nil {
			j.bad = checkAlibabaJob(j.name, j.rows, opts)
		}
		if j.bad != nil {
			out.Rejected = append(out.Rejected, *j.bad)
			continue
		}
		rj := AlibabaRowJob{Name: j.name, Rows: j.rows}
		for _, r := range j.rows {
			rj.Tasks += r.Instances
			for _, p := range r.Parents {
				rj.Edges += j.rows[p].Instances * r.Instances
			}
		}
		out.Jobs = append(out.Jobs, rj)
	}
	return out, nil
}

// parseAlibabaRow parses the fields of one row, or says what is wrong. The
// parent ids are kept in Parents until checkAlibabaJob resolves them.
func parseAlibabaRow(rec []string, line int, status map[string]string) (AlibabaRow, string) {
	r := AlibabaRow{Line: line}
	if len(rec) != batchTaskCols {
		return r, fmt.Sprintf("row has %d fields, want %d", len(rec), batchTaskCols)
	}
	r.Name = strings.Clone(rec[colTaskName])
	if s, ok := status[rec[colStatus]]; ok {
		r.Status = s
	} else if len(status) < 64 {
		r.Status = strings.Clone(rec[colStatus])
		status[r.Status] = r.Status
	} else {
		r.Status = strings.Clone(rec[colStatus])
	}
	digits := strings.TrimLeftFunc(r.Name, func(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' })
	for k, p := range strings.Split(digits, "_") {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || p == "" || p[0] == '+' || p[0] == '-' {
			return r, fmt.Sprintf("task name %q is not a dag.DAG task name (letters, id, _parent ids)", r.Name)
		}
		if k == 0 {
			r.ID = v
		} else {
			r.Parents = append(r.Parents, v)
		}
	}
	var why string
	field := func(col int, what string) float64 {
		if why != "" {
			return 0
		}
		v, err := strconv.ParseFloat(rec[col], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			why = fmt.Sprintf("task %s: %s %q is not a number", r.Name, what, rec[col])
		}
		return v
	}
	n := field(colInstances, "instance_num")
	start, end := field(colStart, "start_time"), field(colEnd, "end_time")
	cpu, mem := field(colCPU, "plan_cpu"), field(colMem, "plan_mem")
	r.CPU, r.Mem = cpu/100, mem
	switch {
	case why != "":
		return r, why
	case n < 1 || n != math.Trunc(n):
		return r, fmt.Sprintf("task %s: instance_num %v is not a positive whole number", r.Name, n)
	case start != math.Trunc(start) || end != math.Trunc(end):
		return r, fmt.Sprintf("task %s: times %v, %v are not whole seconds", r.Name, start, end)
	case math.Abs(start) > MaxTraceTime || math.Abs(end) > MaxTraceTime:
		return r, fmt.Sprintf("task %s: times %v, %v are outside ±%d seconds", r.Name, start, end, int64(MaxTraceTime))
	case end < start:
		return r, fmt.Sprintf("task %s: end_time %v before start_time %v", r.Name, end, start)
	case r.CPU < 0 || r.Mem < 0:
		return r, fmt.Sprintf("task %s: negative plan_cpu or plan_mem", r.Name)
	case r.CPU > MaxPlanAmount || r.Mem > MaxPlanAmount:
		return r, fmt.Sprintf("task %s: plan_cpu %v or plan_mem %v is larger than %d units", r.Name, cpu, mem, int64(MaxPlanAmount))
	}
	// Beyond MaxInt32 instances a job exceeds every task limit anyway.
	r.Instances, r.Start, r.End = int(min(n, math.MaxInt32)), int64(start), int64(end)
	return r, ""
}

// duplicateID returns the rejection for the first row (in file order)
// whose id an earlier row of the job already uses, or nil.
func duplicateID(job string, rows []AlibabaRow) *Rejection {
	byID := make(map[int]int, len(rows))
	for k, r := range rows {
		if k2, dup := byID[r.ID]; dup {
			return &Rejection{Job: job, Line: r.Line, Reason: fmt.Sprintf("task id %d used by %s and %s", r.ID, rows[k2].Name, r.Name)}
		}
		byID[r.ID] = k
	}
	return nil
}

// checkAlibabaJob checks the stage DAG of a job whose rows all parsed,
// in this order: repeated ids, the task limit, unknown parents, cycles,
// the edge limit and the sum of task durations. It resolves every row's
// parent ids into row indices, and returns the first problem or nil.
func checkAlibabaJob(job string, rows []AlibabaRow, opts AlibabaOptions) *Rejection {
	reject := func(line int, format string, a ...any) *Rejection {
		return &Rejection{Job: job, Line: line, Reason: fmt.Sprintf(format, a...)}
	}
	if dup := duplicateID(job, rows); dup != nil {
		return dup
	}
	tasks := 0
	var ticks tickSum
	for _, r := range rows {
		tasks += r.Instances // ≤ rows·MaxInt32: no overflow
		ticks.add(r.End-r.Start, int64(r.Instances))
	}
	if tasks > opts.MaxTasks {
		return reject(rows[0].Line, "%d instances exceed the limit of %d tasks", tasks, opts.MaxTasks)
	}
	byID := make(map[int]int, len(rows))
	for k, r := range rows {
		byID[r.ID] = k
	}
	// Stage-level check, named by task_name: unknown parents and cycles,
	// and the number of task edges (saturating at math.MaxInt).
	sb := dag.NewBuilder(job, nil, 1)
	for _, r := range rows {
		sb.AddTask(r.Name, -1, 0, nil)
	}
	edges := 0
	for k := range rows {
		r := &rows[k]
		for i, id := range r.Parents {
			pk, ok := byID[id]
			if !ok {
				return reject(r.Line, "task %s depends on task %d, which the job does not have", r.Name, id)
			}
			r.Parents[i] = pk
			sb.AddEdge(pk, k)
			e := rows[pk].Instances * r.Instances // ≤ 2^62
			edges = min(edges, math.MaxInt-e) + e // saturating

		}
	}
	if _, err := sb.Build(); err != nil {
		var ce *dag.CycleError
		if errors.As(err, &ce) {
			return reject(rows[0].Line, "cycle: %s", strings.Join(ce.Cycle, " -> "))
		}
		return reject(rows[0].Line, "%v", err)
	}
	if edges > opts.MaxEdges {
		return reject(rows[0].Line, "%d task edges exceed the limit of %d", edges, opts.MaxEdges)
	}
	if err := ticks.check(); err != "" {
		return reject(rows[0].Line, "%s", err)
	}
	return nil
}

// DAG expands the job into a task-level dag.DAG: one stage per row, named
// by task_name, with Instances tasks name[0] … name[n-1]; resources "cpu"
// (cores) and "mem" (normalised, 100 = one machine); Unit 1 s; durations
// End − Start. Every edge is a barrier: an instance waits for all
// instances of its parent rows. Cost O(Tasks + Edges·log).
func (j *AlibabaRowJob) DAG() (*dag.DAG, error) {
	b := dag.NewBuilder(j.Name, []string{"cpu", "mem"}, 1)
	for _, r := range j.Rows {
		s := b.Stage(r.Name)
		demand := []float64{r.CPU, r.Mem}
		for i := 0; i < r.Instances; i++ {
			b.AddTask(r.Name+"["+strconv.Itoa(i)+"]", s, r.End-r.Start, demand)
		}
	}
	for k, r := range j.Rows {
		for _, p := range r.Parents {
			b.Connect(p, k, dag.Barrier)
		}
	}
	return b.Build()
}

// ObservedSpan returns the job's observed run time, max End − min Start.
func (j *AlibabaRowJob) ObservedSpan() int64 {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, r := range j.Rows {
		lo, hi = min(lo, r.Start), max(hi, r.End)
	}
	return hi - lo
}
