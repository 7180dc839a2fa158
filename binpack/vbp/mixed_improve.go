package vbp

import (
	"sort"

	"github.com/capplan/capplan/binpack/internal/work"
)

// improve runs resolve on every active type and then polish, repeatedly
// while the cost falls (at most 3 rounds), s is above lb and work is
// left. The re-packings run Solve's steps without its search (cfg.repack):
// on the sub-problems the search rarely pays for its work.
func (mp *mixedProblem) improve(s *msol, lb float64, wt *weights, cfg mixedConfig, w *work.Counter) {
	for round := 0; round < 3 && s.cost(mp) > lb*(1+1e-9) && !w.Done(); round++ {
		before := s.cost(mp)
		for _, t := range mp.active {
			mp.resolve(s, t, cfg.repack, w)
		}
		mp.polish(s, wt, w, cfg.polish)
		if !cheaper(s.cost(mp), before) {
			return
		}
	}
}

// resolve re-packs the items of all bins of type t with Solve's steps
// (cfg, charging w) and keeps the result when it has fewer bins.
func (mp *mixedProblem) resolve(s *msol, t int, cfg solveConfig, w *work.Counter) {
	var items []int
	nb := 0
	for _, b := range s.bins {
		if b.t == t {
			items = append(items, b.items...)
			nb++
		}
	}
	if nb < 2 {
		return
	}
	sort.Ints(items)
	pk, _, err := mp.solveType(t, items, cfg, w)
	if err != nil || len(pk) >= nb {
		return
	}
	out := s.bins[:0]
	for _, b := range s.bins {
		if b.t != t {
			out = append(out, b)
		}
	}
	s.bins = out
	for _, bin := range pk {
		s.bins = append(s.bins, mp.newBin(t, bin))
	}
	s.count[t] = len(pk)
	s.noteMove("resolve")
}
