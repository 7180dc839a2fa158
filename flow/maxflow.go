package flow

import "math"

// Inf is the capacity of an arc that can never be saturated.
const Inf int64 = math.MaxInt64 / 4

// Graph is a directed network with int64 capacities and an int64 flow on
// every arc, solved by Dinic's blocking-flow algorithm (Dinic 1970; see
// Ahuja, Magnanti & Orlin, Network Flows, §7.4). Arcs come in pairs: arc a
// and its residual twin a^1. MaxFlow augments the current flow, so changing
// capacities between calls and solving again warm-starts from the previous
// flow, as the CMMF rounds need: their capacities only grow.
//
// A MaxFlow call costs O(V²E) in general and O(E√V) on unit networks.
type Graph struct {
	head []int32 // first arc out of each node, -1 if none
	next []int32 // next arc out of the same tail
	to   []int32
	cap  []int64
	flow []int64

	// scratch for Dinic
	level []int32
	iter  []int32
	queue []int32
}

// NewGraph returns an empty network on n nodes.
func NewGraph(n int) *Graph {
	g := &Graph{head: make([]int32, n)}
	for i := range g.head {
		g.head[i] = -1
	}
	return g
}

// Nodes returns the number of nodes.
func (g *Graph) Nodes() int { return len(g.head) }

// AddArc adds an arc u→v with capacity c ≥ 0 and returns its index.
func (g *Graph) AddArc(u, v int, c int64) int {
	a := len(g.to)
	g.to = append(g.to, int32(v), int32(u))
	g.cap = append(g.cap, c, 0)
	g.flow = append(g.flow, 0, 0)
	g.next = append(g.next, g.head[u], g.head[v])
	g.head[u] = int32(a)
	g.head[v] = int32(a + 1)
	return a
}

// SetCap sets the capacity of arc a. Lowering it below the arc's current
// flow leaves an infeasible flow; callers reset or restore first.
func (g *Graph) SetCap(a int, c int64) { g.cap[a] = c }

// Cap returns the capacity of arc a.
func (g *Graph) Cap(a int) int64 { return g.cap[a] }

// Flow returns the flow on arc a.
func (g *Graph) Flow(a int) int64 { return g.flow[a] }

// Head returns the node arc a points to.
func (g *Graph) Head(a int) int { return int(g.to[a]) }

// Tail returns the node arc a leaves.
func (g *Graph) Tail(a int) int { return int(g.to[a^1]) }

// ResetFlow sets every arc's flow to zero.
func (g *Graph) ResetFlow() {
	clear(g.flow)
}

// SaveFlow copies the current flow into buf (reallocated if short) and
// returns it; RestoreFlow puts it back. Together they undo a tentative
// augmentation.
func (g *Graph) SaveFlow(buf []int64) []int64 {
	buf = append(buf[:0], g.flow...)
	return buf
}

// RestoreFlow restores a flow saved by SaveFlow.
func (g *Graph) RestoreFlow(buf []int64) { copy(g.flow, buf) }

// residual returns the residual capacity of arc a.
func (g *Graph) residual(a int32) int64 { return g.cap[a] - g.flow[a] }

// push moves d units along arc a.
func (g *Graph) push(a int32, d int64) {
	g.flow[a] += d
	g.flow[a^1] -= d
}

// MaxFlow augments the current flow from s to t until it is maximum and
// returns the amount added.
func (g *Graph) MaxFlow(s, t int) int64 {
	n := len(g.head)
	if cap(g.level) < n {
		g.level = make([]int32, n)
		g.iter = make([]int32, n)
		g.queue = make([]int32, 0, n)
	}
	g.level = g.level[:n]
	g.iter = g.iter[:n]
	var total int64
	for g.bfs(s, t) {
		copy(g.iter, g.head)
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

// bfs builds the level graph; it reports whether t is reachable.
func (g *Graph) bfs(s, t int) bool {
	for i := range g.level {
		g.level[i] = -1
	}
	q := g.queue[:0]
	g.level[s] = 0
	q = append(q, int32(s))
	for i := 0; i < len(q); i++ {
		u := q[i]
		for a := g.head[u]; a >= 0; a = g.next[a] {
			v := g.to[a]
			if g.level[v] < 0 && g.residual(a) > 0 {
				g.level[v] = g.level[u] + 1
				q = append(q, v)
			}
		}
	}
	g.queue = q
	return g.level[t] >= 0
}

// dfs finds one blocking-flow path of at most f units from u to t.
func (g *Graph) dfs(u, t int32, f int64) int64 {
	if u == t {
		return f
	}
	for ; g.iter[u] >= 0; g.iter[u] = g.next[g.iter[u]] {
		a := g.iter[u]
		v := g.to[a]
		r := g.residual(a)
		if r <= 0 || g.level[v] != g.level[u]+1 {
			continue
		}
		d := g.dfs(v, t, min(f, r))
		if d > 0 {
			g.push(a, d)
			return d
		}
	}
	return 0
}

// ReachableFrom marks the nodes reachable from s in the residual network:
// after MaxFlow(s, t), the source side of a minimum cut.
func (g *Graph) ReachableFrom(s int, mark []bool) []bool {
	mark = resetMarks(mark, len(g.head))
	q := g.queue[:0]
	mark[s] = true
	q = append(q, int32(s))
	for i := 0; i < len(q); i++ {
		u := q[i]
		for a := g.head[u]; a >= 0; a = g.next[a] {
			v := g.to[a]
			if !mark[v] && g.residual(a) > 0 {
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
	mark = resetMarks(mark, len(g.head))
	q := g.queue[:0]
	mark[t] = true
	q = append(q, int32(t))
	for i := 0; i < len(q); i++ {
		v := q[i]
		// arc a^1 is u→v when a leaves v; u→v is residual iff cap-flow>0.
		for a := g.head[v]; a >= 0; a = g.next[a] {
			u := g.to[a]
			if !mark[u] && g.residual(a^1) > 0 {
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
