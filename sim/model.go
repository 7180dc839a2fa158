package sim

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/labels"
)

// Cluster is the simulated machine inventory.
type Cluster struct {
	// Resources name the dimensions of every Vec.
	Resources []string
	// Quanta are the size of one unit of each dimension in base units
	// (cores, bytes), recorded for output (see ChooseQuanta).
	Quanta []float64
	// Machines in id order.
	Machines []Machine
	// Overbook, when set, lets placements exceed capacity in a dimension by
	// that factor (≥ 1; SIMULATE.md §1.5, Graphene §7.2): the fit limit is
	// ⌊cap·Overbook_d⌋. Nil means 1 everywhere.
	Overbook []float64
	// Nodes are the physical nodes in container mode (SIMULATE.md §1.4):
	// every Machine is then a container of one node, holding one task at
	// a time, and usage is charged by container size, not task demand.
	// Nil outside container mode.
	Nodes []Node
	// Devices, when set, fits one resource device by device (GPUs):
	// see Devices.
	Devices *Devices
}

// Machine is one machine, or one container in container mode.
type Machine struct {
	Name string
	// Cap is the capacity in quanta.
	Cap Vec
	// Labels are matched by selectors. Shared between machines: never
	// modified.
	Labels map[string]string
	// Slots bounds the tasks running at once (0: unbounded). Container
	// mode uses 1; googlelike's slotsPerNode uses it too.
	Slots int32
	// Node is the index in Cluster.Nodes of a container's node (container
	// mode), else -1.
	Node int32
	// Owner is a container's owning user (container mode), else NoUser.
	Owner UserID
}

// Node is one physical node in container mode.
type Node struct {
	Name string
	Cap  Vec
}

// ContainerMode reports whether the machines are containers of Nodes.
func (c *Cluster) ContainerMode() bool { return c.Nodes != nil }

// Constraint restricts the machine classes a task may use: the selector
// must match the class's labels and the class's capacity must reach
// MinCapacity in every dimension. The zero value admits every machine.
type Constraint struct {
	// Selector over machine labels; nil matches everything.
	Selector labels.Selector
	// MinCapacity per dimension in quanta; nil means none.
	MinCapacity Vec
}

// key identifies the constraint in the eligibility cache.
func (k Constraint) key() string {
	s := ""
	if k.Selector != nil && !k.Selector.Empty() {
		s = k.Selector.String()
	}
	if k.MinCapacity != nil {
		b := []byte(s)
		b = append(b, '|')
		for _, v := range k.MinCapacity {
			b = appendInt(b, v)
			b = append(b, ',')
		}
		s = string(b)
	}
	return s
}

func (k Constraint) empty() bool {
	return (k.Selector == nil || k.Selector.Empty()) && k.MinCapacity == nil
}

// User is one user (a Demand application): jobs name it by UserID.
type User struct {
	Name string
	// Weight is the exact integer fair-share weight (> 0).
	Weight int64
	// Constraint applies to every task of the user's jobs.
	Constraint Constraint
	// Sharing is the user's X-Flex sharing policy (container mode).
	Sharing Sharing
}

// Sharing is an application's X-Flex sharing policy [SEED xflex §2]: the
// debt it may run up with another application before that one may preempt
// it, or Garbo mode. Policies that ignore ownership ignore it.
type Sharing struct {
	// Bound is δ_u in normalised container size × seconds
	// (Σ_d size_d/R_d · s); Set says the Demand gave one (otherwise the
	// policy's default applies).
	Bound float64
	Set   bool
	// Alone (Garbo mode) runs the user on, and lends, only its own
	// containers.
	Alone bool
}

// LinkKind is the dependency pattern of a stage edge.
type LinkKind uint8

const (
	// Barrier: every task of the child stage waits for every task of the
	// parent stage.
	Barrier LinkKind = iota
	// OneToOne: task i of the child waits for task i of the parent; the
	// stages have equally many tasks.
	OneToOne
)

// Link is a stage edge of a job.
type Link struct {
	From, To int32
	Kind     LinkKind
}

// Edge is an explicit task edge of a job, by task index.
type Edge struct{ From, To int32 }

// Stage is a group of tasks running the same code. Durations and demands
// are estimates: what policies see. Actual durations derive from them
// (Config.Noise).
type Stage struct {
	Name string
	// Tasks is the number of tasks (≥ 1).
	Tasks int32
	// Duration is every task's estimated duration in ticks, unless
	// Durations is set. Zero makes a task a dummy that completes as soon as
	// it becomes runnable.
	Duration Tick
	// Durations, when non-nil, gives each task's estimate (len Tasks).
	Durations []Tick
	// Demand is every task's demand in quanta, unless Demands is set.
	Demand Vec
	// Demands, when non-nil, gives each task's demand (len Tasks).
	Demands []Vec
	// Constraint adds to the job's and the user's constraints.
	Constraint Constraint
}

// Job is one job as the simulator receives it: a DAG of stages.
type Job struct {
	Name    string
	User    UserID
	Arrival Tick
	Stages  []Stage
	// Links are stage edges (barrier or one-to-one).
	Links []Link
	// Edges are further task edges, by task index.
	Edges []Edge
	// Constraint adds to the user's constraint.
	Constraint Constraint
	// Rank, when non-nil, is a preferred order: the rank of each task
	// (len = task count), smaller first. IntraRank uses it.
	Rank []int32
}

// NumTasks returns the number of tasks of the job.
func (j *Job) NumTasks() int {
	n := 0
	for i := range j.Stages {
		n += int(j.Stages[i].Tasks)
	}
	return n
}

// TaskDuration returns the estimate of task i of stage s.
func (s *Stage) TaskDuration(i int) Tick {
	if s.Durations != nil {
		return s.Durations[i]
	}
	return s.Duration
}

// TaskDemand returns the demand of task i of stage s. Do not modify.
func (s *Stage) TaskDemand(i int) Vec {
	if s.Demands != nil {
		return s.Demands[i]
	}
	return s.Demand
}

// JobSource yields jobs in non-decreasing arrival order, one at a time, so
// that a workload of millions of tasks never sits in memory at once.
type JobSource interface {
	// Next returns the next job, or false when there are no more.
	Next() (Job, bool)
}

// SliceSource is a JobSource over jobs held in memory. NewSliceSource
// orders them by (arrival, input index).
type SliceSource struct {
	jobs []Job
	next int
}

// NewSliceSource returns a source over jobs, stably sorted by arrival.
// The caller's slice is not modified (several runs may share it).
func NewSliceSource(jobs []Job) *SliceSource {
	jobs = slices.Clone(jobs)
	slices.SortStableFunc(jobs, func(a, b Job) int { return cmp.Compare(a.Arrival, b.Arrival) })
	return &SliceSource{jobs: jobs}
}

// Next implements JobSource.
func (s *SliceSource) Next() (Job, bool) {
	if s.next == len(s.jobs) {
		return Job{}, false
	}
	s.next++
	return s.jobs[s.next-1], true
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, buf[i:]...)
}
