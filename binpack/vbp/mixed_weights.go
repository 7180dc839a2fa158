package vbp

import (
	"math"
	"sort"

	"github.com/capplan/capplan/binpack"
)

// weights ranks items and nodes by value in the mixed constructions and
// moves: w[k] weighs dimension k, and an item's value is val[i] = Σ_k
// w_k·size_ik. Each construction or polish call gets one explicitly; none
// is stored in the problem.
type weights struct {
	name   string
	w, val []float64
}

// newWeights returns the weights w with the item values; w nil or all
// zero gives normWeights.
func (mp *mixedProblem) newWeights(name string, w []float64) *weights {
	pos := false
	for _, v := range w {
		pos = pos || v > 0
	}
	if !pos {
		w = mp.normWeights()
	}
	wt := &weights{name: name, w: w, val: make([]float64, mp.n)}
	for i, s := range mp.size {
		for k, v := range s {
			wt.val[i] += w[k] * float64(v)
		}
	}
	return wt
}

// normWeights weights dimension k by 1/(largest capacity of an active
// type), 0 when no active type has room in k.
func (mp *mixedProblem) normWeights() []float64 {
	w := make([]float64, mp.d)
	for k := range w {
		var cm int64
		for _, t := range mp.active {
			cm = max(cm, mp.cap[t][k])
		}
		if cm > 0 {
			w[k] = 1 / float64(cm)
		}
	}
	return w
}

// byValue returns items sorted by decreasing value (ties by index).
func (wt *weights) byValue(items []int) []int {
	out := append([]int(nil), items...)
	sort.SliceStable(out, func(a, b int) bool { return wt.val[out[a]] > wt.val[out[b]] })
	return out
}

// fill is the value of a bin's load per unit of its cost.
func (mp *mixedProblem) fill(b *mbin, wt *weights) float64 {
	v := 0.0
	for k, l := range b.load {
		v += wt.w[k] * float64(l)
	}
	return v / mp.cost[b.t]
}

// bestFit returns the index of the bin of bins (nil entries and index skip
// left out) that may take item i, has room for it, and leaves the least
// weighted room Σ_k w_k·(cap_k − load_k − size_k) after it; -1 when none
// does (ties to the lower index). Cost O(len(bins)·d).
func (mp *mixedProblem) bestFit(i int, bins []*mbin, skip int, wt *weights) int {
	bc, broom := -1, math.Inf(1)
	for c, dst := range bins {
		if c == skip || dst == nil || !mp.canFit[i][dst.t] || !binpack.Fits(dst.load, mp.size[i], mp.cap[dst.t]) {
			continue
		}
		room := 0.0
		for k, l := range dst.load {
			room += wt.w[k] * float64(mp.cap[dst.t][k]-l-mp.size[i][k])
		}
		if room < broom {
			bc, broom = c, room
		}
	}
	return bc
}
