package xselect

import "github.com/capplan/capplan/binpack"

// swap is move 4 of improve, a swap 1-for-1 or 1-for-2 (ALGORITHMS §2.5):
// on a node n of a whose empty capacity holds k, send one packed container
// x, or two x and y, back to the pool when they are together smaller
// (normalised volume) than (a,k) and their removal leaves room for it, and
// place (a,k) there. Removals must keep n valid (removable) and the
// placement goes through tryPlace, so a swap can also clear an exlocated
// or MaxPerNode-capped container out of a's way. The first swap found is
// kept (W drops by vol(a,k) − the removed volume, plus any bundle). Nodes
// in node order, singles before pairs on each node. Cost per node
// O(c²·d) for c containers on it.
func (im *improver) swap(a, k int) bool {
	pk, in := im.pk, im.pk.in
	v := in.vol[k]
	shape := in.p.Shapes[k]
	// room reports whether k fits on n once xs have left it.
	room := func(n int, xs ...Container) bool {
		copy(im.room, pk.free[n])
		for _, x := range xs {
			for d, v := range in.p.Shapes[x.Shape] {
				im.room[d] += v
			}
		}
		return binpack.Fits(in.tol[n], shape, im.room)
	}
	for _, n := range in.eligNodes[a] {
		im.work++
		if im.spent() {
			return false
		}
		if !in.fits(k, n, in.p.Nodes[n].Capacity) || !pk.partnersReady(n, a) {
			continue
		}
		cs := pk.nodes[n]
		// 1-for-1.
		for i, x := range cs {
			im.work++
			if in.vol[x.Shape] >= v-valTol || !room(n, x) || !pk.removable(n, i) {
				continue
			}
			m0 := pk.mark()
			pk.take(n, i)
			if pk.tryPlace(n, a, k) && pk.gain(m0) > valTol {
				return true
			}
			pk.undo(m0)
		}
		// 1-for-2: i < j, the higher index leaves first so that i stays put.
		for j := 1; j < len(pk.nodes[n]); j++ {
			y := pk.nodes[n][j]
			if in.vol[y.Shape] >= v-valTol {
				continue
			}
			for i := range j {
				im.work++
				if im.spent() {
					return false
				}
				x := pk.nodes[n][i]
				if in.vol[x.Shape]+in.vol[y.Shape] >= v-valTol || !room(n, x, y) || !pk.removable(n, j) {
					continue
				}
				m0 := pk.mark()
				pk.take(n, j)
				if pk.removable(n, i) {
					pk.take(n, i)
					if pk.tryPlace(n, a, k) && pk.gain(m0) > valTol {
						return true
					}
				}
				pk.undo(m0)
			}
		}
	}
	return false
}
