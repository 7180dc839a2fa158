package xselect

import "sort"

// improve tries to place the leftovers rem[a][k] into pk (ALGORITHMS §2.5,
// moves 1 and 3): first *insert* into the first eligible node (in node
// order) with room; failing that, an *eject chain of depth 2*: on an
// eligible node n, move one packed container x of another shape to a
// different node n' eligible for x's owner, if that frees enough room on n.
// Leftover shapes are handled largest normalised volume first. It stops at
// the first container it cannot place (the probe is then infeasible) or
// when budget node visits are spent, and reports whether everything was
// placed. A per-dimension volume test rejects hopeless sets at once.
// Cost O(budget·d) beyond the volume test.
func improve(pk *packing, rem [][]int, budget int) bool {
	in := pk.in
	// Volume test: the leftovers must fit into the total free space.
	need := make([]float64, in.nd)
	left := 0
	for a := range rem {
		for k, c := range rem[a] {
			left += c
			for d, v := range in.p.Shapes[k] {
				need[d] += float64(c) * v
			}
		}
	}
	if left == 0 {
		return true
	}
	for d := range need {
		free := 0.0
		for n := range pk.free {
			free += pk.free[n][d] + in.slack[n][d]
		}
		if need[d] > free {
			return false
		}
	}
	type ak struct{ a, k int }
	var todo []ak
	for a := range rem {
		for k, c := range rem[a] {
			if c > 0 {
				todo = append(todo, ak{a, k})
			}
		}
	}
	sort.SliceStable(todo, func(i, j int) bool { return in.vol[todo[i].k] > in.vol[todo[j].k] })
	work := 0
	for _, t := range todo {
		for rem[t.a][t.k] > 0 {
			if work > budget {
				return false
			}
			if !pk.insert(t.a, t.k, &work) && !pk.eject(t.a, t.k, &work) {
				return false
			}
			rem[t.a][t.k]--
		}
	}
	return true
}

// insert places one (a,k) container on the first eligible node with room.
func (pk *packing) insert(a, k int, work *int) bool {
	for _, n := range pk.in.eligNodes[a] {
		*work++
		if pk.in.fits(k, n, pk.free[n]) {
			pk.place(n, k, a)
			return true
		}
	}
	return false
}

// eject places one (a,k) container by moving one container x off an
// eligible node n to another node n' (eligible for x's owner) with room.
func (pk *packing) eject(a, k int, work *int) bool {
	in := pk.in
	tmp := make([]float64, in.nd)
	for _, n := range in.eligNodes[a] {
		for i, x := range pk.nodes[n] {
			*work++
			if x.Shape == k {
				continue
			}
			for d, v := range in.p.Shapes[x.Shape] {
				tmp[d] = pk.free[n][d] + v
			}
			if !in.fits(k, n, tmp) {
				continue
			}
			for _, m := range in.eligNodes[x.Owner] {
				*work++
				if m != n && in.fits(x.Shape, m, pk.free[m]) {
					pk.remove(n, i)
					pk.place(m, x.Shape, x.Owner)
					pk.place(n, k, a)
					return true
				}
			}
		}
	}
	return false
}
