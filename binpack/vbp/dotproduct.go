package vbp

import "math"

// binCentric is the bin-centric greedy of Panigrahy et al., "Heuristics for
// vector bin packing" (2011), §4: open one bin; while some unpacked item
// fits, add the fitting item with the best score against the bin's
// normalised residual r_k = 1 − load_k/c_k; then close the bin and open the
// next. score returns a value to maximise. Ties go to the larger item
// (normalised volume), then the lower index. Cost O(n²·d).
func (p *problem) binCentric(score func(w, r []float64) float64) Packing {
	left := make([]int, p.n)
	for i := range left {
		left[i] = i
	}
	var pk Packing
	r := make([]float64, p.d)
	load := make([]int64, p.d)
	for len(left) > 0 {
		for k := range r {
			r[k] = 1
			load[k] = 0
		}
		var bin []int
		for {
			bestJ, bestS := -1, math.Inf(-1)
			for j, i := range left {
				if !p.fits(load, i) {
					continue
				}
				s := score(p.w[i], r)
				if bestJ < 0 || s > bestS+scoreEps ||
					(s > bestS-scoreEps && p.vol[i] > p.vol[left[bestJ]]) {
					bestJ, bestS = j, s
				}
			}
			if bestJ < 0 {
				break
			}
			i := left[bestJ]
			left = append(left[:bestJ], left[bestJ+1:]...)
			bin = append(bin, i)
			p.add(load, i, 1)
			for k := range r {
				r[k] = 1 - float64(load[k])/float64(p.cap[k])
			}
		}
		pk = append(pk, bin)
	}
	return pk
}

// scoreEps treats two float scores as tied; scores are sums of at most d
// products of numbers in [0,1], so 1e-12 is far below any real difference
// between distinct integer sizes but above rounding noise.
const scoreEps = 1e-12

// scoreDot is Panigrahy et al.'s DotProduct rule: maximise ⟨w_i, r⟩, which
// favours items large in the dimensions where the bin still has room.
func scoreDot(w, r []float64) float64 {
	s := 0.0
	for k, v := range w {
		s += v * r[k]
	}
	return s
}

// scoreL2 is Panigrahy et al.'s L2 rule: minimise ‖r − w_i‖², i.e. pick the
// item that leaves the residual closest to the origin (returned negated so
// that larger is better).
func scoreL2(w, r []float64) float64 {
	s := 0.0
	for k, v := range w {
		x := r[k] - v
		s += x * x
	}
	return -s
}
