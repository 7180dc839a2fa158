package dag

import (
	"fmt"
	"math"
	"slices"

	"github.com/capplan/capplan/internal/topo"
)

// Builder assembles a DAG. Misuse (an out-of-range index, a demand vector
// of the wrong length) panics; input mistakes (duplicate IDs, negative
// durations or demands, cycles) are collected and returned by Build.
type Builder struct {
	name      string
	resources []string
	unit      float64
	tasks     []Task
	stages    []Stage
	stageIdx  map[string]int
	from, to  []int  // explicit task edges
	conns     []conn // stage-level edges, expanded at Build
	problems  []string
}

// conn is a stage-level edge recorded by Connect.
type conn struct {
	from, to int
	kind     EdgeKind
}

// NewBuilder starts a DAG with the given resource dimensions and tick
// length in seconds (unit > 0).
func NewBuilder(name string, resources []string, unit float64) *Builder {
	if !(unit > 0) {
		panic(fmt.Sprintf("dag: tick unit %v is not positive", unit))
	}
	return &Builder{name: name, resources: slices.Clone(resources), unit: unit, stageIdx: map[string]int{}}
}

// Stage returns the index of the stage with this name, creating it.
func (b *Builder) Stage(name string) int {
	if s, ok := b.stageIdx[name]; ok {
		return s
	}
	b.stages = append(b.stages, Stage{Name: name})
	b.stageIdx[name] = len(b.stages) - 1
	return len(b.stages) - 1
}

// AddTask adds a task to stage s (from Stage) and returns its index. A
// negative stage puts the task in a new stage of its own, named by id.
// The demand slice is copied.
func (b *Builder) AddTask(id string, s int, dur int64, demand []float64) int {
	if len(demand) != len(b.resources) {
		panic(fmt.Sprintf("dag: task %q has %d demands for %d resources", id, len(demand), len(b.resources)))
	}
	if s < 0 {
		s = b.Stage(id)
	}
	if s >= len(b.stages) {
		panic(fmt.Sprintf("dag: stage index %d out of range", s))
	}
	i := len(b.tasks)
	if dur < 0 {
		b.problems = append(b.problems, fmt.Sprintf("task %q: negative duration %d", id, dur))
	}
	for k, v := range demand {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			b.problems = append(b.problems, fmt.Sprintf("task %q: demand %s = %v is not a finite non-negative number", id, b.resources[k], v))
		}
	}
	b.tasks = append(b.tasks, Task{ID: id, Duration: dur, Demand: slices.Clone(demand), Stage: s})
	b.stages[s].Tasks = append(b.stages[s].Tasks, i)
	return i
}

// AddEdge makes task `to` wait for task `from`. Repeats are merged.
func (b *Builder) AddEdge(from, to int) {
	if from < 0 || from >= len(b.tasks) || to < 0 || to >= len(b.tasks) {
		panic(fmt.Sprintf("dag: edge %d -> %d out of range", from, to))
	}
	b.from = append(b.from, from)
	b.to = append(b.to, to)
}

// Connect adds the task edges of a stage-level edge: Barrier adds every
// pair, OneToOne pairs the k-th tasks (the stages must be equally large;
// otherwise a problem is recorded). Partial panics: add those edges one by
// one.
func (b *Builder) Connect(from, to int, kind EdgeKind) {
	if from < 0 || from >= len(b.stages) || to < 0 || to >= len(b.stages) {
		panic(fmt.Sprintf("dag: stage edge %d -> %d out of range", from, to))
	}
	pf, pt := b.stages[from].Tasks, b.stages[to].Tasks
	switch kind {
	case Barrier:
	case OneToOne:
		if len(pf) != len(pt) {
			b.problems = append(b.problems, fmt.Sprintf("one-to-one edge %s -> %s joins stages of %d and %d tasks",
				b.stages[from].Name, b.stages[to].Name, len(pf), len(pt)))
			return
		}
	default:
		panic("dag: Connect needs Barrier or OneToOne")
	}
	b.conns = append(b.conns, conn{from, to, kind})
}

// Tasks returns the number of tasks added so far.
func (b *Builder) Tasks() int { return len(b.tasks) }

// StageTasks returns the number of tasks added to stage s so far.
func (b *Builder) StageTasks(s int) int { return len(b.stages[s].Tasks) }

// PendingEdges returns the number of task edges added so far, counting
// those Connect will expand to, before merging repeats.
func (b *Builder) PendingEdges() int {
	n := len(b.from)
	for _, c := range b.conns {
		if c.kind == OneToOne {
			n += len(b.stages[c.to].Tasks)
		} else {
			n += len(b.stages[c.from].Tasks) * len(b.stages[c.to].Tasks)
		}
	}
	return n
}

// Build checks the input and returns the DAG, an *InputError listing every
// problem, or a *CycleError naming one dependency cycle. It costs
// O((N+E) log E).
func (b *Builder) Build() (*DAG, error) {
	problems := slices.Clone(b.problems)
	byID := make(map[string]int, len(b.tasks))
	for i, t := range b.tasks {
		if j, dup := byID[t.ID]; dup {
			problems = append(problems, fmt.Sprintf("duplicate task id %q (tasks %d and %d)", t.ID, j, i))
			continue
		}
		byID[t.ID] = i
	}
	for _, s := range b.stages {
		if len(s.Tasks) == 0 {
			problems = append(problems, fmt.Sprintf("stage %q has no tasks", s.Name))
		}
	}
	if len(problems) > 0 {
		return nil, &InputError{Source: b.name, Problems: problems}
	}
	d := &DAG{Name: b.name, Resources: slices.Clone(b.resources), Unit: b.unit, byID: byID}
	d.Tasks = slices.Clone(b.tasks)
	d.Stages = make([]Stage, len(b.stages))
	for i, s := range b.stages {
		d.Stages[i] = Stage{Name: s.Name, Tasks: slices.Clone(s.Tasks)}
	}
	d.succOff, d.succIdx = b.successors()
	d.predOff, d.predIdx = transpose(d.succOff, d.succIdx)
	if err := d.order(); err != nil {
		return nil, err
	}
	d.deriveStages()
	d.buildCompact()
	return d, nil
}

// successors returns the successor rows (compressed, sorted, without
// repeats) of the explicit edges and the expanded stage connections.
func (b *Builder) successors() (off, idx []int) {
	n := len(b.tasks)
	off = make([]int, n+1)
	for _, u := range b.from {
		off[u+1]++
	}
	for _, c := range b.conns {
		pf, pt := b.stages[c.from].Tasks, b.stages[c.to].Tasks
		for _, u := range pf {
			if c.kind == OneToOne {
				off[u+1]++
			} else {
				off[u+1] += len(pt)
			}
		}
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	idx = make([]int, off[n])
	pos := slices.Clone(off[:n])
	for e, u := range b.from {
		idx[pos[u]] = b.to[e]
		pos[u]++
	}
	for _, c := range b.conns {
		pf, pt := b.stages[c.from].Tasks, b.stages[c.to].Tasks
		for k, u := range pf {
			if c.kind == OneToOne {
				idx[pos[u]] = pt[k]
				pos[u]++
			} else {
				pos[u] += copy(idx[pos[u]:], pt)
			}
		}
	}
	// Sort and deduplicate each row, compacting in place.
	w, start := 0, 0
	for i := 0; i < n; i++ {
		row := idx[start:off[i+1]]
		if !slices.IsSorted(row) {
			slices.Sort(row)
		}
		row = slices.Compact(row)
		start = off[i+1]
		off[i] = w
		w += copy(idx[w:], row)
	}
	off[n] = w
	return off, idx[:w:w]
}

// transpose returns the predecessor rows of successor rows; they come out
// sorted because the rows are visited in index order.
func transpose(soff, sidx []int) (off, idx []int) {
	n := len(soff) - 1
	off = make([]int, n+1)
	for _, v := range sidx {
		off[v+1]++
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	idx = make([]int, len(sidx))
	pos := slices.Clone(off[:n])
	for u := 0; u < n; u++ {
		for _, v := range sidx[soff[u]:soff[u+1]] {
			idx[pos[v]] = u
			pos[v]++
		}
	}
	return off, idx
}

// order computes the topological order (topo.Order: Kahn's algorithm,
// FIFO, sources in index order), or a *CycleError naming the first cycle
// a depth-first search meets (topo.Cycles).
func (d *DAG) order() error {
	n := d.N()
	topoOrder, ok := topo.Order(n, d.Succs)
	if ok {
		d.topo = topoOrder
		d.rank = make([]int, n)
		for k, v := range d.topo {
			d.rank[v] = k
		}
		return nil
	}
	loop := topo.Cycles(n, d.Succs, 1)[0]
	ids := make([]string, len(loop))
	for k, v := range loop {
		ids[k] = d.Tasks[v].ID
	}
	return &CycleError{Source: d.Name, Cycle: ids}
}
