package dag

import "fmt"

// Task is one task of a DAG: it holds Demand on one machine for Duration
// ticks, and may start only when all its predecessors have finished.
type Task struct {
	// ID is unique within the DAG.
	ID string
	// Duration in ticks (≥ 0). Zero-duration tasks occupy nothing.
	Duration int64
	// Demand per resource, in DAG.Resources order (≥ 0).
	Demand []float64
	// Stage is the index of the task's stage in DAG.Stages.
	Stage int
}

// Stage is a group of tasks running the same code (Graphene §2.3): a map
// or reduce phase, or a single task of a task-level job.
type Stage struct {
	Name string
	// Tasks are task indices, ascending.
	Tasks []int
}

// EdgeKind is the pattern of the task edges between two stages.
type EdgeKind int

const (
	// Barrier: every task of the child stage waits for every task of the
	// parent stage (all-to-all).
	Barrier EdgeKind = iota
	// OneToOne: the stages have equally many tasks and the k-th task of
	// the child waits for the k-th task of the parent only.
	OneToOne
	// Partial is any other pattern.
	Partial
)

// String returns "barrier", "one-to-one" or "partial".
func (k EdgeKind) String() string {
	switch k {
	case Barrier:
		return "barrier"
	case OneToOne:
		return "one-to-one"
	}
	return "partial"
}

// StageEdge summarises the task edges from stage From to stage To. It is
// derived from the task edges when the DAG is built, so it is always
// consistent with them.
type StageEdge struct {
	From, To int
	Kind     EdgeKind
	// Links is the number of task edges from From to To.
	Links int
	// CoversTo: every task of To has a predecessor in From.
	CoversTo bool
	// CoversFrom: every task of From has a successor in To.
	CoversFrom bool
}

// DAG is an immutable task-level DAG with its stage-level view. Build one
// with a Builder or a loader. Edges are deduplicated; task indices are
// 0..N()-1 in insertion order.
type DAG struct {
	// Name identifies the DAG in messages (a job name or file name).
	Name string
	// Resources name the demand dimensions.
	Resources []string
	// Unit is the length of one tick in seconds (1 for PSPLIB periods).
	Unit float64
	// Tasks in index order.
	Tasks []Task
	// Stages in index order; every task belongs to exactly one.
	Stages []Stage
	// StageEdges, sorted by (From, To); edges inside one stage are not
	// listed.
	StageEdges []StageEdge

	predOff, predIdx []int // CSR: predecessors of i are predIdx[predOff[i]:predOff[i+1]]
	succOff, succIdx []int
	stageIn          [][]int // indices into StageEdges, per stage
	stageOut         [][]int
	topo             []int
	rank             []int // position of each task in topo
	stageTopo        []int // nil when the stage graph has a cycle or an intra-stage edge
	byID             map[string]int
	cv               *compact // barrier stage edges kept whole
	rcv              *compact // cv of the reversed DAG
}

// N returns the number of tasks.
func (d *DAG) N() int { return len(d.Tasks) }

// K returns the number of resources.
func (d *DAG) K() int { return len(d.Resources) }

// Edges returns the number of task edges.
func (d *DAG) Edges() int { return len(d.predIdx) }

// Preds returns the predecessors of task i, ascending. Do not modify.
func (d *DAG) Preds(i int) []int { return d.predIdx[d.predOff[i]:d.predOff[i+1]] }

// Succs returns the successors of task i, ascending. Do not modify.
func (d *DAG) Succs(i int) []int { return d.succIdx[d.succOff[i]:d.succOff[i+1]] }

// Topo returns a topological order of the tasks (Kahn's algorithm, FIFO,
// sources in index order). Do not modify.
func (d *DAG) Topo() []int { return d.topo }

// StageTopo returns a topological order of the stages, or nil when the
// stage graph is not a DAG of whole stages (a cycle among stages, or an
// edge inside a stage). Stage-level reasoning (NewLB's stage recursion,
// Graphene's stage sets) is used only when it is non-nil. Do not modify.
func (d *DAG) StageTopo() []int { return d.stageTopo }

// StageIn returns the indices in StageEdges of the edges into stage s.
func (d *DAG) StageIn(s int) []int { return d.stageIn[s] }

// StageOut returns the indices in StageEdges of the edges out of stage s.
func (d *DAG) StageOut(s int) []int { return d.stageOut[s] }

// Index returns the index of the task with the given ID.
func (d *DAG) Index(id string) (int, bool) {
	i, ok := d.byID[id]
	return i, ok
}

// Seconds converts ticks to seconds.
func (d *DAG) Seconds(t int64) float64 { return float64(t) * d.Unit }

// String returns a one-line summary.
func (d *DAG) String() string {
	return fmt.Sprintf("dag %s: %d tasks, %d edges, %d stages, %d resources", d.Name, d.N(), d.Edges(), len(d.Stages), d.K())
}

// Reverse returns the DAG with every edge reversed (predecessors become
// successors), sharing the tasks. Scheduling the reverse forwards and
// mirroring time (start = T − end) schedules the DAG backwards.
func (d *DAG) Reverse() *DAG {
	r := *d
	r.predOff, r.succOff = d.succOff, d.predOff
	r.predIdx, r.succIdx = d.succIdx, d.predIdx
	r.stageIn, r.stageOut = d.stageOut, d.stageIn
	r.StageEdges = make([]StageEdge, len(d.StageEdges))
	for i, e := range d.StageEdges {
		e.From, e.To = e.To, e.From
		e.CoversFrom, e.CoversTo = e.CoversTo, e.CoversFrom
		r.StageEdges[i] = e
	}
	r.cv, r.rcv = d.rcv, d.cv
	r.topo = reverseInts(d.topo)
	r.rank = make([]int, len(d.rank))
	for i, k := range d.rank {
		r.rank[i] = len(d.rank) - 1 - k
	}
	if d.stageTopo != nil {
		r.stageTopo = reverseInts(d.stageTopo)
	}
	return &r
}

func reverseInts(a []int) []int {
	r := make([]int, len(a))
	for i, v := range a {
		r[len(a)-1-i] = v
	}
	return r
}

// TotalDuration returns the sum of task durations, a trivial upper bound
// on the makespan of any sensible schedule.
func (d *DAG) TotalDuration() int64 {
	var s int64
	for i := range d.Tasks {
		s += d.Tasks[i].Duration
	}
	return s
}
