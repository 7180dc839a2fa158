package xselect

import (
	"math"
	"sort"
)

// instance holds the derived, read-only data every probe shares.
type instance struct {
	p          *Problem
	nn, na, nk int
	nd         int
	// vol[k] is the normalised volume Σ_d c_{k,d}/T_d of shape k, where
	// T_d is the total capacity in dimension d (dimensions with T_d = 0
	// are skipped).
	vol []float64
	// capVol[n] is the normalised volume of node n's capacity.
	capVol []float64
	// elig[a][n] says whether app a may use node n.
	elig [][]bool
	// eligNodes[a] lists a's eligible nodes in packing order.
	eligNodes [][]int
	// appsOf[n] lists the apps eligible on node n.
	appsOf [][]int
	// order is the greedy node order.
	order []int
	// slack[n][d] is the fit slack packTol·cap_{n,d}.
	slack [][]float64
}

func newInstance(p *Problem) *instance {
	in := &instance{p: p, nn: len(p.Nodes), na: len(p.Apps), nk: len(p.Shapes), nd: len(p.Dims)}
	total := make([]float64, in.nd)
	for _, n := range p.Nodes {
		for d, v := range n.Capacity {
			total[d] += v
		}
	}
	norm := func(v []float64) float64 {
		s := 0.0
		for d, x := range v {
			if total[d] > 0 { // a dimension no node offers adds no volume
				s += x / total[d]
			}
		}
		return s
	}
	in.vol = make([]float64, in.nk)
	for k, s := range p.Shapes {
		in.vol[k] = norm(s)
	}
	in.capVol = make([]float64, in.nn)
	in.slack = make([][]float64, in.nn)
	for n, node := range p.Nodes {
		in.capVol[n] = norm(node.Capacity)
		in.slack[n] = make([]float64, in.nd)
		for d, c := range node.Capacity {
			in.slack[n][d] = packTol * c
		}
	}
	in.elig = make([][]bool, in.na)
	in.appsOf = make([][]int, in.nn)
	for a, app := range p.Apps {
		in.elig[a] = make([]bool, in.nn)
		if app.Eligible == nil {
			for n := range in.elig[a] {
				in.elig[a][n] = true
			}
		} else {
			for _, n := range app.Eligible {
				in.elig[a][n] = true
			}
		}
		for n, ok := range in.elig[a] {
			if ok {
				in.appsOf[n] = append(in.appsOf[n], a)
			}
		}
	}
	// Node order (ALGORITHMS §2.4): nodes open to the fewest applications
	// first, so that scarce nodes serve the applications that need them;
	// then the largest normalised capacity; then the index.
	in.order = make([]int, in.nn)
	for n := range in.order {
		in.order[n] = n
	}
	sort.SliceStable(in.order, func(i, j int) bool {
		x, y := in.order[i], in.order[j]
		if len(in.appsOf[x]) != len(in.appsOf[y]) {
			return len(in.appsOf[x]) < len(in.appsOf[y])
		}
		return in.capVol[x] > in.capVol[y]
	})
	in.eligNodes = make([][]int, in.na)
	for _, n := range in.order {
		for _, a := range in.appsOf[n] {
			in.eligNodes[a] = append(in.eligNodes[a], n)
		}
	}
	return in
}

// fits reports whether shape k fits into free space free of node n.
func (in *instance) fits(k, n int, free []float64) bool {
	for d, v := range in.p.Shapes[k] {
		if v > free[d]+in.slack[n][d] {
			return false
		}
	}
	return true
}

// LambdaUpper returns an upper bound on the multiplier any packing can
// reach (ALGORITHMS §2.3 step 1, made valid for rounded counts): the largest
// breakpoint λ (or 0) whose required set n_{a,k} = ⌊λ·m_{a,k}⌋ passes the
// necessary tests, in every dimension d,
//
//	Σ_a Σ_k n_{a,k} c_{k,d} ≤ Σ_n cap_{n,d}            (all nodes),
//	Σ_k n_{a,k} c_{k,d}     ≤ Σ_{n∈E_a} cap_{n,d}      (each app a),
//
// and shape k fits an empty eligible node of a whenever n_{a,k} > 0. It
// starts from the fluid bound (the same sums with λ·m_{a,k} in place of
// n_{a,k}, which the rounded set always passes), capped below 1/m_{a,k} for
// unfittable pairs, and walks up the breakpoints while the tests pass. It is
// +Inf when every mix is zero. It assumes p is valid. Cost O(N·A·d + W·A·K·d)
// for W breakpoints walked (at most about A·K in practice; the walk stops
// after maxWalk steps and then returns the breakpoint above, still a bound
// only approximately).
func LambdaUpper(p *Problem) float64 {
	return lambdaUpper(newInstance(p))
}

// maxWalk caps the breakpoint walk of lambdaUpper.
const maxWalk = 1 << 20

func lambdaUpper(in *instance) float64 {
	p := in.p
	s := &searcher{in: in}
	appCap := make([][]float64, in.na)
	totCap := make([]float64, in.nd)
	for _, node := range p.Nodes {
		for d, v := range node.Capacity {
			totCap[d] += v
		}
	}
	fluid := math.Inf(1)
	unfit := make([][]bool, in.na)
	totNeed := make([]float64, in.nd)
	for a, app := range p.Apps {
		appCap[a] = make([]float64, in.nd)
		for _, n := range in.eligNodes[a] {
			for d, v := range p.Nodes[n].Capacity {
				appCap[a][d] += v
			}
		}
		need := make([]float64, in.nd)
		unfit[a] = make([]bool, in.nk)
		for k, m := range app.Mix {
			if m <= 0 {
				continue
			}
			for d, v := range p.Shapes[k] {
				need[d] += m * v
			}
			unfit[a][k] = true
			for _, n := range in.eligNodes[a] {
				if in.fits(k, n, p.Nodes[n].Capacity) {
					unfit[a][k] = false
					break
				}
			}
			if unfit[a][k] {
				fluid = math.Min(fluid, s.prev(1/m))
			}
		}
		for d := range need {
			if need[d] > 0 { // a dimension nobody needs does not bound λ
				fluid = math.Min(fluid, appCap[a][d]/need[d])
			}
			totNeed[d] += need[d]
		}
	}
	for d := range totNeed {
		if totNeed[d] > 0 {
			fluid = math.Min(fluid, totCap[d]/totNeed[d])
		}
	}
	if math.IsInf(fluid, 1) {
		return fluid
	}
	passes := func(lambda float64) bool {
		tot := make([]float64, in.nd)
		for a, app := range p.Apps {
			use := make([]float64, in.nd)
			for k, m := range app.Mix {
				c := Count(lambda, m)
				if c == 0 {
					continue
				}
				if unfit[a][k] {
					return false
				}
				for d, v := range p.Shapes[k] {
					use[d] += float64(c) * v
				}
			}
			for d := range use {
				if use[d] > appCap[a][d]*(1+packTol) {
					return false
				}
				tot[d] += use[d]
			}
		}
		for d := range tot {
			if tot[d] > totCap[d]*(1+packTol) {
				return false
			}
		}
		return true
	}
	cur := s.snap(fluid)
	for range maxWalk {
		nb := s.next(cur)
		if math.IsInf(nb, 1) || !passes(nb) {
			return cur
		}
		cur = nb
	}
	return s.next(cur)
}
