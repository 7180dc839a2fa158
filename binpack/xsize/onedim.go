package xsize

import (
	"math"
	"slices"
)

// chain1D is the one-dimensional K-grouping problem behind MaxDP
// (ALGORITHMS.md §1.3) and the K-dependent lower bounds: given values
// v_1 < … < v_m with weights W_i, choose at most K thresholds among them so
// that each item pays the smallest threshold ≥ its value; minimise the
// weighted payment. Some optimum groups items into contiguous runs, each
// paying the value of its last item, so with prefix sums P_i = Σ_{j≤i} W_j
//
//	f[1][i] = v_i·P_i,   f[k][i] = min_{j<i} f[k-1][j] + v_i·(P_i − P_j).
//
// The inner minimum is a lower envelope of the lines y = −P_j·x + f[k-1][j]
// (slopes strictly decreasing in j) queried at increasing x = v_i, so the
// monotone convex-hull trick gives O(K·m) time and memory.
type chain1D struct {
	v, w []float64
	f    [][]float64 // f[k][i], k = 0..K, i = 0..m (i items covered)
	arg  [][]int32   // arg[k][i] = j achieving f[k][i]
}

// solveChain1D solves the problem for every k ≤ K. v must be strictly
// increasing and w positive.
func solveChain1D(v, w []float64, K int) *chain1D {
	m := len(v)
	K = min(K, m)
	P := make([]float64, m+1)
	for i, x := range w {
		P[i+1] = P[i] + x
	}
	c := &chain1D{v: v, w: w, f: make([][]float64, K+1), arg: make([][]int32, K+1)}
	c.f[0] = make([]float64, m+1)
	for i := 1; i <= m; i++ {
		c.f[0][i] = math.Inf(1)
	}
	type line struct {
		m, b float64
		j    int32
	}
	bad := func(l1, l2, l3 line) bool { // l2 never strictly below both others
		return (l3.b-l1.b)*(l1.m-l2.m) <= (l2.b-l1.b)*(l1.m-l3.m)
	}
	for k := 1; k <= K; k++ {
		f := make([]float64, m+1)
		arg := make([]int32, m+1)
		f[0] = math.Inf(1)
		var hull []line
		head := 0
		for i := 1; i <= m; i++ {
			j := i - 1
			if prev := c.f[k-1][j]; !math.IsInf(prev, 1) {
				l := line{-P[j], prev, int32(j)}
				for len(hull)-head >= 2 && bad(hull[len(hull)-2], hull[len(hull)-1], l) {
					hull = hull[:len(hull)-1]
				}
				hull = append(hull, l)
			}
			x := v[i-1]
			for len(hull)-head >= 2 && hull[head+1].m*x+hull[head+1].b <= hull[head].m*x+hull[head].b {
				head++
			}
			f[i], arg[i] = math.Inf(1), -1
			if len(hull) > head {
				h := hull[head]
				f[i], arg[i] = h.m*x+h.b+x*P[i], h.j
			}
		}
		c.f[k], c.arg[k] = f, arg
	}
	return c
}

// best returns the smallest-cost k ≤ K (fewest groups on ties) and its cost.
func (c *chain1D) best() (int, float64) {
	m := len(c.v)
	bk, bv := 0, math.Inf(1)
	for k := 1; k < len(c.f); k++ {
		if c.f[k][m] < bv {
			bk, bv = k, c.f[k][m]
		}
	}
	return bk, bv
}

// runs returns the k contiguous runs [start, end) of the optimum with k
// groups, in increasing order.
func (c *chain1D) runs(k int) [][2]int {
	var out [][2]int
	i := len(c.v)
	for ; k > 0 && i > 0; k-- {
		j := int(c.arg[k][i])
		out = append(out, [2]int{j, i})
		i = j
	}
	slices.Reverse(out)
	return out
}

// mergeValues sorts keys ascending, merging equal values. It returns the
// distinct values, their summed weights, and for each input its position.
func mergeValues(keys, w []float64) (v, W []float64, pos []int) {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	pos = make([]int, len(keys))
	for _, i := range order {
		if len(v) == 0 || keys[i] != v[len(v)-1] {
			v = append(v, keys[i])
			W = append(W, 0)
		}
		W[len(W)-1] += w[i]
		pos[i] = len(v) - 1
	}
	return v, W, pos
}
