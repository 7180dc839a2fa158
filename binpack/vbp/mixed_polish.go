package vbp

import (
	"sort"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/internal/work"
)

// polisher runs the cheap improvement moves of SolveMixed on one packing:
// it ranks items and nodes by wt and charges w, ending the call when w
// reaches stop. One is made per polish call; nothing in it changes during
// the call but the work counter.
type polisher struct {
	mp   *mixedProblem
	wt   *weights
	w    *work.Counter
	stop int64
}

// polish applies the cheap moves (downsize, merge, empty, split) to s
// until none lowers the cost or the call's work (up to n units; one unit
// is about one node or node pair tested) is spent.
func (mp *mixedProblem) polish(s *msol, wt *weights, w *work.Counter, n int64) {
	pl := &polisher{mp: mp, wt: wt, w: w, stop: w.UpTo(n)}
	for !pl.w.Over(pl.stop) {
		changed := pl.downsize(s)
		changed = pl.merge(s) || changed
		changed = pl.empty(s) || changed
		changed = pl.split(s) || changed
		if !changed {
			return
		}
	}
}

// downsize moves every bin to the cheapest type that holds its load and
// its items may use, when strictly cheaper.
func (pl *polisher) downsize(s *msol) bool {
	mp := pl.mp
	changed := false
	for _, b := range s.bins {
		pl.w.Add(1)
		if u := mp.cheapestFor(s, b.load, mp.cost[b.t], b); u >= 0 {
			s.count[b.t]--
			s.count[u]++
			b.t = u
			changed = true
		}
	}
	if changed {
		s.noteMove("downsize")
	}
	return changed
}

// cheapestFor returns the cheapest active type, strictly cheaper than
// budget, that holds load, that every item of the bins on may use, and
// that has a node left when the bins on are given back (-1 if none).
func (mp *mixedProblem) cheapestFor(s *msol, load []int64, budget float64, on ...*mbin) int {
	for _, u := range mp.active {
		if !cheaper(mp.cost[u], budget) {
			return -1
		}
		freed := 0
		for _, b := range on {
			if b.t == u {
				freed++
			}
		}
		if mp.avail(s.count, u, freed) && binpack.Dominates(mp.cap[u], load) && mp.allowsAll(u, on...) {
			return u
		}
	}
	return -1
}

// allowsAll reports that every item of the bins may use the active type t
// (items that fit it may, without Allowed).
func (mp *mixedProblem) allowsAll(t int, bins ...*mbin) bool {
	if mp.allow == nil {
		return true
	}
	for _, b := range bins {
		for _, i := range b.items {
			if !mp.canFit[i][t] {
				return false
			}
		}
	}
	return true
}

// binsByFill returns the bin indices by increasing fill (value per cost).
func (pl *polisher) binsByFill(s *msol) []int {
	order := allItems(len(s.bins))
	f := make([]float64, len(s.bins))
	for b := range f {
		f[b] = pl.mp.fill(s.bins[b], pl.wt)
	}
	sort.SliceStable(order, func(a, b int) bool { return f[order[a]] < f[order[b]] })
	return order
}
