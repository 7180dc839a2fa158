package datasets

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/internal/inputerr"
)

// Workload is a set of jobs, each a DAG of stages or of tasks.
type Workload struct {
	// Source is the file name the workload was loaded from.
	Source string
	// Jobs are in file order.
	Jobs []Job
}

// Job is one DAG: exactly one of Stages and Tasks is set.
type Job struct {
	// Name is unique within the workload.
	Name string
	// Arrival is the submission time in seconds (≥ 0).
	Arrival float64
	// Group is the fairness group or queue; "" when not given.
	Group string
	// Stages describe the DAG stage by stage, in file order.
	Stages []Stage
	// Tasks describe the DAG task by task, in file order.
	Tasks []Task
}

// Stage is Tasks identical tasks.
type Stage struct {
	// Name is unique within its job.
	Name string
	// Tasks is the number of tasks (> 0).
	Tasks int
	// Duration of each task, in seconds (> 0).
	Duration float64
	// Demand of each task, per resource (≥ 0).
	Demand map[string]resource.Quantity
	// After names the stages this one depends on, without repeats.
	After []string
	// Edge says how the tasks depend on those of the After stages.
	Edge Edge
}

// Edge is the dependency pattern between a stage and its parent stages.
type Edge int

const (
	// Barrier: every task waits for every task of each parent (all-to-all).
	Barrier Edge = iota
	// OneToOne: task i waits for task i of each parent; the task counts
	// must be equal.
	OneToOne
)

// String returns the input spelling of the edge.
func (e Edge) String() string {
	if e == OneToOne {
		return "one-to-one"
	}
	return "barrier"
}

// Task is one task of a task-level job.
type Task struct {
	// ID is unique within its job (numbers in the input become their
	// decimal text).
	ID string
	// Duration in seconds (> 0).
	Duration float64
	// Demand per resource (≥ 0).
	Demand map[string]resource.Quantity
	// After lists the IDs of the tasks this one depends on, without
	// repeats.
	After []string
}

// MaxStageTasks bounds the tasks of one stage.
const MaxStageTasks = 10_000_000

var (
	workloadFields = []string{"apiVersion", "kind", "jobs"}
	jobFields      = []string{"name", "arrival", "group", "stages", "tasks"}
	stageFields    = []string{"name", "tasks", "duration", "demand", "after", "edge"}
	taskFields     = []string{"id", "duration", "demand", "after"}
)

// LoadWorkload reads a capplan/v1 Workload (YAML or JSON). Input mistakes,
// including dependency cycles, give an *inputerr.Error listing all of
// them.
func LoadWorkload(path string) (*Workload, error) {
	data, err := ReadFile(path, 0)
	if err != nil {
		return nil, err
	}
	return ParseWorkload(path, data)
}

// ParseWorkload is LoadWorkload on data already read; name is used in
// messages and as Workload.Source.
func ParseWorkload(name string, data []byte) (*Workload, error) {
	ps := &inputerr.List{File: name}
	root, ok := decodeTree(ps, data)
	if !ok {
		return nil, ps.Err()
	}
	var w *Workload
	if readKind(ps, root, KindWorkload) == KindWorkload {
		w = workloadFromTree(ps, root)
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	w.Source = name
	return w, nil
}

func workloadFromTree(ps *inputerr.List, root any) *Workload {
	o, ok := asObject(ps, "", root, workloadFields)
	if !ok {
		return nil
	}
	w := &Workload{}
	list, ok := o.list("jobs", true)
	if ok && len(list) == 0 {
		ps.Add("jobs", "the workload has no jobs")
	}
	firstAt := map[string]int{}
	for i, v := range list {
		path := indexPath("jobs", i)
		j, ok := readJob(ps, path, v)
		if j.Name != "" {
			if k, dup := firstAt[j.Name]; dup {
				ps.Add(path+".name", "duplicate job name %q (first used by jobs[%d])", j.Name, k)
				ok = false
			} else {
				firstAt[j.Name] = i
			}
		}
		if ok {
			w.Jobs = append(w.Jobs, j)
		}
	}
	return w
}

func readJob(ps *inputerr.List, path string, v any) (Job, bool) {
	o, ok := asObject(ps, path, v, jobFields)
	if !ok {
		return Job{}, false
	}
	before := ps.Len()
	var j Job
	j.Name, _ = o.name("name")
	j.Arrival, _ = o.seconds("arrival", false, true)
	j.Group, _ = o.str("group", false)
	switch {
	case o.has("stages") && o.has("tasks"):
		ps.Add(path, "give stages or tasks, not both")
	case o.has("stages"):
		j.Stages = readStages(o)
	case o.has("tasks"):
		j.Tasks = readTasks(o)
	default:
		ps.Add(path, "give the job's stages (or its tasks)")
	}
	return j, ps.Len() == before
}

func readStages(job object) []Stage {
	list, ok := job.list("stages", true)
	if !ok {
		return nil
	}
	if len(list) == 0 {
		job.ps.Add(job.at("stages"), "the job has no stages")
	}
	stages := make([]Stage, len(list))
	names := make([]string, len(list))
	after := make([][]string, len(list))
	for i, v := range list {
		o, ok := asObject(job.ps, indexPath(job.at("stages"), i), v, stageFields)
		if !ok {
			continue
		}
		s := &stages[i]
		s.Name, _ = o.name("name")
		tasks, _ := o.integer("tasks", true, 1, MaxStageTasks)
		s.Tasks = int(tasks)
		s.Duration, _ = o.seconds("duration", true, false)
		s.Demand = readDemand(o)
		s.After = readRefs(o)
		if e, ok := o.str("edge", false); ok {
			switch e {
			case "barrier":
			case "one-to-one":
				s.Edge = OneToOne
			default:
				job.ps.Add(o.at("edge"), "got %q, want barrier or one-to-one", clip(e))
			}
		}
		names[i], after[i] = s.Name, s.After
	}
	preds := checkDAG(job.ps, dagSpec{what: "stage", base: job.at("stages"), key: "name"}, names, after)
	for i, pred := range preds {
		for _, p := range pred {
			if stages[i].Edge == OneToOne && stages[p].Tasks != stages[i].Tasks && stages[p].Tasks > 0 && stages[i].Tasks > 0 {
				job.ps.Add(indexPath(job.at("stages"), i)+".edge", "one-to-one needs equal task counts: %s has %d tasks, %s has %d",
					stages[p].Name, stages[p].Tasks, stages[i].Name, stages[i].Tasks)
			}
		}
	}
	return stages
}

func readTasks(job object) []Task {
	list, ok := job.list("tasks", true)
	if !ok {
		return nil
	}
	if len(list) == 0 {
		job.ps.Add(job.at("tasks"), "the job has no tasks")
	}
	tasks := make([]Task, len(list))
	ids := make([]string, len(list))
	after := make([][]string, len(list))
	for i, v := range list {
		o, ok := asObject(job.ps, indexPath(job.at("tasks"), i), v, taskFields)
		if !ok {
			continue
		}
		t := &tasks[i]
		if v, ok := o.get("id"); !ok {
			o.missing("id")
		} else if id, ok := refText(v); ok {
			t.ID = id
		} else {
			job.ps.Add(o.at("id"), "must be a non-empty string or a whole number, got %s", describe(v))
		}
		t.Duration, _ = o.seconds("duration", true, false)
		t.Demand = readDemand(o)
		t.After = readRefs(o)
		ids[i], after[i] = t.ID, t.After
	}
	checkDAG(job.ps, dagSpec{what: "task", base: job.at("tasks"), key: "id"}, ids, after)
	return tasks
}

// readDemand reads the required per-task demand (quantities ≥ 0).
func readDemand(o object) map[string]resource.Quantity {
	m, ok := o.mapping("demand", true)
	if !ok {
		return nil
	}
	if len(m) == 0 {
		o.ps.Add(o.at("demand"), "is empty: give the amount of at least one resource")
	}
	return quantityMap(o.ps, o.at("demand"), m, nonNegative)
}

// readRefs reads an after list of stage names or task IDs, dropping
// repeats.
func readRefs(o object) []string {
	list, ok := o.list("after", false)
	if !ok {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i, v := range list {
		s, ok := refText(v)
		if !ok {
			o.ps.Add(indexPath(o.at("after"), i), "must be a name or a whole number, got %s", describe(v))
			continue
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// refText returns a non-empty string, or a whole number as its decimal text.
func refText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, v != ""
	case json.Number:
		if r, ok := parseRat(v); ok && r.IsInt() {
			return r.Num().String(), true
		}
	}
	return "", false
}
