package dag

import (
	"cmp"
	"slices"
)

// knapsack orders the candidates of a pricing problem of the LP test
// (lpBound.price) for branch and bound the way Horowitz & Sahni order a
// knapsack (JACM 21(2), 1974): by decreasing weight per unit of demand of
// one resource r, the one the candidates oversubscribe most (clique
// resources included; see knapsackOrder). Then the candidates the search
// has still to decide are a suffix of that order, and the weight they can
// add is at most the fractional knapsack optimum of the suffix with r's
// capacity left (Dantzig's bound), read off prefix sums: candidates that
// do not use r come first and count whole, the others fill what is left,
// the last in part; the prefix that fits is found by scanning forward from
// the parent's (fits). The other resources and the precedences only cut
// sets further, so the bound holds for the sets the search looks for.
type knapsack struct {
	r int // the ordering resource (−1: none)
	// dem[x] and wt[x] sum r's demand and the weight of cand[:x].
	dem []int64
	wt  []float64
	// cap is r's capacity; work what ordering cost, in work units.
	cap  int64
	work int64
}

// knapsackOrder sorts cand for the search and returns its bound; y are
// the weights and use the demand of the required tasks. The ordering
// resource is the one the candidates oversubscribe most: the largest
// total demand over the capacity left. Without resources the candidates
// go by decreasing weight and the bound is the weight left.
func (lb *lpBound) knapsackOrder(cand []int, y []float64, use []int64) *knapsack {
	p := lb.p
	kb := &knapsack{r: -1, dem: make([]int64, len(cand)+1), wt: make([]float64, len(cand)+1)}
	var most float64
	for r := range p.k {
		var sum int64
		for _, i := range cand {
			sum += p.demand(i)[r]
		}
		if v := float64(sum) / float64(max(1, p.cap[r]-use[r])); kb.r < 0 || v > most {
			kb.r, most = r, v
		}
	}
	kb.work = int64(len(cand) * (p.k + 1))
	r := kb.r
	demand := func(i int) int64 {
		if r < 0 {
			return 0
		}
		return p.demand(i)[r]
	}
	slices.SortFunc(cand, func(a, c int) int {
		// y_a/d_a > y_c/d_c first, compared without division (a task
		// without demand for r has ratio +∞); then by weight, task.
		da, dc := demand(a), demand(c)
		switch {
		case da == 0 && dc > 0:
			return -1
		case dc == 0 && da > 0:
			return 1
		}
		if v := cmp.Compare(y[c]*float64(da), y[a]*float64(dc)); v != 0 {
			return v
		}
		if v := cmp.Compare(y[c], y[a]); v != 0 {
			return v
		}
		return cmp.Compare(a, c)
	})
	if r >= 0 {
		kb.cap = p.cap[r]
	}
	for x, i := range cand {
		kb.dem[x+1] = kb.dem[x] + demand(i)
		kb.wt[x+1] = kb.wt[x] + y[i]
	}
	return kb
}

// taken returns the ordering resource's units taken in use (0 without
// resources).
func (kb *knapsack) taken(use []int64) int64 {
	if kb.r < 0 {
		return 0
	}
	return use[kb.r]
}

// fits returns the last prefix end e ≥ from with dem[e] ≤ limit; limit is
// at least dem[from]. The search passes the parent's e as from: limit
// stays when a candidate is taken and grows when one is left out.
func (kb *knapsack) fits(from int, limit int64) int {
	e := from
	for e+1 < len(kb.dem) && kb.dem[e+1] <= limit {
		e++
	}
	return e
}

// bound returns the most weight the candidates at positions ≥ x can add
// when the first e of the order fit in limit, the prefix demand that fits
// (fits): the fractional knapsack optimum.
func (kb *knapsack) bound(x, e int, limit int64) float64 {
	v := kb.wt[e] - kb.wt[x]
	if e+1 < len(kb.dem) {
		d := kb.dem[e+1] - kb.dem[e]
		v += (kb.wt[e+1] - kb.wt[e]) * float64(limit-kb.dem[e]) / float64(d)
	}
	return v
}
