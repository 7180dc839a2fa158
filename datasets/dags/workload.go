package dags

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/capplan/capplan/dag"

	"github.com/capplan/capplan/datasets"
	"k8s.io/apimachinery/pkg/api/resource"
)

// unitTol is the relative tolerance under which a duration in seconds
// counts as a whole number of ticks.
const unitTol = 1e-9

// tickUnits are the tick lengths FromJob tries, coarsest first.
var tickUnits = []float64{1, 0.1, 0.01, 0.001}

// WorkloadOptions tune FromJob.
type WorkloadOptions struct {
	// Unit is the tick length in seconds; 0 picks the coarsest of 1 s,
	// 0.1 s, 0.01 s and 1 ms that represents every duration exactly,
	// else 1 ms with durations rounded up.
	Unit float64
	// MaxEdges bounds the task edges (0: DefaultMaxEdges).
	MaxEdges int
}

// FromJob expands one datasets.Job into a task-level dag.DAG. A stage s of n
// tasks gives tasks s[0] … s[n-1] in a stage named s; a barrier edge
// makes every child task wait for every parent task, and a one-to-one
// edge makes s[i] wait for p[i]. A task-level job gives one single-task
// stage per task, named by the task ID. Demands are in base units (cores,
// bytes), in the order of resources; nil resources means the sorted union
// of the resources the job names. It returns dag.ErrTooLarge (wrapped) when
// the expansion exceeds opts.MaxEdges edges, and a *dag.InputError when
// the durations sum to more than MaxJobTicks ticks.
func FromJob(j *datasets.Job, resources []string, opts WorkloadOptions) (*dag.DAG, error) {
	if resources == nil {
		resources = jobResources(j)
	}
	unit := opts.Unit
	if unit == 0 {
		unit = pickUnit(j)
	}
	maxEdges := opts.MaxEdges
	if maxEdges == 0 {
		maxEdges = DefaultMaxEdges
	}
	rindex := map[string]int{}
	for k, r := range resources {
		rindex[r] = k
	}
	var problems []string
	demand := func(where string, m map[string]resource.Quantity) []float64 {
		v := make([]float64, len(resources))
		for _, name := range sortedKeys(m) {
			k, ok := rindex[name]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: resource %q is not among %v", where, name, resources))
				continue
			}
			v[k] = datasets.Base(m[name])
		}
		return v
	}
	b := dag.NewBuilder(j.Name, resources, unit)
	edges := 0
	if len(j.Stages) > 0 {
		idx := map[string]int{}
		for _, s := range j.Stages {
			if s.Tasks > datasets.MaxStageTasks {
				return nil, fmt.Errorf("dag: %s: stage %s has %d tasks: %w", j.Name, s.Name, s.Tasks, dag.ErrTooLarge)
			}
			idx[s.Name] = b.Stage(s.Name)
		}
		for _, s := range j.Stages {
			dem := demand("stage "+s.Name, s.Demand)
			dur := ticks(s.Duration, unit)
			for i := 0; i < s.Tasks; i++ {
				b.AddTask(s.Name+"["+strconv.Itoa(i)+"]", idx[s.Name], dur, dem)
			}
		}
		for _, s := range j.Stages {
			for _, p := range s.After {
				pi, ok := idx[p]
				if !ok {
					problems = append(problems, fmt.Sprintf("stage %s: unknown parent stage %q", s.Name, p))
					continue
				}
				if s.Edge == datasets.OneToOne {
					edges += s.Tasks
				} else {
					edges += s.Tasks * b.StageTasks(pi)
				}
				if edges > maxEdges {
					return nil, fmt.Errorf("dag: %s: more than %d task edges: %w", j.Name, maxEdges, dag.ErrTooLarge)
				}
				kind := dag.Barrier
				if s.Edge == datasets.OneToOne {
					kind = dag.OneToOne
				}
				b.Connect(pi, idx[s.Name], kind)
			}
		}
	} else {
		idx := map[string]int{}
		for _, t := range j.Tasks {
			idx[t.ID] = b.AddTask(t.ID, -1, ticks(t.Duration, unit), demand("task "+t.ID, t.Demand))
		}
		for _, t := range j.Tasks {
			for _, p := range t.After {
				pi, ok := idx[p]
				if !ok {
					problems = append(problems, fmt.Sprintf("task %s: unknown parent task %q", t.ID, p))
					continue
				}
				b.AddEdge(pi, idx[t.ID])
			}
		}
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: j.Name, Problems: problems}
	}
	d, err := b.Build()
	if err != nil {
		return nil, err
	}
	if err := CheckTicks(d); err != nil {
		return nil, err
	}
	return d, nil
}

// FromWorkload expands every job of w (see FromJob), in file order.
func FromWorkload(w *datasets.Workload, resources []string, opts WorkloadOptions) ([]*dag.DAG, error) {
	out := make([]*dag.DAG, 0, len(w.Jobs))
	for i := range w.Jobs {
		d, err := FromJob(&w.Jobs[i], resources, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w.Source, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// Machines expands a cluster into one capacity vector per node, in base
// units and in the order of resources. A resource the cluster does not
// declare is an *dag.InputError.
func Machines(c *datasets.Cluster, resources []string) ([][]float64, error) {
	at := map[string]int{}
	for k, r := range c.Resources {
		at[r] = k
	}
	var problems []string
	for _, r := range resources {
		if _, ok := at[r]; !ok {
			problems = append(problems, fmt.Sprintf("resource %q is not declared by the cluster (%v)", r, c.Resources))
		}
	}
	if len(problems) > 0 {
		return nil, &dag.InputError{Source: c.Source, Problems: problems}
	}
	var out [][]float64
	for _, g := range c.Groups {
		base := g.Capacity.Base()
		v := make([]float64, len(resources))
		for k, r := range resources {
			if i := at[r]; i < len(base) {
				v[k] = base[i]
			}
		}
		for n := 0; n < g.Count; n++ {
			out = append(out, v)
		}
	}
	return out, nil
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// jobResources returns the sorted resource names a job's demands use.
func jobResources(j *datasets.Job) []string {
	set := map[string]bool{}
	for _, s := range j.Stages {
		for r := range s.Demand {
			set[r] = true
		}
	}
	for _, t := range j.Tasks {
		for r := range t.Demand {
			set[r] = true
		}
	}
	out := make([]string, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// pickUnit returns the coarsest tick in tickUnits that holds every
// duration of the job exactly, else the finest.
func pickUnit(j *datasets.Job) float64 {
	var durs []float64
	for _, s := range j.Stages {
		durs = append(durs, s.Duration)
	}
	for _, t := range j.Tasks {
		durs = append(durs, t.Duration)
	}
	for _, u := range tickUnits {
		ok := true
		for _, d := range durs {
			x := d / u
			if math.Abs(x-math.Round(x)) > unitTol*math.Max(1, x) {
				ok = false
				break
			}
		}
		if ok {
			return u
		}
	}
	return tickUnits[len(tickUnits)-1]
}

// ticks converts seconds to ticks, rounding up all but a unitTol sliver.
func ticks(sec, unit float64) int64 {
	x := sec / unit
	r := math.Round(x)
	if math.Abs(x-r) <= unitTol*math.Max(1, x) {
		return int64(r)
	}
	return int64(math.Ceil(x))
}
