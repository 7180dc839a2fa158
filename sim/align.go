package sim

import "slices"

// Align returns the alignment of demand r on a machine of capacity
// capacity with free capacity free: Σ_{d: cap_d>0} (r_d/cap_d)·(free_d/cap_d),
// the dot product of demand and free capacity, both over the machine's
// capacity (Tetris; Graphene §2.2, §5.1; SIMULATE.md §3.0). Products are
// converted explicitly so no FMA fusion changes results between
// platforms. It is non-decreasing in every dimension of free.
func Align(r, free, capacity Vec) float64 {
	var a float64
	for d, x := range r {
		c := capacity[d]
		if c <= 0 {
			continue
		}
		fc := float64(c)
		a += float64(float64(x)/fc) * float64(free[d]) / fc
	}
	return a
}

// alignEntries bounds the demands per class whose alignment trees
// BestAligned keeps (least recently used first out): 16 trees of 2 nodes
// of 16 bytes per machine, 512 bytes per machine, within SIMULATE.md §6's
// memory budget of 1 KiB per machine.
const alignEntries = 16

// BestAligned returns the machine of class c that holds r (and a free
// slot) and maximises Align(r, free, capacity of c), ties to the lowest
// id, with its alignment; NoMachine when none holds r. It is exact: the
// same answer as MaxScore with Align, or as a scan of every machine.
//
// A class keeps, for each of the last alignEntries distinct demands asked,
// every machine's alignment (−1 when it cannot hold the demand) and a
// tournament tree over them (each node holds the best leaf below it:
// highest alignment, then lowest id). Machines whose free capacity
// changed since the tree was last used are read from a ring of the
// class's index updates and rescored, O(log n) each; a tree that fell
// more than the ring behind, or a new demand, is rebuilt in O(n). Since
// tasks of a stage share a demand, a run of placements of one stage costs
// O(log n) per placement, where a branch and bound over the max-tree
// visits hundreds of nodes whenever many machines have nearly the same
// alignment (as on a cluster spread evenly by alignment itself).
func (x *FreeIndex) BestAligned(c ClassID, r Vec) (MachineID, float64) {
	t := &x.trees[c]
	var buf padBuf
	need := x.pad(r, &buf)
	if !holds(t.node, 1, need) {
		return NoMachine, 0
	}
	if t.align == nil {
		t.align = newAlignIndex(len(t.machines), t.size)
	}
	a := t.align
	e := a.entry(r)
	a.sync(e, t, need)
	root := e.node[1]
	if root.score < 0 {
		return NoMachine, 0
	}
	return t.machines[root.leaf], root.score
}

// alignIndex is one class's alignment trees and the ring of its machines
// (leaf positions) whose free capacity changed.
type alignIndex struct {
	n, size int
	ring    []int32 // changed leaves; position seq mod len(ring)
	seq     uint64  // leaves logged so far
	stamp   []uint32
	mark    uint32
	clock   uint64
	entries []*alignEntry
}

// alignEntry is the tournament tree of one demand.
type alignEntry struct {
	r     Vec
	terms []alignTerm // Align's terms with r_d > 0
	seq   uint64      // ring position it is synced to
	used  uint64      // clock of its last use
	fresh bool        // to be rebuilt
	// node is the tournament tree: node k holds the best leaf below it
	// and its alignment, so that comparing two children reads one cache
	// line; leaf i is node size+i (−1 for a machine that cannot hold the
	// demand, and for padding).
	node []alignNode
}

// alignNode is a node of an alignment tree.
type alignNode struct {
	score float64
	leaf  int32
}

func newAlignIndex(n, size int) *alignIndex {
	L := 16
	for L < 2*n {
		L <<= 1
	}
	return &alignIndex{n: n, size: size, ring: make([]int32, L), stamp: make([]uint32, n)}
}

// changed logs that leaf i's free capacity changed.
func (a *alignIndex) changed(i int32) {
	a.ring[a.seq&uint64(len(a.ring)-1)] = i
	a.seq++
}

// entry returns the tree of demand r, taking over the least recently used
// one (to be rebuilt) when r has none.
func (a *alignIndex) entry(r Vec) *alignEntry {
	a.clock++
	var lru *alignEntry
	for _, e := range a.entries {
		if slices.Equal(e.r, r) {
			e.used = a.clock
			return e
		}
		if lru == nil || e.used < lru.used {
			lru = e
		}
	}
	e := lru
	if len(a.entries) < alignEntries {
		e = &alignEntry{node: make([]alignNode, 2*a.size)}
		a.entries = append(a.entries, e)
	}
	e.r = append(e.r[:0], r...)
	e.used, e.fresh = a.clock, true
	e.terms = e.terms[:0]
	return e
}

// alignTerm is one dimension's term of Align: (q·free_d)/c with
// q = r_d/c and c = cap_d, as Align computes it.
type alignTerm struct {
	d    int
	q, c float64
}

// setTerms lists the terms of Align(e.r, ·, capacity) that can be
// nonzero: a dimension with r_d = 0 adds exactly +0 to a sum ≥ 0.
func (e *alignEntry) setTerms(capacity Vec) {
	e.terms = e.terms[:0]
	for d, x := range e.r {
		if c := capacity[d]; c > 0 && x != 0 {
			fc := float64(c)
			e.terms = append(e.terms, alignTerm{d: d, q: float64(x) / fc, c: fc})
		}
	}
}

// sync brings e up to date with the class's leaves: a rebuild when e is
// fresh or the ring no longer holds its missed changes, else a rescore of
// each changed leaf once.
func (a *alignIndex) sync(e *alignEntry, t *classTree, need []int64) {
	nd := e.node
	if e.fresh || a.seq-e.seq > uint64(len(a.ring)) {
		e.setTerms(t.cap)
		for i := range a.size {
			nd[a.size+i] = alignNode{score: -1, leaf: int32(i)}
			if i < a.n {
				nd[a.size+i].score = e.leafScore(t, i, need)
			}
		}
		for k := a.size - 1; k >= 1; k-- {
			nd[k] = better(nd[2*k], nd[2*k+1])
		}
		e.seq, e.fresh = a.seq, false
		return
	}
	if e.seq == a.seq {
		return
	}
	if a.mark++; a.mark == 0 { // the stamps wrapped: start afresh
		clear(a.stamp)
		a.mark = 1
	}
	mask := uint64(len(a.ring) - 1)
	for s := e.seq; s < a.seq; s++ {
		i := a.ring[s&mask]
		if a.stamp[i] == a.mark {
			continue
		}
		a.stamp[i] = a.mark
		nd[a.size+int(i)].score = e.leafScore(t, int(i), need)
		for k := (a.size + int(i)) >> 1; k >= 1; k >>= 1 {
			old := nd[k].leaf
			w := better(nd[2*k], nd[2*k+1])
			nd[k] = w
			if w.leaf == old && w.leaf != i { // the best below k is unchanged
				break
			}
		}
	}
	e.seq = a.seq
}

// leafScore returns leaf i's alignment, or −1 when it cannot hold need:
// Align's arithmetic, term by term in dimension order, with r_d/cap_d
// computed once per demand.
func (e *alignEntry) leafScore(t *classTree, i int, need []int64) float64 {
	k := t.size + i
	if !holds(t.node, k, need) {
		return -1
	}
	w := len(need)
	free := t.node[k*w : k*w+w]
	var a float64
	for _, x := range e.terms {
		a += float64(x.q*float64(free[x.d])) / x.c
	}
	return a
}

// better returns the better of two children, l the left one: the higher
// alignment, ties to the left, whose leaves have the lower ids.
func better(l, r alignNode) alignNode {
	if r.score > l.score {
		return r
	}
	return l
}
