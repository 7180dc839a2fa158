package xselect

import "math"

// LambdaUpper returns an upper bound on the multiplier any valid plan can
// reach (ALGORITHMS §2.3 step 1, made valid for rounded counts and for
// the placement rules): the largest breakpoint λ (or 0) whose required set
// n_{a,k} = ⌊λ·m_{a,k}⌋ passes the necessary tests, in every dimension d,
//
//	Σ_a Σ_k n_{a,k} c_{k,d}          ≤ Σ_n cap_{n,d}        (all nodes),
//	Σ_{b: E_b ⊆ E_a} Σ_k n_{b,k} c_{k,d} ≤ Σ_{n∈E_a} cap_{n,d}  (each app a),
//	Σ_k n_{a,k}                      ≤ MaxPerNode_a·|E_a|   (capped apps),
//
// and shape k fits an empty node of E_a whenever n_{a,k} > 0. Here E_a is
// the set of nodes a container of a may ever use: eligible for a and for
// every application a must be colocated with (transitively), and empty if
// two of those applications are exlocated; the second test is the
// per-eligibility-class bound of ALGORITHMS §2.3 (the containers that can
// only go to E_a must fit there). Each test holds for any plan
// holding at least the required set, and each only gets harder as λ
// grows, so walking the breakpoints up while they pass never skips a
// feasible λ. The walk starts from the fluid bound (the same sums with
// λ·m_{a,k} in place of n_{a,k}, which the rounded set always passes),
// capped below 1/m_{a,k} for unfittable pairs. It is +Inf when every mix is
// zero. It assumes p is valid. Cost O(N·A·(d + closure) + W·A·K·d) for W
// breakpoints walked (at most about A·K in practice; the walk stops after
// maxWalk steps and then returns the breakpoint above, still a bound only
// approximately). The subset tests add O(A²·N).
func LambdaUpper(p *Problem) float64 {
	return lambdaUpper(newInstance(p))
}

// maxWalk caps the breakpoint walk of lambdaUpper.
const maxWalk = 1 << 20

// lambdaUpper computes LambdaUpper on in, which must have every node
// active.
func lambdaUpper(in *instance) float64 {
	p := in.p
	s := &searcher{full: in, in: in}
	appCap := make([][]float64, in.na)
	appNodes := make([]int, in.na)
	fluid := math.Inf(1)
	unfit := make([][]bool, in.na)
	totNeed := make([]float64, in.nd)
	needs := make([][]float64, in.na)
	for a, app := range p.Apps {
		appCap[a] = make([]float64, in.nd)
		appNodes[a] = len(in.eligNodes[a])
		for _, n := range in.eligNodes[a] {
			for d, v := range p.Nodes[n].Capacity {
				appCap[a][d] += v
			}
		}
		need := make([]float64, in.nd)
		unfit[a] = make([]bool, in.nk)
		mixSum := 0.0
		for k, m := range app.Mix {
			if m <= 0 {
				continue
			}
			mixSum += m
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
		if in.cap[a] > 0 && mixSum > 0 {
			fluid = math.Min(fluid, float64(in.cap[a]*appNodes[a])/mixSum)
		}
		needs[a] = need
		for d := range need {
			totNeed[d] += need[d]
		}
	}
	// inside[a] lists the apps b with a mix whose E_b ⊆ E_a (a included).
	inside := make([][]int, in.na)
	for a := range in.na {
		for b := range in.na {
			if totalMix(p.Apps[b].Mix) == 0 {
				continue
			}
			sub := b == a
			if !sub {
				sub = true
				for _, n := range in.eligNodes[b] {
					if !in.can[a][n] {
						sub = false
						break
					}
				}
			}
			if sub {
				inside[a] = append(inside[a], b)
			}
		}
		for d := range in.nd {
			need := 0.0
			for _, b := range inside[a] {
				need += needs[b][d]
			}
			if need > 0 { // a dimension nobody needs does not bound λ
				fluid = math.Min(fluid, appCap[a][d]/need)
			}
		}
	}
	for d := range totNeed {
		if totNeed[d] > 0 {
			fluid = math.Min(fluid, in.total[d]/totNeed[d])
		}
	}
	if math.IsInf(fluid, 1) {
		return fluid
	}
	uses := make([][]float64, in.na)
	for a := range uses {
		uses[a] = make([]float64, in.nd)
	}
	passes := func(lambda float64) bool {
		tot := make([]float64, in.nd)
		for a, app := range p.Apps {
			use := uses[a]
			clear(use)
			cnt := 0
			for k, m := range app.Mix {
				c := Count(lambda, m)
				if c == 0 {
					continue
				}
				if unfit[a][k] {
					return false
				}
				cnt += c
				for d, v := range p.Shapes[k] {
					use[d] += float64(c) * v
				}
			}
			if in.cap[a] > 0 && cnt > in.cap[a]*appNodes[a] {
				return false
			}
			for d := range use {
				tot[d] += use[d]
			}
		}
		for a := range p.Apps {
			for d := range in.nd {
				need := 0.0
				for _, b := range inside[a] {
					need += uses[b][d]
				}
				if need > appCap[a][d]*(1+packTol) {
					return false
				}
			}
		}
		for d := range tot {
			if tot[d] > in.total[d]*(1+packTol) {
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

func totalMix(mix []float64) float64 {
	s := 0.0
	for _, m := range mix {
		s += m
	}
	return s
}
