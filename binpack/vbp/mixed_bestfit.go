package vbp

import "math"

// bestFitAll is the construction for limited types: it opens every
// available node of the limited active types, puts the items (in
// packOrder) each into the open node it may use where it leaves the least
// weighted room, opening a node of the cheapest unlimited type it may use
// when none has room, and drops the unused nodes. It returns nil when an
// item fits nowhere. Cost O(n·B·d) for B nodes.
func (mp *mixedProblem) bestFitAll(b build) *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	for _, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			for j := 0; j < mp.lim[t]; j++ {
				s.bins = append(s.bins, mp.newBin(t, nil))
			}
			s.count[t] = mp.lim[t]
		}
	}
	for _, i := range mp.packOrder(allItems(mp.n), b) {
		bc := mp.bestFit(i, s.bins, -1, b.wt)
		if bc < 0 {
			for _, t := range mp.active { // cheapest first
				if mp.lim[t] == math.MaxInt && mp.canFit[i][t] {
					s.bins = append(s.bins, mp.newBin(t, nil))
					s.count[t]++
					bc = len(s.bins) - 1
					break
				}
			}
		}
		if bc < 0 {
			return nil
		}
		mp.place(s.bins[bc], i)
	}
	for c, bin := range s.bins {
		if len(bin.items) == 0 {
			s.count[bin.t]--
			s.bins[c] = nil
		}
	}
	s.compact()
	return s
}
