package vbp

import "github.com/capplan/capplan/binpack/internal/work"

// partition is the construction for items tied to one type: for every
// active type t, Solve packs the items whose only usable type is t (see
// solveType; improvement only, with cfg); the other items (in packOrder)
// then go best fit (least weighted room left) into those nodes where they
// may, and the rest into new nodes by the greedy. It returns nil when no
// item is tied to one type, a Solve fails, or the nodes exceed a Max.
func (mp *mixedProblem) partition(b build, cfg solveConfig, w *work.Counter) *msol {
	tied := make(map[int][]int)
	var rest []int
	for i := 0; i < mp.n; i++ {
		if fk := mp.fitKind[mp.kind[i]]; len(fk) == 1 {
			tied[fk[0]] = append(tied[fk[0]], i)
		} else {
			rest = append(rest, i)
		}
	}
	if len(tied) == 0 {
		return nil
	}
	s := &msol{count: make([]int, len(mp.cap))}
	for _, t := range mp.active {
		if len(tied[t]) == 0 {
			continue
		}
		pk, _, err := mp.solveType(t, tied[t], cfg, w)
		if err != nil || len(pk) > mp.lim[t] {
			return nil
		}
		for _, bin := range pk {
			s.bins = append(s.bins, mp.newBin(t, append([]int(nil), bin...)))
		}
		s.count[t] = len(pk)
	}
	var left []int
	for _, i := range mp.packOrder(rest, b) {
		bc := mp.bestFit(i, s.bins, -1, b.wt)
		if bc < 0 {
			left = append(left, i)
			continue
		}
		mp.place(s.bins[bc], i)
	}
	if !mp.greedyQuota(s, left, nil, b) {
		return nil
	}
	return s
}
