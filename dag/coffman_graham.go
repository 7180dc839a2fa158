package dag

import "slices"

// CoffmanGrahamLabels returns the Coffman–Graham labels (Coffman & Graham,
// Acta Informatica 1972; ALGORITHMS §6.1): sinks first, at step i the
// unlabelled task whose successors are all labelled and whose decreasing
// sequence of successor labels is lexicographically smallest gets label i
// (ties: lower index). Labels run 1..N; scheduling by decreasing label is
// optimal for two processors and unit tasks, within 2 − 2/W on W. Labels
// are computed on the transitive reduction (transitive edges would distort
// the successor sequences) when N ≤ reachLimit, else on the edges as
// given. A candidate's key is fixed once it becomes a candidate, so a heap
// gives O(E log N · deg) after O(E·N/64) for the reduction.
func CoffmanGrahamLabels(d *DAG) []int {
	n := d.N()
	succs := transitiveReduction(d)
	label := make([]int, n)
	key := make([][]int, n) // decreasing successor labels
	left := make([]int, n)  // unlabelled successors
	var h []int
	less := func(a, b int) bool {
		if c := slices.Compare(key[a], key[b]); c != 0 {
			return c < 0
		}
		return a < b
	}
	push := func(v int) {
		for _, s := range succs[v] {
			key[v] = append(key[v], label[s])
		}
		slices.Sort(key[v])
		slices.Reverse(key[v])
		h = append(h, v)
		for i := len(h) - 1; i > 0 && less(h[i], h[(i-1)/2]); i = (i - 1) / 2 {
			h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
		}
	}
	pop := func() int {
		top := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		for i := 0; ; {
			m, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if r < len(h) && less(h[r], h[m]) {
				m = r
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
		return top
	}
	preds := make([][]int, n)
	for v := 0; v < n; v++ {
		for _, s := range succs[v] {
			preds[s] = append(preds[s], v)
		}
	}
	for v := 0; v < n; v++ {
		if left[v] = len(succs[v]); left[v] == 0 {
			push(v)
		}
	}
	for i := 1; len(h) > 0; i++ {
		v := pop()
		label[v] = i
		key[v] = nil
		for _, p := range preds[v] {
			if left[p]--; left[p] == 0 {
				push(p)
			}
		}
	}
	return label
}

// transitiveReduction returns the successor lists without the edges u → w
// implied by a longer path, using descendant bitsets; above reachLimit
// tasks it returns the edges as given.
func transitiveReduction(d *DAG) [][]int {
	n := d.N()
	out := make([][]int, n)
	if n > reachLimit {
		for v := range out {
			out[v] = d.Succs(v)
		}
		return out
	}
	w := (n + 63) / 64
	reach := make([]uint64, n*w) // strict descendants
	union := make([]uint64, w)
	topo := d.Topo()
	for k := n - 1; k >= 0; k-- {
		v := topo[k]
		clear(union)
		for _, s := range d.Succs(v) {
			for x, y := range reach[s*w : (s+1)*w] {
				union[x] |= y
			}
		}
		rv := reach[v*w : (v+1)*w]
		copy(rv, union)
		for _, s := range d.Succs(v) {
			rv[s/64] |= 1 << (s % 64)
			if union[s/64]&(1<<(s%64)) == 0 {
				out[v] = append(out[v], s)
			}
		}
	}
	return out
}
