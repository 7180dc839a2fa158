package binpack

// Dominates reports whether a ≥ b in every coordinate, i.e. whether a
// container or node of size a can hold a request of size b. The comparison
// is exact: no tolerance is applied. It panics if the lengths differ.
func Dominates(a, b []float64) bool {
	if len(a) != len(b) {
		panic("binpack: Dominates: vectors of different length")
	}
	for d, v := range b {
		if v > a[d] {
			return false
		}
	}
	return true
}

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
