package policies

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/sim"
)

// Graphene's preferred orders (Grandl et al., OSDI'16 §4–5; SIMULATE.md
// §3.4 "Orders"): each job's tasks ranked by their start in its offline
// schedule, built by capplan's own dag.Graphene on the job's estimates.
//
// Builder machines [DERIVED; SIMULATE.md §9 leaves m open]: m copies of
// the most common machine class, with
//
//	m = clamp(round(M·w_u/Σ_users w), 1, min(64, tasks))
//
// the capacity the job's queue is guaranteed (its user's weighted share of
// the M machines), capped at 64 machines for the builder's cost and at the
// job's task count. SIMULATE.md's m = round(M·w_j/Σ_active w) depends on
// which jobs are active at the arrival, which would tie the order to the
// run and forbid building orders ahead of it, in parallel; the queue's
// guarantee is what a job is promised whatever the load, and equals the
// active share whenever every queue is busy.
//
// Jobs without any dependency (depth 1) bypass the builder and keep Tez's
// breadth-first order: "jobs that … do not have complex DAG structures
// will bypass the offline portion" (Graphene §4.4); packing alone orders
// them. SIMULATE.md §3.4 also bypasses jobs of at most 10 tasks [DERIVED
// there]; we do not, deliberately: the order of a 10-task DAG costs
// microseconds to build, and Graphene's own example (§2.2, SIMULATE.md
// §7.2 case 6) is a 6-task DAG whose preferred order is the whole point.

// maxBuilderMachines caps the builder's machines (SIMULATE.md §3.4).
const maxBuilderMachines = 64

// OrderBuilder computes Graphene ranks for jobs, caching them by job shape
// and builder machines.
type OrderBuilder struct {
	class   sim.Vec // capacity of the most common machine, in quanta
	machs   int     // M
	weights []int64 // per user
	sumW    int64
	res     []string
	tick    float64
	workers int
	cache   map[[32]byte][]int32

	builds, hits, bypass, failed int64
}

// NewOrderBuilder prepares orders for jobs whose users have the given
// weights, on machines of the given capacities (in quanta, machine id
// order), with ticks of tickSeconds; workers bounds the parallel builds
// (0: GOMAXPROCS).
func NewOrderBuilder(caps []sim.Vec, weights []int64, resources []string, tickSeconds float64, workers int) *OrderBuilder {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := &OrderBuilder{machs: len(caps), weights: weights, res: resources, tick: tickSeconds,
		cache: map[[32]byte][]int32{}, workers: workers}
	if b.tick <= 0 {
		b.tick = 1
	}
	for _, w := range weights {
		b.sumW += w
	}
	// the most common capacity (ties: the first in machine order)
	count := map[string]int{}
	best := ""
	for _, c := range caps {
		k := vecKey(c)
		count[k]++
		if b.class == nil || count[k] > count[best] {
			b.class, best = c, k
		}
	}
	return b
}

func vecKey(v sim.Vec) string {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	return string(b)
}

// Machines returns the builder machine count m for job j.
func (b *OrderBuilder) Machines(j *sim.Job) int {
	m := 1
	if b.sumW > 0 && int(j.User) < len(b.weights) {
		m = int(math.Round(float64(b.machs) * float64(b.weights[j.User]) / float64(b.sumW)))
	}
	return max(1, min(m, maxBuilderMachines, j.NumTasks()))
}

// OrderStats counts the work of an OrderBuilder.
type OrderStats struct {
	// Builds ran dag.Graphene; Failed of them fell back to breadth-first
	// order (a task too big for the common machine); Hits reused an
	// order of the same shape; Bypassed jobs were small or flat.
	Builds, Failed, Hits, Bypassed int64
}

// Stats returns the counts so far.
func (b *OrderBuilder) Stats() OrderStats {
	return OrderStats{Builds: b.builds, Failed: b.failed, Hits: b.hits, Bypassed: b.bypass}
}

func bypassed(j *sim.Job) bool { return len(j.Links) == 0 && len(j.Edges) == 0 }

// Rank returns job j's preferred order as a rank per task (0 first),
// building it now if need be.
func (b *OrderBuilder) Rank(j *sim.Job) []int32 {
	b.rankAll([]*sim.Job{j})
	return j.Rank
}

// rankAll sets the Rank of every job without one: bypassed jobs and
// cached shapes first, in order, then one build per new shape, in
// parallel, each into its own slot, so the result and the counts do not
// depend on the workers or their timing.
func (b *OrderBuilder) rankAll(jobs []*sim.Job) {
	type build struct {
		key  [32]byte
		job  *sim.Job
		m    int
		rank []int32
		ok   bool
	}
	var todo []*build
	pending := map[[32]byte]*build{}
	var dups []*sim.Job
	var dupKeys [][32]byte
	for _, j := range jobs {
		if j.Rank != nil {
			continue
		}
		if bypassed(j) {
			b.bypass++
			j.Rank = bfsRank(j)
			continue
		}
		m := b.Machines(j)
		key := shapeKey(j, m)
		if r, ok := b.cache[key]; ok {
			b.hits++
			j.Rank = r
			continue
		}
		if _, ok := pending[key]; ok {
			b.hits++
			dups, dupKeys = append(dups, j), append(dupKeys, key)
			continue
		}
		bu := &build{key: key, job: j, m: m}
		pending[key] = bu
		todo = append(todo, bu)
	}
	var wg sync.WaitGroup
	next := make(chan *build)
	for w := 0; w < min(b.workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for bu := range next {
				bu.rank, bu.ok = b.build(bu.job, bu.m)
			}
		}()
	}
	for _, bu := range todo {
		next <- bu
	}
	close(next)
	wg.Wait()
	for _, bu := range todo {
		b.builds++
		if !bu.ok {
			b.failed++
		}
		b.cache[bu.key] = bu.rank
		bu.job.Rank = bu.rank
	}
	for i, j := range dups {
		j.Rank = b.cache[dupKeys[i]]
	}
}

// build runs dag.Graphene on m machines of the common class, in quanta
// and ticks (the builder needs consistent units, not base units).
func (b *OrderBuilder) build(j *sim.Job, m int) ([]int32, bool) {
	ones := make(sim.Quanta, len(b.res))
	for d := range ones {
		ones[d] = 1000 // a quantum of 1000 milli-units: amounts stay in quanta
	}
	conv := &sim.DAGConversion{Resources: b.res, Quanta: ones, TickSeconds: b.tick}
	d, err := conv.DAG(j)
	if err != nil {
		return bfsRank(j), false
	}
	machines := make([][]float64, m)
	for i := range machines {
		machines[i] = make([]float64, len(b.class))
		for k, x := range b.class {
			machines[i][k] = float64(x)
		}
	}
	s, err := dag.Graphene(d, machines, dag.Options{Workers: 1})
	if err != nil { // a task too big for the common class
		return bfsRank(j), false
	}
	rank := make([]int32, d.N())
	for pos, t := range s.Order() {
		rank[t] = int32(pos)
	}
	return rank, true
}

// shapeKey digests everything the order depends on: the stages' tasks,
// estimates and demands, the links and edges, and m.
func shapeKey(j *sim.Job, m int) [32]byte {
	h := sha256.New()
	var buf []byte
	put := func(x int64) { buf = binary.LittleEndian.AppendUint64(buf, uint64(x)) }
	put(int64(m))
	put(int64(len(j.Stages)))
	for si := range j.Stages {
		st := &j.Stages[si]
		put(int64(st.Tasks))
		for i := 0; i < int(st.Tasks); i++ {
			put(int64(st.TaskDuration(i)))
			for _, x := range st.TaskDemand(i) {
				put(x)
			}
			if st.Durations == nil && st.Demands == nil {
				break
			}
		}
		if len(buf) > 1<<12 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	put(int64(len(j.Links)))
	for _, l := range j.Links {
		put(int64(l.From))
		put(int64(l.To))
		put(int64(l.Kind))
	}
	put(int64(len(j.Edges)))
	for _, e := range j.Edges {
		put(int64(e.From))
		put(int64(e.To))
	}
	h.Write(buf)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// bfsRank ranks tasks in Tez's breadth-first order: stage depth (over
// links and cross-stage edges), then stage, then task; index order when
// the stage graph has a cycle (edges both ways between two stages).
func bfsRank(j *sim.Job) []int32 {
	S := len(j.Stages)
	first := make([]int32, S+1)
	stageOf := []int32{}
	for s := range j.Stages {
		first[s+1] = first[s] + j.Stages[s].Tasks
		for i := int32(0); i < j.Stages[s].Tasks; i++ {
			stageOf = append(stageOf, int32(s))
		}
	}
	succ := make([][]int32, S)
	indeg := make([]int, S)
	add := func(a, b int32) {
		if a != b && !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
			indeg[b]++
		}
	}
	for _, l := range j.Links {
		add(l.From, l.To)
	}
	for _, e := range j.Edges {
		add(stageOf[e.From], stageOf[e.To])
	}
	depth := make([]int, S)
	queue := []int32{}
	for s := 0; s < S; s++ {
		if indeg[s] == 0 {
			queue = append(queue, int32(s))
		}
	}
	for k := 0; k < len(queue); k++ {
		u := queue[k]
		for _, v := range succ[u] {
			depth[v] = max(depth[v], depth[u]+1)
			if indeg[v]--; indeg[v] == 0 {
				queue = append(queue, v)
			}
		}
	}
	n := int(first[S])
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if len(queue) == S { // acyclic: by (depth, stage, task)
		slices.SortStableFunc(order, func(a, b int32) int {
			sa, sb := stageOf[a], stageOf[b]
			if depth[sa] != depth[sb] {
				return depth[sa] - depth[sb]
			}
			return int(sa - sb)
		})
	}
	rank := make([]int32, n)
	for pos, t := range order {
		rank[t] = int32(pos)
	}
	return rank
}

// rankedSource is a JobSource whose jobs arrive with their Graphene
// ranks: it reads a window of jobs ahead and builds their orders in
// parallel, each into its own slot, so the output is the same whatever
// the number of workers and their timing.
type rankedSource struct {
	src    sim.JobSource
	b      *OrderBuilder
	window []sim.Job
	next   int
	done   bool
}

// rankWindow is how many jobs rankedSource builds ahead, per worker.
const rankWindow = 8

// PrepareOrders wraps src so that every job without a Rank gets its
// Graphene preferred order, built ahead in parallel by b.
func PrepareOrders(src sim.JobSource, b *OrderBuilder) sim.JobSource {
	return &rankedSource{src: src, b: b}
}

// Next implements sim.JobSource.
func (r *rankedSource) Next() (sim.Job, bool) {
	if r.next == len(r.window) {
		if r.done {
			return sim.Job{}, false
		}
		r.fill()
		if len(r.window) == 0 {
			return sim.Job{}, false
		}
	}
	j := r.window[r.next]
	r.window[r.next] = sim.Job{}
	r.next++
	return j, true
}

// fill reads the next window and ranks it.
func (r *rankedSource) fill() {
	r.window, r.next = r.window[:0], 0
	for len(r.window) < rankWindow*r.b.workers {
		j, ok := r.src.Next()
		if !ok {
			r.done = true
			break
		}
		r.window = append(r.window, j)
	}
	ptrs := make([]*sim.Job, len(r.window))
	for i := range r.window {
		ptrs[i] = &r.window[i]
	}
	r.b.rankAll(ptrs)
}
