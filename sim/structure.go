package sim

import (
	"fmt"
	"slices"
)

// structure is the compact dependency graph of one job: barrier and
// one-to-one links stay stage-level (a barrier between stages of n and m
// tasks costs O(n + m), not O(n·m)), explicit edges are CSR rows.
type structure struct {
	first            []int32   // first task of each stage; len S+1
	stageOf          []int32   // stage of each task
	bChild, bPar     [][]int32 // barrier children / parents per stage
	oChild, oPar     [][]int32 // one-to-one children / parents per stage
	succOff, succIdx []int32   // explicit successors (nil without edges)
	predOff, predIdx []int32   // explicit predecessors (built on demand)
	// barrierOnly: no explicit edges and no one-to-one links, so every
	// path computation runs over stages (stageOrder), not tasks (taskOrder).
	barrierOnly bool
	stageOrder  []int32
	taskOrder   []int32
}

// newStructure validates j's shape and builds its compact graph; it
// returns a reason when the job is malformed.
func newStructure(j *Job, dims int) (*structure, string) {
	S := len(j.Stages)
	if S == 0 {
		return nil, "the job has no stages"
	}
	total := 0
	for s := range j.Stages {
		total += max(0, int(j.Stages[s].Tasks))
	}
	// One block each for the int32 arrays (first, stageOf, stageOrder and
	// the link counts) and the per-stage lists: a job costs a few
	// allocations, not one per array and per link.
	ints := make([]int32, (S+1)+total+S+4*S)
	lists := make([][]int32, 4*S)
	g := &structure{first: ints[: S+1 : S+1], bChild: lists[:S:S], bPar: lists[S : 2*S : 2*S],
		oChild: lists[2*S : 3*S : 3*S], oPar: lists[3*S:]}
	n := 0
	for s := range j.Stages {
		st := &j.Stages[s]
		switch {
		case st.Tasks < 1:
			return nil, fmt.Sprintf("stage %s has %d tasks", st.Name, st.Tasks)
		case st.Durations != nil && len(st.Durations) != int(st.Tasks):
			return nil, fmt.Sprintf("stage %s has %d durations for %d tasks", st.Name, len(st.Durations), st.Tasks)
		case st.Demands != nil && len(st.Demands) != int(st.Tasks):
			return nil, fmt.Sprintf("stage %s has %d demands for %d tasks", st.Name, len(st.Demands), st.Tasks)
		case st.Demands == nil && len(st.Demand) != dims:
			return nil, fmt.Sprintf("stage %s has a demand of %d dimensions, want %d", st.Name, len(st.Demand), dims)
		}
		for i := 0; i < int(st.Tasks); i++ {
			if st.TaskDuration(i) < 0 {
				return nil, fmt.Sprintf("stage %s task %d has a negative duration", st.Name, i)
			}
			dem := st.TaskDemand(i)
			if len(dem) != dims {
				return nil, fmt.Sprintf("stage %s task %d has a demand of %d dimensions, want %d", st.Name, i, len(dem), dims)
			}
			for _, v := range dem {
				if v < 0 {
					return nil, fmt.Sprintf("stage %s task %d has a negative demand", st.Name, i)
				}
			}
			if st.Demands == nil {
				break // one shared demand: checked once
			}
		}
		g.first[s] = int32(n)
		n += int(st.Tasks)
	}
	g.first[S] = int32(n)
	g.stageOf = ints[S+1 : S+1+n : S+1+n]
	g.stageOrder = ints[S+1+n : S+1+n : 2*S+1+n]
	for s := 0; s < S; s++ {
		for t := g.first[s]; t < g.first[s+1]; t++ {
			g.stageOf[t] = int32(s)
		}
	}
	// Links: validate and count per list, then fill lists carved from one
	// block, in link order.
	cnt := ints[2*S+1+n:]
	for _, l := range j.Links {
		if l.From < 0 || int(l.From) >= S || l.To < 0 || int(l.To) >= S || l.From == l.To {
			return nil, fmt.Sprintf("stage link %d -> %d is out of range", l.From, l.To)
		}
		switch l.Kind {
		case Barrier:
			cnt[l.From]++
			cnt[S+int(l.To)]++
		case OneToOne:
			if j.Stages[l.From].Tasks != j.Stages[l.To].Tasks {
				return nil, fmt.Sprintf("one-to-one link %s -> %s joins stages of %d and %d tasks",
					j.Stages[l.From].Name, j.Stages[l.To].Name, j.Stages[l.From].Tasks, j.Stages[l.To].Tasks)
			}
			cnt[2*S+int(l.From)]++
			cnt[3*S+int(l.To)]++
		default:
			return nil, fmt.Sprintf("stage link %d -> %d has unknown kind %d", l.From, l.To, l.Kind)
		}
	}
	if len(j.Links) > 0 {
		block := make([]int32, 2*len(j.Links))
		for k, c := range cnt {
			if c > 0 {
				lists[k], block = block[:0:c], block[c:]
			}
		}
		for _, l := range j.Links {
			if l.Kind == Barrier {
				g.bChild[l.From] = append(g.bChild[l.From], l.To)
				g.bPar[l.To] = append(g.bPar[l.To], l.From)
			} else {
				g.oChild[l.From] = append(g.oChild[l.From], l.To)
				g.oPar[l.To] = append(g.oPar[l.To], l.From)
			}
		}
	}
	g.barrierOnly = len(j.Edges) == 0
	for _, l := range j.Links {
		g.barrierOnly = g.barrierOnly && l.Kind == Barrier
	}
	if len(j.Edges) > 0 {
		g.succOff = make([]int32, n+1)
		for _, e := range j.Edges {
			if e.From < 0 || int(e.From) >= n || e.To < 0 || int(e.To) >= n || e.From == e.To {
				return nil, fmt.Sprintf("task edge %d -> %d is out of range", e.From, e.To)
			}
			g.succOff[e.From+1]++
		}
		for i := 0; i < n; i++ {
			g.succOff[i+1] += g.succOff[i]
		}
		g.succIdx = make([]int32, len(j.Edges))
		fill := slices.Clone(g.succOff[:n])
		for _, e := range j.Edges {
			g.succIdx[fill[e.From]] = e.To
			fill[e.From]++
		}
	}
	return g, ""
}

// n returns the number of tasks.
func (g *structure) n() int { return len(g.stageOf) }

// succs returns the explicit successors of task v.
func (g *structure) succs(v int32) []int32 {
	if g.succOff == nil {
		return nil
	}
	return g.succIdx[g.succOff[v]:g.succOff[v+1]]
}

// preds returns the explicit predecessors of task v (built on first use).
func (g *structure) preds(v int32) []int32 {
	if g.succOff == nil {
		return nil
	}
	if g.predOff == nil {
		n := g.n()
		g.predOff = make([]int32, n+1)
		for _, t := range g.succIdx {
			g.predOff[t+1]++
		}
		for i := 0; i < n; i++ {
			g.predOff[i+1] += g.predOff[i]
		}
		g.predIdx = make([]int32, len(g.succIdx))
		fill := slices.Clone(g.predOff[:n])
		for u := int32(0); u < int32(n); u++ {
			for _, t := range g.succs(u) {
				g.predIdx[fill[t]] = u
				fill[t]++
			}
		}
	}
	return g.predIdx[g.predOff[v]:g.predOff[v+1]]
}

// inDegree returns, per task, its predecessors counted the compact way:
// explicit predecessors, plus one per one-to-one parent stage, plus one
// per barrier parent stage (released when that stage completes).
func (g *structure) inDegree() []int32 {
	left := make([]int32, g.n())
	for v := range left {
		s := g.stageOf[v]
		left[v] = int32(len(g.bPar[s]) + len(g.oPar[s]))
	}
	for _, t := range g.succIdx {
		left[t]++
	}
	return left
}

// release calls ready(v) for every task whose last predecessor was u,
// given the compact counters left and the unfinished tasks per stage
// stageLeft (decremented here).
func (g *structure) release(u int32, left, stageLeft []int32, ready func(int32)) {
	for _, v := range g.succs(u) {
		if left[v]--; left[v] == 0 {
			ready(v)
		}
	}
	s := g.stageOf[u]
	off := u - g.first[s]
	for _, c := range g.oChild[s] {
		v := g.first[c] + off
		if left[v]--; left[v] == 0 {
			ready(v)
		}
	}
	if stageLeft[s]--; stageLeft[s] == 0 {
		for _, c := range g.bChild[s] {
			for v := g.first[c]; v < g.first[c+1]; v++ {
				if left[v]--; left[v] == 0 {
					ready(v)
				}
			}
		}
	}
}

// analyse computes a topological order (of stages when barrierOnly,
// else of tasks) and reports false when the job has a cycle.
func (g *structure) analyse() bool {
	if g.barrierOnly {
		S := len(g.bPar)
		var buf [16]int32
		indeg := buf[:0]
		if S > len(buf) {
			indeg = make([]int32, S)
		}
		indeg = indeg[:S]
		for s := range indeg {
			indeg[s] = int32(len(g.bPar[s]))
		}
		order := g.stageOrder[:0] // room for S, from newStructure's block
		for s := range indeg {
			if indeg[s] == 0 {
				order = append(order, int32(s))
			}
		}
		for h := 0; h < len(order); h++ {
			for _, c := range g.bChild[order[h]] {
				if indeg[c]--; indeg[c] == 0 {
					order = append(order, c)
				}
			}
		}
		g.stageOrder = order
		return len(order) == S
	}
	n := g.n()
	left := g.inDegree()
	stageLeft := make([]int32, len(g.bPar))
	for s := range stageLeft {
		stageLeft[s] = g.first[s+1] - g.first[s]
	}
	order := make([]int32, 0, n)
	for v := range left {
		if left[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for h := 0; h < len(order); h++ {
		g.release(order[h], left, stageLeft, func(v int32) { order = append(order, v) })
	}
	g.taskOrder = order
	return len(order) == n
}

// cpl returns the critical-path length with durations dur: the earliest
// finish of the job with unlimited resources (CPM forward pass). analyse
// must have succeeded.
func (g *structure) cpl(dur func(int32) Tick) Tick {
	var length Tick
	if g.barrierOnly {
		var buf [16]Tick
		ef := buf[:0]
		if len(g.bPar) > len(buf) {
			ef = make([]Tick, len(g.bPar))
		}
		ef = ef[:len(g.bPar)]
		for _, s := range g.stageOrder {
			var es, d Tick
			for _, p := range g.bPar[s] {
				es = max(es, ef[p])
			}
			for v := g.first[s]; v < g.first[s+1]; v++ {
				d = max(d, dur(v))
			}
			ef[s] = es + d
			length = max(length, ef[s])
		}
		return length
	}
	ef := make([]Tick, g.n())
	es := make([]Tick, g.n())
	stageEF := make([]Tick, len(g.bPar))
	for _, v := range g.taskOrder {
		s := g.stageOf[v]
		e := es[v]
		for _, p := range g.bPar[s] {
			e = max(e, stageEF[p]) // p is complete before v starts
		}
		for _, p := range g.oPar[s] {
			e = max(e, ef[g.first[p]+v-g.first[s]])
		}
		ef[v] = e + dur(v)
		stageEF[s] = max(stageEF[s], ef[v])
		length = max(length, ef[v])
		for _, w := range g.succs(v) {
			es[w] = max(es[w], ef[v])
		}
	}
	return length
}

// bottomLevels calls set(v, bl(v)) for every task, bl(v) = dur(v) + max
// over successors bl: the longest path from v to a sink, v included.
func (g *structure) bottomLevels(dur func(int32) Tick, set func(int32, Tick)) {
	stageBL := make([]Tick, len(g.bPar))
	if g.barrierOnly {
		for k := len(g.stageOrder) - 1; k >= 0; k-- {
			s := g.stageOrder[k]
			var m Tick
			for _, c := range g.bChild[s] {
				m = max(m, stageBL[c]) // every task of c follows s's tasks
			}
			for v := g.first[s]; v < g.first[s+1]; v++ {
				bl := dur(v) + m
				set(v, bl)
				stageBL[s] = max(stageBL[s], bl)
			}
		}
		return
	}
	bl := make([]Tick, g.n())
	for k := len(g.taskOrder) - 1; k >= 0; k-- {
		v := g.taskOrder[k]
		s := g.stageOf[v]
		var m Tick
		for _, w := range g.succs(v) {
			m = max(m, bl[w])
		}
		for _, c := range g.oChild[s] {
			m = max(m, bl[g.first[c]+v-g.first[s]])
		}
		for _, c := range g.bChild[s] {
			m = max(m, stageBL[c]) // every task of c follows v and is done
		}
		bl[v] = dur(v) + m
		set(v, bl[v])
		stageBL[s] = max(stageBL[s], bl[v])
	}
}

// stageDepth returns each stage's breadth-first level: 0 for stages of
// source tasks, else 1 + the deepest parent stage, over task order; in
// buf when it has room.
func (g *structure) stageDepth(buf []int32) []int32 {
	sd := buf[:0]
	if len(g.bPar) > cap(buf) {
		sd = make([]int32, len(g.bPar))
	}
	sd = sd[:len(g.bPar)]
	clear(sd)
	if g.barrierOnly {
		for _, s := range g.stageOrder {
			for _, p := range g.bPar[s] {
				sd[s] = max(sd[s], sd[p]+1)
			}
		}
		return sd
	}
	td := make([]int32, g.n())
	for _, v := range g.taskOrder {
		s := g.stageOf[v]
		d := td[v]
		for _, p := range g.bPar[s] {
			d = max(d, sd[p]+1)
		}
		for _, p := range g.oPar[s] {
			d = max(d, td[g.first[p]+v-g.first[s]]+1)
		}
		td[v] = d
		sd[s] = max(sd[s], d)
		for _, w := range g.succs(v) {
			if g.stageOf[w] != s {
				td[w] = max(td[w], d+1)
			} else {
				td[w] = max(td[w], d)
			}
		}
	}
	return sd
}
