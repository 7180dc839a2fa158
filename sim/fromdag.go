package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/capplan/capplan/dag"
)

// DAGConversion says how dag.DAGs become simulator jobs: the cluster's
// dimensions and quanta, and the simulator's tick length.
type DAGConversion struct {
	// Resources are the cluster's dimensions; a DAG resource missing from
	// them is an error unless no task demands it.
	Resources []string
	Quanta    Quanta
	// TickSeconds is the simulator tick in seconds (> 0).
	TickSeconds float64
}

// durTol absorbs float rounding when a duration converts to whole ticks.
const durTol = 1e-9

// Ticks converts a duration in seconds to simulator ticks, rounding up
// (SIMULATE.md §1.1); a positive duration lasts at least one tick.
func (c *DAGConversion) Ticks(seconds float64) Tick {
	if seconds <= 0 {
		return 0
	}
	x := seconds / c.TickSeconds
	r := math.Round(x)
	if math.Abs(x-r) <= durTol*math.Max(1, x) {
		return max(1, Tick(r))
	}
	return max(1, Tick(math.Ceil(x)))
}

// Job converts d into a Job of user u arriving at the given tick. Stages
// keep their order and tasks their order inside each stage, so task k of
// the result is the k-th task in stage order (Index maps the DAG's task
// indices). Barrier and one-to-one stage edges become Links; partial stage
// edges and edges inside a stage become explicit Edges. Durations become
// ticks, rounding up; demands become quanta, rounding up.
func (c *DAGConversion) Job(d *dag.DAG, u UserID, arrival Tick) (Job, []int32, error) {
	dims := make([]int, d.K())
	for k, r := range d.Resources {
		dims[k] = slices.Index(c.Resources, r)
		if dims[k] < 0 {
			for i := range d.Tasks {
				if d.Tasks[i].Demand[k] > 0 {
					return Job{}, nil, fmt.Errorf("sim: job %s demands resource %q, which the cluster does not declare (%v)", d.Name, r, c.Resources)
				}
			}
		}
	}
	index := make([]int32, d.N())
	job := Job{Name: d.Name, User: u, Arrival: arrival, Stages: make([]Stage, len(d.Stages))}
	next := int32(0)
	for s, st := range d.Stages {
		out := &job.Stages[s]
		out.Name, out.Tasks = st.Name, int32(len(st.Tasks))
		durs := make([]Tick, len(st.Tasks))
		dems := make([]Vec, len(st.Tasks))
		sameDur, sameDem := true, true
		for i, v := range st.Tasks {
			index[v] = next
			next++
			t := &d.Tasks[v]
			durs[i] = c.Ticks(float64(t.Duration) * d.Unit)
			dem := make(Vec, len(c.Resources))
			for k, x := range t.Demand {
				if dims[k] >= 0 {
					dem[dims[k]] = c.Quanta.Demand(dims[k], x)
				}
			}
			dems[i] = dem
			sameDur = sameDur && durs[i] == durs[0]
			sameDem = sameDem && slices.Equal(dem, dems[0])
		}
		out.Duration, out.Demand = durs[0], dems[0]
		if !sameDur {
			out.Durations = durs
		}
		if !sameDem {
			out.Demands = dems
		}
	}
	whole := map[[2]int]bool{} // stage pairs carried by a Link
	covered := 0               // task edges the Links stand for
	for _, e := range d.StageEdges {
		switch e.Kind {
		case dag.Barrier:
			job.Links = append(job.Links, Link{From: int32(e.From), To: int32(e.To), Kind: Barrier})
			whole[[2]int{e.From, e.To}] = true
			covered += len(d.Stages[e.From].Tasks) * len(d.Stages[e.To].Tasks)
		case dag.OneToOne:
			job.Links = append(job.Links, Link{From: int32(e.From), To: int32(e.To), Kind: OneToOne})
			whole[[2]int{e.From, e.To}] = true
			covered += len(d.Stages[e.To].Tasks)
		}
	}
	if covered == d.Edges() { // every edge is in a Link: skip the O(E) scan
		return job, index, nil
	}
	for u := 0; u < d.N(); u++ {
		su := d.Tasks[u].Stage
		for _, v := range d.Succs(u) {
			if !whole[[2]int{su, d.Tasks[v].Stage}] {
				job.Edges = append(job.Edges, Edge{From: index[u], To: index[v]})
			}
		}
	}
	return job, index, nil
}

// DAG converts a job back into the dag model, with estimated durations in
// ticks (Unit = TickSeconds) and demands in base units, so that offline
// builders (dag.Graphene, bounds) can run on a job's estimates, for
// instance at its arrival. Task k of the result is task k of the job,
// named "stage[i]"; links become stage edges and edges task edges.
func (c *DAGConversion) DAG(j *Job) (*dag.DAG, error) {
	b := dag.NewBuilder(j.Name, c.Resources, c.TickSeconds)
	first := make([]int, len(j.Stages)+1)
	for s := range j.Stages {
		st := &j.Stages[s]
		si := b.Stage(st.Name)
		first[s] = b.Tasks()
		dem := make([]float64, len(c.Resources))
		for i := 0; i < int(st.Tasks); i++ {
			for d, x := range st.TaskDemand(i) {
				dem[d] = c.Quanta.ToBase(d, x)
			}
			b.AddTask(fmt.Sprintf("%s[%d]", st.Name, i), si, int64(st.TaskDuration(i)), dem)
		}
	}
	first[len(j.Stages)] = b.Tasks()
	for _, l := range j.Links {
		kind := dag.Barrier
		if l.Kind == OneToOne {
			kind = dag.OneToOne
		}
		b.Connect(int(l.From), int(l.To), kind)
	}
	for _, e := range j.Edges {
		b.AddEdge(int(e.From), int(e.To))
	}
	return b.Build()
}
