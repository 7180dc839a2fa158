package xsize

import (
	"math"
	"math/bits"
	"slices"
)

// Lines through the origin (ALGORITHMS.md §1.4, "rays" and "higher
// dimensions by induction").
//
// Work in normalised units and write a direction as a point of the simplex
// (‖u‖₁ = 1). A container c lies within a factor 1+ε of the line through u,
// i.e. the cheapest point s·u dominating c costs s = max_d c_d/u_d ≤
// (1+ε)‖c‖₁, if and only if u ≥ c/((1+ε)‖c‖₁) in every coordinate.
//
// Two dimensions. With c = (x, 1−x) and u = (a, 1−a) the condition reads
// 1 − (1−a)(1+ε) ≤ x ≤ a(1+ε): an interval of x of width exactly ε. The
// rays a_k = kε/(1+ε), k = 1..⌈1/ε⌉, cover [0, 1] with the intervals
// [(k−1)ε, kε], so every container is within 1+ε of some ray, and a_k < 1.
// This follows X-Flex's rays strictly inside the quadrant, but places them
// at equal steps of the ℓ₁ simplex coordinate rather than at equal angles:
// ⌈1/ε⌉ rays instead of π/ε − 1, with the factor 1+ε proven exactly.
//
// Higher dimensions, by induction over coordinate pairs: snap (c_1, c_2)
// onto a 2-D ray with ε' = (1+ε)^{1/(r−1)} − 1, treat the result as one
// coordinate, pair it with c_3, and so on. Each level loses at most 1+ε',
// so the r−1 levels lose at most 1+ε, with ⌈1/ε'⌉^{r−1} lines.
//
// Zero coordinates. A line with u_d > 0 would give every container on it a
// positive amount of d (e.g. GPUs), which may fit no node. So lines are built
// per support T (the set of positive coordinates), for every union of
// request supports, each covering the relative interior of the face Δ_T;
// a container with support T is covered by a line of support T.

// simplexLines returns the directions (normalised units, ‖u‖₁ = 1) covering
// the relative interior of the face with support dims within 1+ε.
func simplexLines(dims []int, D int, eps float64) [][]float64 {
	r := len(dims)
	if r == 1 {
		u := make([]float64, D)
		u[dims[0]] = 1
		return [][]float64{u}
	}
	e := math.Pow(1+eps, 1/float64(r-1)) - 1
	t := int(math.Ceil(1/e - 1e-9)) // rays per level; the 1e-9 absorbs 1/ε rounding just above an integer
	rays := make([]float64, t)
	for k := range rays {
		rays[k] = float64(k+1) * e / (1 + e)
	}
	// Partial directions over dims[:level+1], by induction.
	cur := [][]float64{{1}}
	for level := 1; level < r; level++ {
		var next [][]float64
		for _, u := range cur {
			for _, a := range rays {
				v := make([]float64, level+1)
				for i, x := range u {
					v[i] = x * a
				}
				v[level] = 1 - a
				next = append(next, v)
			}
		}
		cur = next
	}
	out := make([][]float64, len(cur))
	for i, u := range cur {
		full := make([]float64, D)
		for j, d := range dims {
			full[d] = u[j]
		}
		out[i] = full
	}
	return out
}

// supports returns the closure under union of the classes' supports, as
// bit masks over dimensions, in increasing order.
func (in *instance) supports() []uint64 {
	var ss []uint64
	for _, s := range in.size {
		ss = append(ss, supportMask(s))
	}
	slices.Sort(ss)
	ss = slices.Compact(ss)
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(ss); i++ {
			for j := i + 1; j < len(ss); j++ {
				u := ss[i] | ss[j]
				if !slices.Contains(ss, u) {
					ss = append(ss, u)
					changed = true
				}
			}
		}
	}
	slices.Sort(ss)
	return ss
}

func supportMask(v []float64) uint64 {
	var m uint64
	for d, x := range v {
		if x > 0 {
			m |= 1 << uint(d)
		}
	}
	return m
}

// lines returns every line for ε, over all supports, in a fixed order.
func (in *instance) lines(eps float64) [][]float64 {
	var out [][]float64
	for _, mask := range in.supports() {
		dims := make([]int, 0, bits.OnesCount64(mask))
		for d := range in.dim {
			if mask&(1<<uint(d)) != 0 {
				dims = append(dims, d)
			}
		}
		out = append(out, simplexLines(dims, in.dim, eps)...)
	}
	return out
}
