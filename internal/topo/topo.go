package topo

// Order returns the nodes 0 … n−1 of the graph with successor lists succs
// in topological order by Kahn's algorithm (A. B. Kahn, "Topological
// sorting of large networks", CACM 5(11), 1962): a FIFO queue seeded with
// the sources in index order, each node appended once its last
// predecessor is. Repeated edges are counted as often as they appear. ok
// is false when the graph has a cycle; order then holds the nodes not on
// or behind one. O(n + e).
func Order(n int, succs func(v int) []int) (order []int, ok bool) {
	indeg := make([]int, n)
	for v := 0; v < n; v++ {
		for _, w := range succs(v) {
			indeg[w]++
		}
	}
	order = make([]int, 0, n)
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			order = append(order, v)
		}
	}
	for h := 0; h < len(order); h++ {
		for _, w := range succs(order[h]) {
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	return order, len(order) == n
}

// Cycles returns, for every back edge v → w met by an iterative
// depth-first search (roots and successors visited in the given order),
// the cycle w → … → v → w as node indices, w repeated at the end: each
// node runs after the one before it. A graph is acyclic exactly when it
// has no back edge, so Cycles returns nil exactly for acyclic graphs.
// limit > 0 stops after that many cycles (callers that need one pass 1).
// O(n + e) plus the length of the cycles returned.
func Cycles(n int, succs func(v int) []int, limit int) [][]int {
	const (
		white = iota // not visited
		grey         // on the DFS stack
		black        // finished
	)
	color := make([]int8, n)
	pos := make([]int, n) // stack position of grey nodes
	type frame struct{ v, next int }
	var cycles [][]int
	var stack []frame
	for s := 0; s < n; s++ {
		if color[s] != white {
			continue
		}
		color[s], pos[s] = grey, 0
		stack = append(stack[:0], frame{v: s})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			out := succs(f.v)
			if f.next == len(out) {
				color[f.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := out[f.next]
			f.next++
			switch color[w] {
			case white:
				color[w], pos[w] = grey, len(stack)
				stack = append(stack, frame{v: w})
			case grey:
				c := make([]int, 0, len(stack)-pos[w]+1)
				for _, g := range stack[pos[w]:] {
					c = append(c, g.v)
				}
				if cycles = append(cycles, append(c, w)); len(cycles) == limit {
					return cycles
				}
			}
		}
	}
	return cycles
}
