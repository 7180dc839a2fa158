package binpack

// Amount is the number type of a resource vector: exact integers (vbp's
// benchmark sizes) or real units held in float64 (milli-cores, bytes,
// GPUs). Every comparison below is exact in either type.
type Amount interface{ ~int64 | ~float64 }

// Fits reports whether an item of size fits on top of load within
// capacity: load_k + size_k ≤ capacity_k in every dimension k. A nil load
// stands for an empty bin. This is the one fit test of capplan's packers;
// tolerances, where a packer needs one, enter as a (negative) load. The
// comparison is exact, also where load_k + size_k leaves the range of
// int64: a sum past the maximum exceeds every capacity and a sum past the
// minimum is below every capacity. Sizes may be negative (vbp's triplet
// files). It panics if the lengths differ. Cost O(len(size)).
func Fits[T Amount](load, size, capacity []T) bool {
	if len(capacity) != len(size) || (load != nil && len(load) != len(size)) {
		panic("binpack: Fits: vectors of different length")
	}
	if load == nil {
		for k, v := range size {
			if v > capacity[k] {
				return false
			}
		}
		return true
	}
	for k, v := range size {
		s := load[k] + v
		switch {
		case v > 0 && s < load[k]: // int64 overflow: above every capacity
			return false
		case v < 0 && s > load[k]: // int64 underflow: below every capacity
		case s > capacity[k]:
			return false
		}
	}
	return true
}

// Dominates reports whether a ≥ b in every coordinate, i.e. whether a
// container or node of size a can hold a request of size b: Fits(nil, b,
// a). The comparison is exact: no tolerance is applied. It panics if the
// lengths differ.
func Dominates[T Amount](a, b []T) bool { return Fits(nil, b, a) }

// FirstFit returns the index of the first bin in bins that dominates v, or
// -1 when none does. Cost O(len(bins)·len(v)).
func FirstFit(v []float64, bins [][]float64) int {
	for j, b := range bins {
		if Dominates(b, v) {
			return j
		}
	}
	return -1
}

// Shortfall is one dimension in which a request exceeds a capacity.
type Shortfall struct {
	// Dim is the dimension's index; Need the request's amount and Have
	// the capacity's (Need > Have).
	Dim        int
	Need, Have float64
}

// Shortfalls returns the dimensions in which need exceeds have, in
// dimension order, compared exactly; nil when have dominates need. It is
// Dominates with the reason: a caller can name every short dimension and by
// how much. It panics if the lengths differ. Cost O(len(need)).
func Shortfalls(have, need []float64) []Shortfall {
	if len(have) != len(need) {
		panic("binpack: Shortfalls: vectors of different length")
	}
	var out []Shortfall
	for d, v := range need {
		if v > have[d] {
			out = append(out, Shortfall{Dim: d, Need: v, Have: have[d]})
		}
	}
	return out
}

// Closest returns the index of the capacity in caps that is nearest to
// holding need: the one whose shortfalls, each taken relative to the need,
// sum to the least (ties to the lower index), with those shortfalls; a
// capacity with no shortfall wins at once. It returns -1 and nil when caps
// is empty. Cost O(len(caps)·len(need)).
func Closest(caps [][]float64, need []float64) (int, []Shortfall) {
	best, bestGap := -1, 0.0
	var bestShort []Shortfall
	for i, c := range caps {
		short := Shortfalls(c, need)
		gap := 0.0
		for _, s := range short {
			gap += (s.Need - s.Have) / s.Need
		}
		if best < 0 || gap < bestGap {
			best, bestGap, bestShort = i, gap, short
		}
		if len(short) == 0 {
			break
		}
	}
	return best, bestShort
}
