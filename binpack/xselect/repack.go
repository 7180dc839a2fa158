package xselect

import "sort"

const (
	// repackNodes is how many of a's roomiest nodes pair repack pairs up
	// (so at most repackNodes·(repackNodes−1)/2 pairs per call).
	repackNodes = 4
	// repackTypes caps the distinct (owner, shape) types one pair repack
	// assigns; larger pairs are skipped.
	repackTypes = 12
	// repackExtra caps the pooled containers besides (a,k) offered to a
	// pair repack.
	repackExtra = 6
	// repackSearch caps the search nodes of one pair repack.
	repackSearch = 4_000
)

// repackType is one (owner, shape) type of a pair repack with its count
// (on both nodes plus offered from the pool) and the chosen split.
type repackType struct {
	c        Container
	total    int
	cur, got [2]int
}

// repacker solves the two-node subproblem of move 5 of improve: split each
// (owner, shape) type among node u, node v and the pool, maximising the
// packed normalised volume subject to every rule on u and v. Depth-first
// branch and bound over the types in decreasing volume order; for each,
// the count on u from high to low, then the count on v from high to low,
// the rest to the pool (so the first leaf is a greedy packing). The bound
// is the packed volume plus the volume of the types left. Capacity, can,
// MaxPerNode and exlocation are checked as types are assigned, colocation
// at the leaves. Exact unless the search budget runs out.
type repacker struct {
	pk    *packing
	nodes [2]int
	types []repackType
	suf   []float64
	bestV float64
	free  [2][]float64
	// cnt[s][a] counts app a's containers on side s.
	cnt    [2][]int
	budget int
	found  bool
}

// repack is move 5: for each pair among a's repackNodes nodes with the
// most free normalised volume (whose empty capacity holds k), re-solve
// the pair over its containers, (a,k) and up to repackExtra other pooled
// containers (largest first) the pair may take. The new assignment is
// kept if it packs strictly more volume than the pair held (W drops).
func (im *improver) repack(a, k int) bool {
	pk, in := im.pk, im.pk.in
	type cand struct {
		n    int
		free float64
	}
	var top []cand
	for _, n := range in.eligNodes[a] {
		im.work++
		if im.spent() {
			return false
		}
		if !in.fits(k, n, in.p.Nodes[n].Capacity) {
			continue
		}
		f := in.norm(pk.free[n])
		i := len(top)
		for i > 0 && top[i-1].free < f {
			i--
		}
		if i < repackNodes {
			top = append(top, cand{})
			copy(top[i+1:], top[i:])
			top[i] = cand{n, f}
			if len(top) > repackNodes {
				top = top[:repackNodes]
			}
		}
	}
	for i := range top {
		for j := i + 1; j < len(top); j++ {
			if im.spent() {
				return false
			}
			if im.rp.run(pk, top[i].n, top[j].n, a, k, &im.work) {
				return true
			}
		}
	}
	return false
}

// run re-solves nodes u and v and applies the result if it packs more.
func (rp *repacker) run(pk *packing, u, v, a, k int, work *int) bool {
	in := pk.in
	rp.pk, rp.nodes = pk, [2]int{u, v}
	rp.types = rp.types[:0]
	index := map[Container]int{}
	add := func(c Container, side int) bool {
		i, ok := index[c]
		if !ok {
			if len(rp.types) == repackTypes {
				return false
			}
			i = len(rp.types)
			index[c] = i
			rp.types = append(rp.types, repackType{c: c})
		}
		rp.types[i].total++
		if side < 2 {
			rp.types[i].cur[side]++
		}
		return true
	}
	held := 0.0
	for s, n := range rp.nodes {
		for _, c := range pk.nodes[n] {
			if !add(c, s) {
				return false
			}
			held += in.vol[c.Shape]
		}
	}
	if !add(Container{Shape: k, Owner: a}, 2) {
		return false
	}
	// Extra pooled containers the pair may take, largest first.
	extra := 0
	for i := len(in.byVol) - 1; i >= 0 && extra < repackExtra; i-- {
		s := in.byVol[i]
		for b := range pk.pool {
			c := pk.pool[b][s]
			if b == a && s == k {
				c--
			}
			if c <= 0 || !(in.can[b][u] || in.can[b][v]) {
				continue
			}
			for ; c > 0 && extra < repackExtra; c-- {
				if !add(Container{Shape: s, Owner: b}, 2) {
					break
				}
				extra++
			}
		}
	}
	sort.SliceStable(rp.types, func(i, j int) bool {
		return in.vol[rp.types[i].c.Shape] > in.vol[rp.types[j].c.Shape]
	})
	t := len(rp.types)
	rp.suf = resizeFloats(rp.suf, t+1)
	rp.suf[t] = 0
	for i := t - 1; i >= 0; i-- {
		rp.suf[i] = rp.suf[i+1] + float64(rp.types[i].total)*in.vol[rp.types[i].c.Shape]
	}
	for s, n := range rp.nodes {
		rp.free[s] = append(rp.free[s][:0], in.p.Nodes[n].Capacity...)
		if len(rp.cnt[s]) != in.na {
			rp.cnt[s] = make([]int, in.na)
		}
		clear(rp.cnt[s]) // O(A); a partner outside the types must read 0
	}
	rp.bestV = held + valTol // only a strictly better split counts
	rp.found = false
	rp.budget = repackSearch
	rp.dfs(0, 0)
	*work += repackSearch - rp.budget
	if !rp.found {
		return false
	}
	// Apply: both nodes to the pool, then the new split from it.
	m0 := pk.mark()
	for _, n := range rp.nodes {
		for len(pk.nodes[n]) > 0 {
			pk.take(n, len(pk.nodes[n])-1)
		}
	}
	for _, ty := range rp.types {
		for s, n := range rp.nodes {
			for range ty.got[s] {
				pk.put(n, ty.c.Owner, ty.c.Shape)
			}
		}
	}
	if !pk.valid(u) || !pk.valid(v) || pk.gain(m0) <= valTol { // cannot happen: the search checked every rule
		pk.undo(m0)
		return false
	}
	return true
}

// dfs assigns types i.. given packed volume val so far.
func (rp *repacker) dfs(i int, val float64) {
	if rp.budget <= 0 {
		return
	}
	rp.budget--
	if i == len(rp.types) {
		if val > rp.bestV && rp.colocated() {
			rp.bestV = val
			rp.found = true
			for j := range rp.types {
				rp.types[j].got = rp.types[j].cur
			}
		}
		return
	}
	if val+rp.suf[i] <= rp.bestV {
		return
	}
	in := rp.pk.in
	ty := &rp.types[i]
	v := in.vol[ty.c.Shape]
	for xu := rp.most(0, ty, ty.total); xu >= 0; xu-- {
		rp.assign(0, ty.c, xu)
		for xv := rp.most(1, ty, ty.total-xu); xv >= 0; xv-- {
			rp.assign(1, ty.c, xv)
			ty.cur = [2]int{xu, xv}
			rp.dfs(i+1, val+float64(xu+xv)*v)
			rp.assign(1, ty.c, -xv)
			if rp.budget <= 0 {
				break
			}
		}
		rp.assign(0, ty.c, -xu)
		if rp.budget <= 0 {
			break
		}
	}
	ty.cur = [2]int{}
}

// most returns how many containers of type ty side s can take, at most
// limit: capacity, can, MaxPerNode room and exlocation with what side s
// holds already.
func (rp *repacker) most(s int, ty *repackType, limit int) int {
	in := rp.pk.in
	n, a := rp.nodes[s], ty.c.Owner
	if limit <= 0 || !in.can[a][n] {
		return 0
	}
	for _, b := range in.exl[a] {
		if rp.cnt[s][b] > 0 {
			return 0
		}
	}
	if c := in.cap[a]; c > 0 {
		limit = min(limit, c-rp.cnt[s][a])
	}
	for d, x := range in.p.Shapes[ty.c.Shape] {
		if x > 0 {
			limit = min(limit, int((rp.free[s][d]-in.tol[n][d])/x))
		}
	}
	return max(limit, 0)
}

// assign adds x (possibly negative) containers c to side s.
func (rp *repacker) assign(s int, c Container, x int) {
	if x == 0 {
		return
	}
	for d, v := range rp.pk.in.p.Shapes[c.Shape] {
		rp.free[s][d] -= float64(x) * v
	}
	rp.cnt[s][c.Owner] += x
}

// colocated tests the colocation rules on both sides.
func (rp *repacker) colocated() bool {
	in := rp.pk.in
	for s := range 2 {
		for _, ty := range rp.types {
			if a := ty.c.Owner; rp.cnt[s][a] > 0 {
				for _, b := range in.colo[a] {
					if rp.cnt[s][b] == 0 {
						return false
					}
				}
			}
		}
	}
	return true
}
