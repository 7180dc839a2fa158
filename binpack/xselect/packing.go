package xselect

import "github.com/capplan/capplan/binpack"

// packing is the mutable state of one probe: the containers on each node
// and the pool of required containers not yet packed. Every rule is local
// to a node. The raw mutations (place, remove, put, take) test nothing;
// the packer adds containers only through tryPlace (capacity, admits,
// colocation bundle) and removes them only where removable allows or a
// whole node at a time, or checks valid before keeping a change, so a
// packing is valid between moves.
//
// Mutations are journaled so that a tentative move can be undone exactly
// (including the order of each node's list, which keeps runs
// deterministic): mark returns a position, undo rolls back to it.
type packing struct {
	in    *instance
	free  [][]float64
	nodes [][]Container
	// cnt[a][k] counts a's packed containers of shape k; volA[a] is a's
	// packed normalised volume.
	cnt  [][]int
	volA []float64
	// present[n] counts the containers of each app on node n (apps with
	// none are absent from the list).
	present [][]appCount
	// pool[a][k] counts a's required containers of shape k not packed;
	// poolN is their number, poolA[a] a's share of it and poolVolA[a]
	// its volume.
	pool     [][]int
	poolN    int
	poolA    []int
	poolVolA []float64
	log      []op
}

type appCount struct{ app, n int }

// op is one journaled mutation: a container c added to or removed from
// node n (at index i for a removal), drawn from or returned to the pool
// when pooled is set.
type op struct {
	n, i   int
	c      Container
	add    bool
	pooled bool
}

func newPacking(in *instance) *packing {
	pk := &packing{
		in: in, free: make([][]float64, in.nn), nodes: make([][]Container, in.nn),
		cnt: make([][]int, in.na), volA: make([]float64, in.na), present: make([][]appCount, in.nn),
		pool: make([][]int, in.na), poolA: make([]int, in.na), poolVolA: make([]float64, in.na),
	}
	for n, node := range in.p.Nodes {
		pk.free[n] = append([]float64(nil), node.Capacity...)
	}
	for a := range pk.cnt {
		pk.cnt[a] = make([]int, in.nk)
		pk.pool[a] = make([]int, in.nk)
	}
	return pk
}

// clone returns a deep copy of pk on instance in (which must describe the
// same problem) with an empty journal.
func (pk *packing) clone(in *instance) *packing {
	c := &packing{
		in: in, free: make([][]float64, len(pk.free)), nodes: make([][]Container, len(pk.nodes)),
		cnt: make([][]int, len(pk.cnt)), volA: append([]float64(nil), pk.volA...), present: make([][]appCount, len(pk.present)),
		pool: make([][]int, len(pk.pool)), poolN: pk.poolN, poolA: append([]int(nil), pk.poolA...),
		poolVolA: append([]float64(nil), pk.poolVolA...),
	}
	for n := range pk.free {
		c.free[n] = append([]float64(nil), pk.free[n]...)
		c.nodes[n] = append([]Container(nil), pk.nodes[n]...)
		c.present[n] = append([]appCount(nil), pk.present[n]...)
	}
	for a := range pk.cnt {
		c.cnt[a] = append([]int(nil), pk.cnt[a]...)
		c.pool[a] = append([]int(nil), pk.pool[a]...)
	}
	return c
}

// addPool adds c containers (a,k) to the pool (c may be negative).
func (pk *packing) addPool(a, k, c int) {
	pk.pool[a][k] += c
	pk.poolN += c
	pk.poolA[a] += c
	pk.poolVolA[a] += float64(c) * pk.in.vol[k]
}

// poolVolume is the weighted unpacked volume Σ pool[a][k]·vol[k], summed
// from the counts so that equal pools compare equal exactly.
func (pk *packing) poolVolume() float64 {
	s := 0.0
	for a := range pk.pool {
		if pk.poolA[a] == 0 {
			continue
		}
		for k, c := range pk.pool[a] {
			s += float64(c) * pk.in.vol[k]
		}
	}
	return s
}

// onNode returns the number of a's containers on node n.
func (pk *packing) onNode(n, a int) int {
	for _, e := range pk.present[n] {
		if e.app == a {
			return e.n
		}
	}
	return 0
}

func (pk *packing) count(n, a, delta int) {
	ps := pk.present[n]
	for i := range ps {
		if ps[i].app == a {
			ps[i].n += delta
			if ps[i].n == 0 {
				ps[i] = ps[len(ps)-1]
				pk.present[n] = ps[:len(ps)-1]
			}
			return
		}
	}
	pk.present[n] = append(ps, appCount{a, delta})
}

// place appends (k, a) to node n without any test or pool change.
func (pk *packing) place(n, k, a int) {
	pk.nodes[n] = append(pk.nodes[n], Container{Shape: k, Owner: a})
	for d, v := range pk.in.p.Shapes[k] {
		pk.free[n][d] -= v
	}
	pk.cnt[a][k]++
	pk.volA[a] += pk.in.vol[k]
	pk.count(n, a, 1)
	pk.log = append(pk.log, op{n: n, c: Container{Shape: k, Owner: a}, add: true})
}

// remove deletes the i-th container of node n (the last one takes its
// place) without any test or pool change.
func (pk *packing) remove(n, i int) Container {
	cs := pk.nodes[n]
	c := cs[i]
	cs[i] = cs[len(cs)-1]
	pk.nodes[n] = cs[:len(cs)-1]
	for d, v := range pk.in.p.Shapes[c.Shape] {
		pk.free[n][d] += v
	}
	pk.cnt[c.Owner][c.Shape]--
	pk.volA[c.Owner] -= pk.in.vol[c.Shape]
	pk.count(n, c.Owner, -1)
	pk.log = append(pk.log, op{n: n, i: i, c: c})
	return c
}

// put moves one (a,k) container from the pool onto node n, untested.
func (pk *packing) put(n, a, k int) {
	pk.addPool(a, k, -1)
	pk.place(n, k, a)
	pk.log[len(pk.log)-1].pooled = true
}

// take moves the i-th container of node n back to the pool, untested.
func (pk *packing) take(n, i int) Container {
	c := pk.remove(n, i)
	pk.addPool(c.Owner, c.Shape, 1)
	pk.log[len(pk.log)-1].pooled = true
	return c
}

// mark returns the journal position for undo.
func (pk *packing) mark() int { return len(pk.log) }

// undo rolls every mutation after journal position m back, restoring the
// exact previous state. Cost O(ops·d).
func (pk *packing) undo(m int) {
	for len(pk.log) > m {
		o := pk.log[len(pk.log)-1]
		pk.log = pk.log[:len(pk.log)-1]
		if o.add {
			cs := pk.nodes[o.n]
			pk.nodes[o.n] = cs[:len(cs)-1]
			for d, v := range pk.in.p.Shapes[o.c.Shape] {
				pk.free[o.n][d] += v
			}
			pk.cnt[o.c.Owner][o.c.Shape]--
			pk.volA[o.c.Owner] -= pk.in.vol[o.c.Shape]
			pk.count(o.n, o.c.Owner, -1)
			if o.pooled {
				pk.addPool(o.c.Owner, o.c.Shape, 1)
			}
		} else {
			cs := append(pk.nodes[o.n], Container{})
			cs[len(cs)-1] = cs[o.i]
			cs[o.i] = o.c
			pk.nodes[o.n] = cs
			for d, v := range pk.in.p.Shapes[o.c.Shape] {
				pk.free[o.n][d] -= v
			}
			pk.cnt[o.c.Owner][o.c.Shape]++
			pk.volA[o.c.Owner] += pk.in.vol[o.c.Shape]
			pk.count(o.n, o.c.Owner, 1)
			if o.pooled {
				pk.addPool(o.c.Owner, o.c.Shape, -1)
			}
		}
	}
}

// gain returns how much the weighted unpacked volume W has dropped since
// journal position m (negative if it grew). Cost O(ops since m).
func (pk *packing) gain(m int) float64 {
	g := 0.0
	for _, o := range pk.log[m:] {
		if !o.pooled {
			continue
		}
		if o.add {
			g += pk.in.vol[o.c.Shape]
		} else {
			g -= pk.in.vol[o.c.Shape]
		}
	}
	return g
}

// forget empties the journal (the moves so far are final).
func (pk *packing) forget() { pk.log = pk.log[:0] }

// admits reports whether one more container of a may join node n as far
// as the rules other than colocation go: n is in can[a] and active, a is
// below its MaxPerNode there and no app exlocated with a is present. Cost
// O(|present[n]|·log|exl[a]|).
func (pk *packing) admits(n, a int) bool {
	in := pk.in
	if !in.can[a][n] || !in.active[n] {
		return false
	}
	if in.plain[a] {
		return true
	}
	if in.cap[a] > 0 && pk.onNode(n, a) >= in.cap[a] {
		return false
	}
	if len(in.exl[a]) > 0 {
		for _, e := range pk.present[n] {
			if in.excludes(a, e.app) {
				return false
			}
		}
	}
	return true
}

// tryPlace puts one (a,k) container from the pool on node n if it fits
// and is admitted, and then satisfies a's colocation rules on n by
// bundling (see bundle). It leaves pk unchanged and returns false when
// that is impossible. pool[a][k] must be positive.
func (pk *packing) tryPlace(n, a, k int) bool {
	if !pk.in.fits(k, n, pk.free[n]) || !pk.admits(n, a) {
		return false
	}
	m := pk.mark()
	pk.put(n, a, k)
	if !pk.bundle(n, a) {
		pk.undo(m)
		return false
	}
	return true
}

// bundle makes node n, which holds a container of a, hold a container of
// every app a needs: for each absent b it puts b's smallest pooled shape
// that fits and is admitted (and recursively b's own needs; a cycle ends
// because a is already present). On failure it returns false with the
// partial bundle left in place for the caller to undo. Cost O(|closure|·K·
// (d + |present[n]|)).
func (pk *packing) bundle(n, a int) bool {
	for _, b := range pk.in.colo[a] {
		if pk.onNode(n, b) > 0 {
			continue
		}
		if pk.poolA[b] == 0 || !pk.admits(n, b) {
			return false
		}
		done := false
		for _, k := range pk.in.byVol {
			if pk.pool[b][k] == 0 || !pk.in.fits(k, n, pk.free[n]) {
				continue
			}
			m := pk.mark()
			pk.put(n, b, k)
			if pk.bundle(n, b) {
				done = true
				break
			}
			pk.undo(m)
		}
		if !done {
			return false
		}
	}
	return true
}

// partnersReady is a quick necessary test for a to join node n: every
// app a needs is on n or has containers in the pool to bundle.
func (pk *packing) partnersReady(n, a int) bool {
	for _, b := range pk.in.colo[a] {
		if pk.poolA[b] == 0 && pk.onNode(n, b) == 0 {
			return false
		}
	}
	return true
}

// poolPartners reports whether every app a needs has pooled containers
// (so a container of a could start a new node with a bundle).
func (pk *packing) poolPartners(a int) bool {
	for _, b := range pk.in.colo[a] {
		if pk.poolA[b] == 0 {
			return false
		}
	}
	return true
}

// removable reports whether the i-th container of node n may leave it:
// its owner keeps another container on n, or no app present on n needs
// the owner. Cost O(|present[n]|·log|colo|).
func (pk *packing) removable(n, i int) bool {
	b := pk.nodes[n][i].Owner
	if len(pk.in.needers[b]) == 0 || pk.onNode(n, b) > 1 {
		return true
	}
	for _, e := range pk.present[n] {
		if e.app != b && pk.in.needs(e.app, b) {
			return false
		}
	}
	return true
}

// valid reports whether node n respects every rule (capacity with the
// packer's tolerance, can, MaxPerNode, exlocation, colocation), using the
// packer's own tables. Cost O(|present[n]|²·log + d).
func (pk *packing) valid(n int) bool {
	in := pk.in
	if !binpack.Dominates(pk.free[n], in.tol[n]) { // over capacity beyond the tolerance
		return false
	}
	for _, e := range pk.present[n] {
		if !in.can[e.app][n] || (in.cap[e.app] > 0 && e.n > in.cap[e.app]) {
			return false
		}
		for _, g := range pk.present[n] {
			if in.excludes(e.app, g.app) {
				return false
			}
		}
		for _, b := range in.colo[e.app] {
			if pk.onNode(n, b) == 0 {
				return false
			}
		}
	}
	return true
}
