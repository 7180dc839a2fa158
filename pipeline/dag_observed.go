package pipeline

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// dagObserved is a schedule to check, read from a DAGSchedule JSON
// document (this tool's or hand-written) or a CSV file.
type dagObserved struct {
	path string
	// machines and pooled come from a DAGSchedule document (nil else).
	machines []plan.DAGMachineGroup
	pooled   bool
	jobs     []dagObservedJob
}

// dagObservedJob is one job's tasks; name is "" when the file names no job.
type dagObservedJob struct {
	name  string
	where string
	tasks []dagObservedTask
}

// dagObservedTask is one task's interval and machine: an index (−1 for
// none), or a machine name to resolve.
type dagObservedTask struct {
	id          string
	start, end  float64
	machine     int
	machineName string
	where       string
}

// readDAGObserved reads a schedule file: JSON by extension .json or a
// leading '{', else CSV.
func readDAGObserved(path string, data []byte) (*dagObserved, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".json" || ext != ".csv" && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		return readDAGObservedJSON(path, data)
	}
	return readDAGObservedCSV(path, data)
}

type dagObsTaskJSON struct {
	ID      json.RawMessage `json:"id"`
	Start   *float64        `json:"start"`
	End     *float64        `json:"end"`
	Machine json.RawMessage `json:"machine"`
}

type dagObsJobJSON struct {
	Name  string           `json:"name"`
	Tasks []dagObsTaskJSON `json:"tasks"`
}

type dagObsFileJSON struct {
	Kind     string                 `json:"kind"`
	Pooled   bool                   `json:"pooled"`
	Machines []plan.DAGMachineGroup `json:"machines"`
	Jobs     []dagObsJobJSON        `json:"jobs"`
	Tasks    []dagObsTaskJSON       `json:"tasks"`
}

func readDAGObservedJSON(path string, data []byte) (*dagObserved, error) {
	var f dagObsFileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			l, c := inputerr.LineCol(data, se.Offset)
			return nil, fmt.Errorf("%s:%d:%d: invalid JSON: %v", path, l, c, se)
		case errors.As(err, &te):
			l, c := inputerr.LineCol(data, te.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %s: want %s, got %s", path, l, c, te.Field, te.Type, te.Value)
		}
		return nil, fmt.Errorf("%s: invalid JSON: %w", path, err)
	}
	if f.Kind != "" && f.Kind != plan.KindDAGSchedule {
		return nil, fmt.Errorf("%s: kind %q: want a %s document (or a CSV schedule)", path, f.Kind, plan.KindDAGSchedule)
	}
	ob := &dagObserved{path: path, machines: f.Machines, pooled: f.Pooled}
	if err := checkDAGMachineGroups(path, f.Machines); err != nil {
		return nil, err
	}
	switch {
	case len(f.Jobs) > 0 && len(f.Tasks) > 0:
		return nil, fmt.Errorf("%s: give either jobs or tasks, not both", path)
	case len(f.Jobs) == 0 && len(f.Tasks) == 0:
		return nil, fmt.Errorf("%s: no jobs and no tasks: want {\"jobs\": [{\"name\": …, \"tasks\": [{\"id\", \"start\", \"end\", \"machine\"}]}]}", path)
	case len(f.Tasks) > 0:
		f.Jobs = []dagObsJobJSON{{Tasks: f.Tasks}}
	}
	for k, jj := range f.Jobs {
		where := fmt.Sprintf("jobs[%d]", k)
		if len(f.Tasks) > 0 {
			where = ""
		}
		job := dagObservedJob{name: jj.Name, where: where}
		for i, tj := range jj.Tasks {
			tw := fmt.Sprintf("%s.tasks[%d]", where, i)
			tw = strings.TrimPrefix(tw, ".")
			t, err := dagObsTaskFromJSON(tj, tw)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			job.tasks = append(job.tasks, t)
		}
		ob.jobs = append(ob.jobs, job)
	}
	return ob, nil
}

// checkDAGMachineGroups rejects a document's machine list that does not
// describe machines 0 … n−1 in order.
func checkDAGMachineGroups(path string, groups []plan.DAGMachineGroup) error {
	next := 0
	for i, g := range groups {
		switch {
		case g.Count < 1 || g.First != next:
			return fmt.Errorf("%s: machines[%d]: want count ≥ 1 and first = %d, got count %d, first %d", path, i, next, g.Count, g.First)
		case g.Names != nil && len(g.Names) != g.Count:
			return fmt.Errorf("%s: machines[%d]: %d names for %d machines", path, i, len(g.Names), g.Count)
		}
		for r, c := range g.Capacity {
			if c < 0 || math.IsNaN(c) || math.IsInf(c, 0) {
				return fmt.Errorf("%s: machines[%d].capacity.%s: want a number ≥ 0, got %v", path, i, r, c)
			}
		}
		next += g.Count
	}
	return nil
}

func dagObsTaskFromJSON(tj dagObsTaskJSON, where string) (dagObservedTask, error) {
	t := dagObservedTask{where: where, machine: -1}
	raw := bytes.TrimSpace(tj.ID)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return t, fmt.Errorf("%s.id: missing", where)
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &t.id); err != nil {
			return t, fmt.Errorf("%s.id: %v", where, err)
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		t.id = string(raw)
	default:
		return t, fmt.Errorf("%s.id: want a string or a number, got %s", where, raw)
	}
	if tj.Start == nil {
		return t, fmt.Errorf("%s.start: missing", where)
	}
	if tj.End == nil {
		return t, fmt.Errorf("%s.end: missing", where)
	}
	t.start, t.end = *tj.Start, *tj.End
	m := bytes.TrimSpace(tj.Machine)
	switch {
	case len(m) == 0 || string(m) == "null":
	case m[0] == '"':
		var name string
		if err := json.Unmarshal(m, &name); err != nil {
			return t, fmt.Errorf("%s.machine: %v", where, err)
		}
		t.setMachine(name)
	default:
		n, err := strconv.Atoi(string(m))
		if err != nil {
			return t, fmt.Errorf("%s.machine: want a machine index or name, got %s", where, m)
		}
		t.machine = n
	}
	return t, nil
}

// setMachine takes a machine index written as text, or a name.
func (t *dagObservedTask) setMachine(s string) {
	s = strings.TrimSpace(s)
	switch n, err := strconv.Atoi(s); {
	case s == "":
		t.machine = -1
	case err == nil:
		t.machine = n
	default:
		t.machineName = s
	}
}

// dagObsColumns are the columns of a CSV schedule; job is optional.
var dagObsColumns = []string{"job", "task", "start", "end", "machine"}

func readDAGObservedCSV(path string, data []byte) (*dagObserved, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file: want a CSV header %s", path, strings.Join(dagObsColumns, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	dup := ""
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, seen := col[h]; seen && dup == "" {
			dup = h
		}
		col[h] = i
	}
	for _, c := range dagObsColumns[1:] {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:1: no %q column: want the header %s (job optional for one DAG)", path, c, strings.Join(dagObsColumns, ","))
		}
	}
	if dup != "" {
		return nil, fmt.Errorf("%s:1: column %q appears twice", path, dup)
	}
	jc, hasJob := col["job"]
	ob := &dagObserved{path: path}
	byName := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		where := fmt.Sprintf("line %d", line)
		if len(rec) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", path, line, len(rec), len(header))
		}
		num := func(name string) (float64, error) {
			s := strings.TrimSpace(rec[col[name]])
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("%s:%d: %s %q is not a number", path, line, name, s)
			}
			return x, nil
		}
		t := dagObservedTask{id: strings.TrimSpace(rec[col["task"]]), where: where, machine: -1}
		if t.id == "" {
			return nil, fmt.Errorf("%s:%d: empty task", path, line)
		}
		if t.start, err = num("start"); err != nil {
			return nil, err
		}
		if t.end, err = num("end"); err != nil {
			return nil, err
		}
		t.setMachine(rec[col["machine"]])
		name := ""
		if hasJob {
			name = strings.TrimSpace(rec[jc])
		}
		k, ok := byName[name]
		if !ok {
			k = len(ob.jobs)
			byName[name] = k
			ob.jobs = append(ob.jobs, dagObservedJob{name: name, where: where})
		}
		ob.jobs[k].tasks = append(ob.jobs[k].tasks, t)
	}
	if len(ob.jobs) == 0 {
		return nil, fmt.Errorf("%s: no tasks", path)
	}
	return ob, nil
}

// dagTickUnits are the tick lengths a checked schedule may need, coarsest
// first (those of dags.WorkloadOptions).
var dagTickUnits = []float64{1, 0.1, 0.01, 0.001}

// dagTickTol is the relative tolerance under which a time counts as a whole
// number of ticks (float rounding of seconds written as decimals).
const dagTickTol = 1e-9

func dagWholeTicks(t, unit float64) (int64, bool) {
	x := t / unit
	r := math.Round(x)
	if math.Abs(x-r) > dagTickTol*math.Max(1, math.Abs(x)) || math.Abs(r) > 1<<53 {
		return 0, false
	}
	return int64(r), true
}

// dagObservedUnit picks the coarsest tick, no coarser than the DAG's, in
// which every time of the job is whole, and the factor by which the DAG's
// durations must be refined. It returns an error naming the first time
// that no tick represents.
func dagObservedUnit(path string, d *dag.DAG, job dagObservedJob) (float64, int64, error) {
	var units []float64
	for _, u := range dagTickUnits {
		if f, ok := dagWholeTicks(d.Unit, u); ok && f >= 1 {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		units = []float64{d.Unit}
	}
	for _, u := range units {
		ok := true
		for _, t := range job.tasks {
			_, ok1 := dagWholeTicks(t.start, u)
			_, ok2 := dagWholeTicks(t.end, u)
			if !ok1 || !ok2 {
				ok = false
				break
			}
		}
		if ok {
			f, _ := dagWholeTicks(d.Unit, u)
			return u, f, nil
		}
	}
	u := units[len(units)-1]
	for _, t := range job.tasks {
		for _, x := range []float64{t.start, t.end} {
			if _, ok := dagWholeTicks(x, u); !ok {
				return 0, 0, fmt.Errorf("%s: %s: time %v is not a whole number of ticks of %v (seconds, or PSPLIB periods)", path, t.where, x, u)
			}
		}
	}
	return d.Unit, 1, nil
}

// refineDAG returns d with every duration multiplied by factor and the
// tick divided by it: the same DAG on a finer clock.
func refineDAG(d *dag.DAG, unit float64, factor int64) (*dag.DAG, error) {
	if factor == 1 {
		return d, nil
	}
	b := dag.NewBuilder(d.Name, d.Resources, unit)
	for _, s := range d.Stages {
		b.Stage(s.Name)
	}
	for i := range d.Tasks {
		t := &d.Tasks[i]
		b.AddTask(t.ID, t.Stage, t.Duration*factor, t.Demand)
	}
	for v := range d.Tasks {
		for _, p := range d.Preds(v) {
			b.AddEdge(p, v)
		}
	}
	return b.Build()
}
