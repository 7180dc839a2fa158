package dag

// Cuts returns the positions k (0 < k < N) of the topological order at
// which the DAG splits into totally ordered parts: every task of
// Topo()[k:] depends, transitively, on every task of Topo()[:k]
// (Graphene §2.3). Any schedule of the DAG is then a concatenation of
// schedules of the parts, and every topological order has the same cuts.
//
// A prefix A is a cut exactly when every sink of A (no successor in A)
// has a direct edge to every source of the rest B (no predecessor in B):
// a path from a sink of A leaves A at once and, ending at a source of B,
// cannot pass through B first. The sweep keeps the two sets and the count
// of edges between them, updating them in O(deg) per task: O(N+E) in all.
func Cuts(d *DAG) []int {
	n := d.N()
	topo := d.Topo()
	succInA := make([]int, n) // successors already in A
	predInB := make([]int, n) // predecessors still in B
	sinkA := make([]bool, n)
	sourceB := make([]bool, n)
	nSinkA, nSourceB, cross := 0, 0, 0
	for v := 0; v < n; v++ {
		predInB[v] = len(d.Preds(v))
		if predInB[v] == 0 {
			sourceB[v] = true
			nSourceB++
		}
	}
	var cuts []int
	for k := 0; k < n-1; k++ {
		v := topo[k]
		// v leaves B: it is a source of B (its predecessors are in A).
		sourceB[v] = false
		nSourceB--
		for _, p := range d.Preds(v) {
			if sinkA[p] {
				cross--
			}
		}
		// v's predecessors gain a successor in A; sinks among them stop
		// being sinks.
		for _, p := range d.Preds(v) {
			if succInA[p]++; succInA[p] == 1 && sinkA[p] {
				sinkA[p] = false
				nSinkA--
				for _, s := range d.Succs(p) {
					if sourceB[s] {
						cross--
					}
				}
			}
		}
		// v joins A as a sink.
		sinkA[v] = true
		nSinkA++
		for _, s := range d.Succs(v) {
			if sourceB[s] {
				cross++
			}
		}
		// v's successors lose a predecessor in B; some become sources.
		for _, s := range d.Succs(v) {
			if predInB[s]--; predInB[s] == 0 {
				sourceB[s] = true
				nSourceB++
				for _, p := range d.Preds(s) {
					if sinkA[p] {
						cross++
					}
				}
			}
		}
		if cross == nSinkA*nSourceB {
			cuts = append(cuts, k+1)
		}
	}
	return cuts
}

// Parts splits the topological order at the cuts: the returned task lists
// run one after the other in every schedule.
func Parts(d *DAG) [][]int {
	topo := d.Topo()
	var parts [][]int
	last := 0
	for _, k := range append(Cuts(d), d.N()) {
		parts = append(parts, topo[last:k])
		last = k
	}
	return parts
}
