package xselect

// pull is move 2 of improve, for an app a with colocation partners: when
// some partner b has nothing in the pool, a can only join the nodes that
// already host b, and those may be full. Pull frees one container of each
// such b from wherever it can leave (removable; the smallest such
// container, first in node order), so that (a,k) can start a new node
// with it: the next node of a, in node order, that takes (a,k) through
// tryPlace (whose bundle draws the freed partners back from the pool).
// Kept iff W drops (by vol(a,k) when the bundle reuses the freed
// containers). Cost O(N·(|present| + d)).
func (im *improver) pull(a, k int) bool {
	pk, in := im.pk, im.pk.in
	if len(in.colo[a]) == 0 {
		return false
	}
	m0 := pk.mark()
	freed := false
	for _, b := range in.colo[a] {
		if pk.poolA[b] > 0 {
			continue
		}
		bn, bi := -1, -1
		for _, n := range in.eligNodes[b] {
			im.work++
			if pk.onNode(n, b) == 0 {
				continue
			}
			for i, x := range pk.nodes[n] {
				if x.Owner == b && (bn < 0 || in.vol[x.Shape] < in.vol[pk.nodes[bn][bi].Shape]) && pk.removable(n, i) {
					bn, bi = n, i
				}
			}
		}
		if bn < 0 || im.spent() {
			pk.undo(m0)
			return false
		}
		pk.take(bn, bi)
		freed = true
	}
	if !freed {
		return false
	}
	for _, n := range in.eligNodes[a] {
		im.work++
		if im.spent() {
			break
		}
		if pk.tryPlace(n, a, k) {
			if pk.gain(m0) > valTol {
				return true
			}
			break
		}
	}
	pk.undo(m0)
	return false
}
