package flow

import "math"

// Inf is the capacity of an arc that can never be saturated.
const Inf int64 = math.MaxInt64 / 4

// Graph is a directed network with int64 capacities and an int64 flow on
// every arc, solved by Dinic's blocking-flow algorithm (Dinic 1970; Ahuja,
// Magnanti & Orlin, Network Flows, §7.4). MaxFlow augments the current
// flow, so changing capacities between calls and solving again warm-starts
// from the previous flow, as the CMMF rounds need: their capacities only
// grow.
//
// Arcs are added first; the first query lays them out in compressed sparse
// row order (each node's arcs contiguous, with explicit residual twins),
// which keeps the breadth-first and depth-first scans cache-friendly. Arc
// ids returned by AddArc stay valid. A MaxFlow call costs O(V²E) in
// general.
type Graph struct {
	n int
	// arcs as added, until built
	tail, head []int32
	capIn      []int64

	built bool
	start []int32 // arcs of node v are start[v] ≤ i < start[v+1]
	to    []int32
	rev   []int32 // residual twin of each arc
	cap   []int64
	flow  []int64
	pos   []int32 // arc id (2k: forward, 2k+1: its twin) → index

	// scratch for Dinic
	level []int32
	iter  []int32
	queue []int32
}

// NewGraph returns an empty network on n nodes.
func NewGraph(n int) *Graph { return &Graph{n: n} }

// Nodes returns the number of nodes.
func (g *Graph) Nodes() int { return g.n }

// AddArc adds an arc u→v with capacity c ≥ 0 and returns its id. Arcs
// must all be added before the first query or MaxFlow.
func (g *Graph) AddArc(u, v int, c int64) int {
	if g.built {
		panic("flow: AddArc after the graph was built")
	}
	a := len(g.tail)
	g.tail = append(g.tail, int32(u), int32(v))
	g.head = append(g.head, int32(v), int32(u))
	g.capIn = append(g.capIn, c, 0)
	return a
}

// build lays the arcs out in CSR order.
func (g *Graph) build() {
	if g.built {
		return
	}
	g.built = true
	m := len(g.tail)
	g.start = make([]int32, g.n+1)
	for _, u := range g.tail {
		g.start[u+1]++
	}
	for v := 0; v < g.n; v++ {
		g.start[v+1] += g.start[v]
	}
	next := append([]int32(nil), g.start[:g.n]...)
	g.pos = make([]int32, m)
	g.to = make([]int32, m)
	g.cap = make([]int64, m)
	g.flow = make([]int64, m)
	g.rev = make([]int32, m)
	for a := 0; a < m; a++ {
		u := g.tail[a]
		i := next[u]
		next[u]++
		g.pos[a] = i
		g.to[i] = g.head[a]
		g.cap[i] = g.capIn[a]
	}
	for a := 0; a < m; a++ {
		g.rev[g.pos[a]] = g.pos[a^1]
	}
	g.tail, g.head, g.capIn = nil, nil, nil
}

// SetCap sets the capacity of arc a. Lowering it below the arc's current
// flow leaves an infeasible flow; callers reset or restore first.
func (g *Graph) SetCap(a int, c int64) {
	g.build()
	g.cap[g.pos[a]] = c
}

// Cap returns the capacity of arc a.
func (g *Graph) Cap(a int) int64 {
	g.build()
	return g.cap[g.pos[a]]
}

// Flow returns the flow on arc a.
func (g *Graph) Flow(a int) int64 {
	g.build()
	return g.flow[g.pos[a]]
}

// ResetFlow sets every arc's flow to zero.
func (g *Graph) ResetFlow() {
	g.build()
	clear(g.flow)
}

// SaveFlow copies the current flow into buf (reallocated if short) and
// returns it; RestoreFlow puts it back. Together they undo a tentative
// augmentation.
func (g *Graph) SaveFlow(buf []int64) []int64 {
	g.build()
	return append(buf[:0], g.flow...)
}

// RestoreFlow restores a flow saved by SaveFlow.
func (g *Graph) RestoreFlow(buf []int64) { copy(g.flow, buf) }

// MaxFlow augments the current flow from s to t until it is maximum and
// returns the amount added.
func (g *Graph) MaxFlow(s, t int) int64 {
	g.build()
	if len(g.level) < g.n {
		g.level = make([]int32, g.n)
		g.iter = make([]int32, g.n)
		g.queue = make([]int32, 0, g.n)
	}
	var total int64
	for g.bfs(s, t) {
		copy(g.iter, g.start[:g.n])
		for {
			d := g.dfs(int32(s), int32(t), Inf)
			if d == 0 {
				break
			}
			total += d
		}
	}
	return total
}

// bfs builds the level graph; it reports whether t is reachable. Nodes at
// or beyond t's level are not expanded: no shortest path uses them.
func (g *Graph) bfs(s, t int) bool {
	level := g.level[:g.n]
	for i := range level {
		level[i] = -1
	}
	q := g.queue[:0]
	level[s] = 0
	q = append(q, int32(s))
	for i := 0; i < len(q); i++ {
		u := q[i]
		if level[t] >= 0 && level[u] >= level[t] {
			break
		}
		for a := g.start[u]; a < g.start[u+1]; a++ {
			v := g.to[a]
			if level[v] < 0 && g.cap[a] > g.flow[a] {
				level[v] = level[u] + 1
				q = append(q, v)
			}
		}
	}
	g.queue = q
	return level[t] >= 0
}

// dfs finds one blocking-flow path of at most f units from u to t.
func (g *Graph) dfs(u, t int32, f int64) int64 {
	if u == t {
		return f
	}
	end := g.start[u+1]
	for ; g.iter[u] < end; g.iter[u]++ {
		a := g.iter[u]
		v := g.to[a]
		r := g.cap[a] - g.flow[a]
		if r <= 0 || g.level[v] != g.level[u]+1 {
			continue
		}
		if d := g.dfs(v, t, min(f, r)); d > 0 {
			g.flow[a] += d
			g.flow[g.rev[a]] -= d
			return d
		}
	}
	return 0
}

// ReachableFrom marks the nodes reachable from s in the residual network:
// after MaxFlow(s, t), the source side of a minimum cut.
func (g *Graph) ReachableFrom(s int, mark []bool) []bool {
	g.build()
	mark = resetMarks(mark, g.n)
	q := g.queue[:0]
	mark[s] = true
	q = append(q, int32(s))
	for i := 0; i < len(q); i++ {
		u := q[i]
		for a := g.start[u]; a < g.start[u+1]; a++ {
			if v := g.to[a]; !mark[v] && g.cap[a] > g.flow[a] {
				mark[v] = true
				q = append(q, v)
			}
		}
	}
	g.queue = q
	return mark
}

// CanReach marks the nodes that can reach t in the residual network (one
// reverse search from t). After a maximum flow, a user node left unmarked
// can never receive more: it is blocked.
func (g *Graph) CanReach(t int, mark []bool) []bool {
	g.build()
	mark = resetMarks(mark, g.n)
	q := g.queue[:0]
	mark[t] = true
	q = append(q, int32(t))
	for i := 0; i < len(q); i++ {
		v := q[i]
		// For each arc v→u, its twin u→v is residual iff cap > flow.
		for a := g.start[v]; a < g.start[v+1]; a++ {
			u, b := g.to[a], g.rev[a]
			if !mark[u] && g.cap[b] > g.flow[b] {
				mark[u] = true
				q = append(q, u)
			}
		}
	}
	g.queue = q
	return mark
}

func resetMarks(mark []bool, n int) []bool {
	if cap(mark) < n {
		return make([]bool, n)
	}
	mark = mark[:n]
	clear(mark)
	return mark
}
