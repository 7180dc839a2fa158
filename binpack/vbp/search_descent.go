package vbp

import (
	"sort"

	"github.com/capplan/capplan/binpack"
)

// packDescent repacks every bin in turn with the subset of its items and
// the pool items of largest total weight that fits (a knapsack solved by
// depth-first branch and bound, cut off after a node limit; the current
// content is the incumbent). It reports whether the pool got lighter.
func (s *searcher) packDescent() bool {
	p := s.p
	improved := false
	load := make([]int64, p.d)
	for b := range s.bins {
		cand := append(append([]int(nil), s.bins[b]...), s.pool...)
		sort.SliceStable(cand, func(x, y int) bool { return s.wt[cand[x]] > s.wt[cand[y]] })
		suffix := make([]float64, len(cand)+1)
		for j := len(cand) - 1; j >= 0; j-- {
			suffix[j] = suffix[j+1] + max(0, s.wt[cand[j]])
		}
		bestW := 0.0
		for _, i := range s.bins[b] {
			bestW += s.wt[i]
		}
		var bestSet []int
		for k := range load {
			load[k] = 0
		}
		cur := make([]int, 0, len(cand))
		nodes := 0
		const nodeLimit = 3000
		var dfs func(j int, w float64)
		dfs = func(j int, w float64) {
			nodes++
			if w > bestW+volEps {
				bestW = w
				bestSet = append(bestSet[:0], cur...)
			}
			for ; j < len(cand) && nodes < nodeLimit; j++ {
				if w+suffix[j] <= bestW+volEps {
					return
				}
				x := cand[j]
				if !p.fits(load, x) {
					continue
				}
				p.add(load, x, 1)
				cur = append(cur, x)
				dfs(j+1, w+s.wt[x])
				cur = cur[:len(cur)-1]
				p.add(load, x, -1)
			}
		}
		dfs(0, 0)
		s.w.Add(1 + nodes/4)
		if bestSet == nil {
			continue
		}
		in := make(map[int]bool, len(bestSet))
		for _, x := range bestSet {
			in[x] = true
		}
		s.bins[b] = append(s.bins[b][:0], bestSet...)
		s.subs[b] = nil
		for k := range s.loads[b] {
			s.loads[b][k] = 0
		}
		for _, x := range bestSet {
			p.add(s.loads[b], x, 1)
		}
		s.pool = s.pool[:0]
		for _, x := range cand {
			if !in[x] {
				s.pool = append(s.pool, x)
			}
		}
		improved = true
	}
	return improved
}

// descent moves and swaps single items between bins while that increases
// Σ_b vol_b², which concentrates the free room into fewer bins, and reports
// whether it changed anything. Cost O(B²·s²·d) per pass, s items per bin.
func (s *searcher) descent() bool {
	p := s.p
	changed := false
	vol := make([]float64, len(s.bins))
	for b := range vol {
		vol[b] = p.binVol(s.loads[b])
	}
	for pass := 0; pass < descentPasses && !s.w.Over(s.stop); pass++ {
		improved := false
		for b := range s.bins {
			if s.w.Over(s.stop) { // checked per bin: one costs O(B) units
				return changed
			}
			s.w.Add(len(s.bins))
			for c := range s.bins {
				if c == b {
					continue
				}
				// Up to |b|·(1+|c|) tests of O(d) each.
				s.w.Add(len(s.bins[b]) * (1 + len(s.bins[c])) * (p.d + 3) / 8)
				old := vol[b]*vol[b] + vol[c]*vol[c]
			scan:
				for yi := 0; yi < len(s.bins[b]); yi++ {
					y := s.bins[b][yi]
					// Shift y from b to c.
					if nb, nc := vol[b]-p.vol[y], vol[c]+p.vol[y]; nb*nb+nc*nc > old+volEps && p.fits(s.loads[c], y) && s.fitsAfter(b, -1, y) {
						s.moveItem(b, yi, c)
						vol[b], vol[c] = nb, nc
						improved, changed = true, true
						break scan
					}
					for zi := 0; zi < len(s.bins[c]); zi++ {
						z := s.bins[c][zi]
						dv := p.vol[z] - p.vol[y]
						nb, nc := vol[b]+dv, vol[c]-dv
						if nb*nb+nc*nc <= old+volEps {
							continue
						}
						if s.fitsAfter(b, z, y) && s.fitsAfter(c, y, z) {
							s.moveItem(b, yi, c)
							s.moveItem(c, zi, b)
							vol[b], vol[c] = nb, nc
							improved, changed = true, true
							break scan
						}
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	return changed
}

// fitsAfter reports whether bin b stays feasible after adding item in
// (if ≥ 0) and removing item out.
func (s *searcher) fitsAfter(b, in, out int) bool {
	p := s.p
	load := s.tmp2
	copy(load, s.loads[b])
	p.add(load, out, -1)
	if in < 0 {
		return binpack.Dominates(p.cap, load)
	}
	return p.fits(load, in)
}

// moveItem moves the item at position pos of bin b to bin c.
func (s *searcher) moveItem(b, pos, c int) {
	p := s.p
	y := s.bins[b][pos]
	s.bins[b] = append(s.bins[b][:pos], s.bins[b][pos+1:]...)
	p.add(s.loads[b], y, -1)
	s.bins[c] = append(s.bins[c], y)
	p.add(s.loads[c], y, 1)
}
