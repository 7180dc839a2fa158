package vbp

import "sort"

// Bounds holds lower bounds on the optimal number of bins.
type Bounds struct {
	// L1 is the volume bound max_k ⌈Σ_i s_ik / c_k⌉.
	L1 int
	// Clique is the size of a set of items that pairwise cannot share a
	// bin (s_ik + s_jk > c_k for some k), found greedily.
	Clique int
	// L2 is the best Martello–Toth L2 bound over the single dimensions.
	L2 int
	// Best is max(L1, Clique, L2).
	Best int
}

// LowerBound computes Bounds for inst. Every bound is valid because each
// one relaxes the problem: L1 and L2 drop all but one dimension
// (one-dimensional bin packing bounds; L2 from Martello & Toth, "Lower
// bounds and reduction procedures for the bin packing problem", Discrete
// Applied Mathematics 28, 1990), and Clique counts items no two of which
// can share a bin. L1 stays valid with negative sizes; L2 and the clique
// ignore dimensions that contain a negative size. Cost O(n² d) for the clique and O(n² d) for L2.
func LowerBound(inst *Instance) (Bounds, error) {
	p, err := newProblem(inst)
	if err != nil {
		return Bounds{}, err
	}
	return p.bounds(), nil
}

func (p *problem) bounds() Bounds {
	var b Bounds
	if p.n == 0 {
		return b
	}
	b.L1 = p.l1()
	b.Clique = p.cliqueBound()
	for k := 0; k < p.d; k++ {
		if !p.neg[k] {
			b.L2 = max(b.L2, p.l2(k))
		}
	}
	b.Best = max(b.L1, b.Clique, b.L2)
	return b
}

func ceilDiv(a, c int64) int64 { return (a + c - 1) / c }

// Sample sizes of the bounds above quadraticItems items: the clique
// orders' prefix and the number of L2 thresholds. They keep the bounds
// O(n log n) with a bounded quadratic part.
const (
	cliqueScan   = 5000
	l2Thresholds = 64
)

func (p *problem) l1() int {
	best := 0
	for k := 0; k < p.d; k++ {
		var s int64
		for i := range p.size {
			s += p.size[i][k]
		}
		best = max(best, int(ceilDiv(s, p.cap[k])))
	}
	return best
}

// incompatible reports whether items i and j cannot share a bin. Only
// dimensions without negative sizes count: elsewhere a third item could
// make room.
func (p *problem) incompatible(i, j int) bool {
	for k := 0; k < p.d; k++ {
		if !p.neg[k] && p.size[i][k]+p.size[j][k] > p.cap[k] {
			return true
		}
	}
	return false
}

// cliqueBound greedily grows cliques of pairwise incompatible items, from
// several orders (by each dimension and by total normalised size,
// decreasing), and returns the largest. Any clique is a lower bound, so
// above quadraticItems items each order is cut to its first cliqueScan
// (largest) items.
func (p *problem) cliqueBound() int {
	best := 0
	order := make([]int, p.n)
	for key := -1; key < p.d; key++ {
		for i := range order {
			order[i] = i
		}
		score := func(i int) float64 {
			if key < 0 {
				return p.vol[i]
			}
			return p.w[i][key]
		}
		sort.SliceStable(order, func(a, b int) bool { return score(order[a]) > score(order[b]) })
		var clique []int
		if p.n > quadraticItems {
			order = order[:cliqueScan] // any clique is a bound
		}
		for _, i := range order {
			ok := true
			for _, j := range clique {
				if !p.incompatible(i, j) {
					ok = false
					break
				}
			}
			if ok {
				clique = append(clique, i)
			}
		}
		best = max(best, len(clique))
	}
	return best
}

// l2 is the Martello–Toth bound L2 on dimension k alone: for every
// threshold K ∈ {0} ∪ {s_ik ≤ c/2},
//
//	J1 = {s > c−K}, J2 = {c/2 < s ≤ c−K}, J3 = {K ≤ s ≤ c/2}
//	L(K) = |J1| + |J2| + max(0, ⌈(Σ_J3 s − (|J2|·c − Σ_J2 s)) / c⌉)
//
// and L2 = max_K L(K). Items of J1 and J2 each need their own bin; J3 items
// can only use the room left in J2 bins (J1 bins have room < K). Above
// quadraticItems items, at most l2Thresholds values of K are tried (each
// L(K) is a bound on its own).
func (p *problem) l2(k int) int {
	c := p.cap[k]
	s := make([]int64, p.n)
	for i := range s {
		s[i] = p.size[i][k]
	}
	sort.Slice(s, func(a, b int) bool { return s[a] > s[b] })
	thr := []int64{0}
	for _, v := range s {
		if 2*v <= c && v > 0 && v != thr[len(thr)-1] {
			thr = append(thr, v)
		}
	}
	if p.n > quadraticItems && len(thr) > l2Thresholds {
		// Every L(K) is a bound: evaluate an even spread of them.
		spread := make([]int64, 0, l2Thresholds)
		for t := 0; t < l2Thresholds; t++ {
			spread = append(spread, thr[t*len(thr)/l2Thresholds])
		}
		thr = spread
	}
	best := 0
	for _, K := range thr {
		var n1, n2 int
		var s2, s3 int64
		for _, v := range s {
			switch {
			case v > c-K:
				n1++
			case 2*v > c:
				n2++
				s2 += v
			case v >= K:
				s3 += v
			}
		}
		extra := s3 - (int64(n2)*c - s2)
		l := n1 + n2
		if extra > 0 {
			l += int(ceilDiv(extra, c))
		}
		best = max(best, l)
	}
	return best
}
