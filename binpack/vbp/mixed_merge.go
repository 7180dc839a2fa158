package vbp

import (
	"math"

	"github.com/capplan/capplan/binpack"
)

// merge replaces two bins by one bin of a type cheaper than both together
// that holds their joint load and their items may use; pairs are tried
// least filled first. When
// the only such types have no node left, it frees one (see freeFor).
func (pl *polisher) merge(s *msol) bool {
	mp := pl.mp
	order := pl.binsByFill(s)
	joint := make([]int64, mp.d)
	changed := false
	for x := 0; x < len(order) && !pl.w.Over(pl.stop); x++ {
		a := s.bins[order[x]]
		if a == nil {
			continue
		}
		for y := x + 1; y < len(order) && !pl.w.Over(pl.stop); y++ {
			b := s.bins[order[y]]
			if b == nil {
				continue
			}
			pl.w.Add(1)
			for k := range joint {
				joint[k] = a.load[k] + b.load[k]
			}
			u := mp.cheapestFor(s, joint, mp.cost[a.t]+mp.cost[b.t], a, b)
			if u < 0 {
				u = pl.freeFor(s, joint, a, b)
			}
			if u < 0 {
				continue
			}
			s.count[a.t]--
			s.count[b.t]--
			s.count[u]++
			a.t = u
			a.items = append(a.items, b.items...)
			copy(a.load, joint)
			s.bins[order[y]] = nil
			changed = true
		}
	}
	if changed {
		s.compact()
		s.noteMove("merge")
	}
	return changed
}

// freeFor handles a merge of bins a and b (joint load) into a type u
// cheaper than both that holds the load (and their items may use) but has
// no node left: it moves another bin z of type u to a type v with a node
// left that holds z (and z's items may use) and costs less than a and b
// together (so the cost still falls by cost_a + cost_b − cost_v), and
// returns u, or -1 when no such z, v exist. Cost O(T·B·T·(d + n)).
func (pl *polisher) freeFor(s *msol, joint []int64, a, b *mbin) int {
	mp := pl.mp
	budget := mp.cost[a.t] + mp.cost[b.t]
	for _, u := range mp.active {
		if !cheaper(mp.cost[u], budget) {
			return -1
		}
		if mp.lim[u] == math.MaxInt || !binpack.Dominates(mp.cap[u], joint) || !mp.allowsAll(u, a, b) {
			continue
		}
		for _, z := range s.bins {
			if z == nil || z == a || z == b || z.t != u {
				continue
			}
			pl.w.Add(1)
			for _, v := range mp.active {
				if !cheaper(mp.cost[v], budget) {
					break
				}
				freed := 0
				if v == a.t {
					freed++
				}
				if v == b.t {
					freed++
				}
				if v != u && mp.avail(s.count, v, freed) && binpack.Dominates(mp.cap[v], z.load) && mp.allowsAll(v, z) {
					s.count[u]--
					s.count[v]++
					z.t = v
					return u
				}
			}
		}
	}
	return -1
}
