package vbp

import (
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
)

// build is what a mixed construction is given: the weights that rank
// items and rooms, and the item order (see packOrder).
type build struct {
	wt *weights
	// constrained puts the items that may use the fewest types first.
	constrained bool
}

// suffix is the method-name suffix of a construction run with b.
func (b build) suffix() string {
	if b.constrained {
		return "-constrained"
	}
	return ""
}

// packOrder returns items in the order the constructions place them:
// scarce items (see scarce) first, so that the limited nodes are not used
// up by items that fit elsewhere; with b.constrained, then the items with
// the fewest usable types (fitKind) first, so that they get the room of
// those types; then by decreasing value (ties by index).
func (mp *mixedProblem) packOrder(items []int, b build) []int {
	out := b.wt.byValue(items)
	sort.SliceStable(out, func(x, y int) bool {
		i, j := out[x], out[y]
		if si, sj := mp.scarce(i), mp.scarce(j); si != sj {
			return si
		}
		return b.constrained && len(mp.fitKind[mp.kind[i]]) < len(mp.fitKind[mp.kind[j]])
	})
	return out
}

// scarce reports that item i may use no unlimited active type.
func (mp *mixedProblem) scarce(i int) bool {
	for _, t := range mp.fitKind[mp.kind[i]] {
		if mp.lim[t] == math.MaxInt {
			return false
		}
	}
	return true
}

// restricted reports that Allowed keeps some item off an active type it
// fits.
func (mp *mixedProblem) restricted() bool {
	if mp.allow == nil {
		return false
	}
	for j, it := range mp.inst.Items {
		if it.Count == 0 {
			continue
		}
		for _, t := range mp.active {
			if !mp.allow[j][t] && binpack.Dominates(mp.cap[t], it.Size) {
				return true
			}
		}
	}
	return false
}

// greedy is the cost-efficiency construction: items in packOrder (scarce
// first, those that may use only types with a Max, then by decreasing
// value); while some remain, for every active type with nodes left that
// the first remaining item may use, fill a tentative node of that type
// first-fit from the remaining items (in order) that may use it and rate
// it by packed value per cost; open the best rated node (ties: the cheaper
// type). It returns nil when the first remaining item may use no type with
// nodes left. Cost O(B·T·n·d) for B nodes and T active types.
func (mp *mixedProblem) greedy(b build) *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	if !mp.greedyQuota(s, allItems(mp.n), nil, b) {
		return nil
	}
	return s
}

// greedyQuota packs items into new nodes appended to s by the greedy
// rule, respecting Max given s.count; while some type with quota left
// (count below quota[t]) may take the first remaining item, it only opens
// such types (quota nil: no quota). It reports false when it runs out of
// nodes (s then holds the nodes opened so far).
func (mp *mixedProblem) greedyQuota(s *msol, items []int, quota []int, b build) bool {
	rest := mp.packOrder(items, b)
	load := make([]int64, mp.d)
	var picked, bestPicked []int
	taken := make(map[int]bool, len(items))
	for len(rest) > 0 {
		first := rest[0]
		bt, beff := -1, -1.0
		useQuota := false
		if quota != nil {
			for _, t := range mp.active {
				if mp.canFit[first][t] && mp.avail(s.count, t, 0) && s.count[t] < quota[t] {
					useQuota = true
				}
			}
		}
		for _, t := range mp.active {
			if !mp.canFit[first][t] || !mp.avail(s.count, t, 0) || (useQuota && s.count[t] >= quota[t]) {
				continue
			}
			clear(load)
			picked = picked[:0]
			v := 0.0
			for _, i := range rest {
				if mp.canFit[i][t] && binpack.Fits(load, mp.size[i], mp.cap[t]) {
					for k, x := range mp.size[i] {
						load[k] += x
					}
					picked = append(picked, i)
					v += b.wt.val[i]
				}
			}
			if eff := v / mp.cost[t]; eff > beff*(1+1e-12) || bt < 0 {
				bt, beff = t, eff
				bestPicked = append(bestPicked[:0], picked...)
			}
		}
		if bt < 0 {
			return false
		}
		s.bins = append(s.bins, mp.newBin(bt, append([]int(nil), bestPicked...)))
		s.count[bt]++
		for _, i := range bestPicked {
			taken[i] = true
		}
		rest = dropTaken(rest, taken)
	}
	return true
}
