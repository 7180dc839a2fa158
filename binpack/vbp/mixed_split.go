package vbp

import (
	"sort"

	"github.com/capplan/capplan/binpack"
)

// splitPairs caps the type pairs split tries per bin.
const splitPairs = 64

// split replaces a bin by two bins of types u, v with cost u + cost v below
// its own, when first-fit (items by decreasing value, into the u bin, then
// the v bin, each where it may go) places all its items. Pairs are tried
// cheapest first.
func (pl *polisher) split(s *msol) bool {
	mp := pl.mp
	type pair struct {
		u, v int
		c    float64
	}
	var pairs []pair
	for a, u := range mp.active {
		for _, v := range mp.active[a:] {
			pairs = append(pairs, pair{u, v, mp.cost[u] + mp.cost[v]})
			if u != v {
				pairs = append(pairs, pair{v, u, mp.cost[u] + mp.cost[v]})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].c < pairs[b].c })
	changed := false
	loads := [2][]int64{make([]int64, mp.d), make([]int64, mp.d)}
	var parts [2][]int
	n := len(s.bins)
	for b := 0; b < n && !pl.w.Over(pl.stop); b++ {
		src := s.bins[b]
		if len(src.items) < 2 {
			continue
		}
		items := pl.wt.byValue(src.items)
		for p, tried := 0, 0; p < len(pairs) && tried < splitPairs && cheaper(pairs[p].c, mp.cost[src.t]); p++ {
			u, v := pairs[p].u, pairs[p].v
			cu, cv := s.count[u], s.count[v]
			if src.t == u {
				cu--
			}
			if src.t == v {
				cv--
			}
			if u == v {
				if cu+2 > mp.lim[u] {
					continue
				}
			} else if cu+1 > mp.lim[u] || cv+1 > mp.lim[v] {
				continue
			}
			tried++
			pl.w.Add(1)
			ts := [2]int{u, v}
			clear(loads[0])
			clear(loads[1])
			parts[0], parts[1] = parts[0][:0], parts[1][:0]
			ok := true
			for _, i := range items {
				placed := false
				for h := 0; h < 2 && !placed; h++ {
					if mp.canFit[i][ts[h]] && binpack.Fits(loads[h], mp.size[i], mp.cap[ts[h]]) {
						for k, x := range mp.size[i] {
							loads[h][k] += x
						}
						parts[h] = append(parts[h], i)
						placed = true
					}
				}
				if !placed {
					ok = false
					break
				}
			}
			if !ok || len(parts[0]) == 0 || len(parts[1]) == 0 {
				continue
			}
			s.count[src.t]--
			s.count[u]++
			s.count[v]++
			s.bins[b] = mp.newBin(u, append([]int(nil), parts[0]...))
			s.bins = append(s.bins, mp.newBin(v, append([]int(nil), parts[1]...)))
			changed = true
			break
		}
	}
	if changed {
		s.noteMove("split")
	}
	return changed
}
