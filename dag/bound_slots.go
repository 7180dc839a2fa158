package dag

import "math"

// slots returns an upper bound on how many tasks of the set can run at the
// same time: Σ_m min_r ⌊cap_{m,r} / low_r⌋ over resources with low_r > 0,
// where low is the componentwise minimum demand of the set's tasks with
// positive duration (any k of them need at least k·low). It returns
// math.MaxInt64 when low is zero in every resource.
func slots(d *DAG, tasks []int, machines [][]float64) int64 {
	low := make([]float64, d.K())
	for r := range low {
		low[r] = math.Inf(1)
	}
	for _, v := range tasks {
		if d.Tasks[v].Duration == 0 {
			continue
		}
		for r, x := range d.Tasks[v].Demand {
			low[r] = min(low[r], x)
		}
	}
	var total int64
	for _, c := range machines {
		k := int64(math.MaxInt64)
		for r, x := range low {
			if x == 0 || math.IsInf(x, 1) {
				continue
			}
			n := int64(math.Floor(c[r] / x))
			for fitsCap(float64(n+1)*x, c[r]) {
				n++
			}
			for n > 0 && !fitsCap(float64(n)*x, c[r]) {
				n--
			}
			k = min(k, n)
		}
		if k == math.MaxInt64 {
			return math.MaxInt64
		}
		total += k
	}
	return total
}

// slotLB bounds the makespan of a set of tasks run alone by the number K
// of them that can run at once (slots): with n tasks of positive duration,
// the shortest lasting dmin,
//
//	slotLB = max( ⌈n/K⌉·dmin, ⌈Σ dur/K⌉ ).
//
// The second term is the area argument. For the first, let w = ⌈n/K⌉ and
// suppose a schedule in [0, L) with L = (w−1)·dmin + x, 0 ≤ x < dmin. The
// lattice o + j·dmin with offset o ∈ [x, dmin) has only w−1 points in
// [0, L). Every task interval, of length ≥ dmin, contains a lattice point,
// and at most K intervals contain any one point, so n ≤ (w−1)·K < n.
// O(|tasks|·K + M·K).
func slotLB(d *DAG, tasks []int, machines [][]float64) int64 {
	k := slots(d, tasks, machines)
	if k == math.MaxInt64 || k == 0 {
		return 0
	}
	var n, sum int64
	dmin := int64(math.MaxInt64)
	for _, v := range tasks {
		if dur := d.Tasks[v].Duration; dur > 0 {
			n++
			sum += dur
			dmin = min(dmin, dur)
		}
	}
	if n == 0 {
		return 0
	}
	return max((n+k-1)/k*dmin, (sum+k-1)/k)
}
