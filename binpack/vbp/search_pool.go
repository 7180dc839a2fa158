package vbp

import "sort"

// poolPacks reports whether the pool fits into s.k bins and returns those
// bins. It first compares the pool's total size with k bins, then runs a
// depth-first search over assignments (items by decreasing volume, a new
// bin only after the used ones), cut off after a node limit.
func (s *searcher) poolPacks() (Packing, bool) {
	p := s.p
	s.w.Add(2 + len(s.pool))
	if len(s.pool) == 0 {
		return nil, true
	}
	tot := s.tmp
	for k := range tot {
		tot[k] = 0
	}
	for _, i := range s.pool {
		p.add(tot, i, 1)
	}
	for k, v := range tot {
		if v > int64(s.k)*p.cap[k] {
			return nil, false
		}
	}
	items := append([]int(nil), s.pool...)
	sort.SliceStable(items, func(a, b int) bool { return p.vol[items[a]] > p.vol[items[b]] })
	loads := make([][]int64, s.k)
	for b := range loads {
		loads[b] = make([]int64, p.d)
	}
	assign := make([]int, len(items))
	used, nodes := 0, 0
	const nodeLimit = 4000
	var dfs func(j int) bool
	dfs = func(j int) bool {
		if j == len(items) {
			return true
		}
		nodes++
		if nodes > nodeLimit {
			return false
		}
		x := items[j]
		for b := 0; b <= used && b < s.k; b++ {
			if !p.fits(loads[b], x) {
				continue
			}
			opened := b == used
			if opened {
				used++
			}
			p.add(loads[b], x, 1)
			assign[j] = b
			if dfs(j + 1) {
				return true
			}
			p.add(loads[b], x, -1)
			if opened {
				used--
			}
		}
		return false
	}
	ok := dfs(0)
	s.w.Add(nodes)
	if !ok {
		return nil, false
	}
	out := make(Packing, used)
	for j, x := range items {
		out[assign[j]] = append(out[assign[j]], x)
	}
	return out, true
}
