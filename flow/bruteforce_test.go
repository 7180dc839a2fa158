package flow

import (
	"math/big"
	"slices"
)

// rank returns ρ(S), the most machines the user set S (a bitmask) can
// hold together: the minimum cut of its network (ALGORITHMS.md §5.2),
// min_{B⊆S} [d(B) + Σ_t min(c_t, Σ_{u∈S∖B, t∈N(u)} cap_{u,t})], with an
// uncapped arc counting as infinite (so a type any such user reaches
// without a cap costs c_t: the classic d(B) + c(N(S∖B))); by brute force
// over subsets.
func rank(p *Problem, S int) int64 {
	const inf = int64(1) << 40
	best := int64(-1)
	for B := S; ; B = (B - 1) & S {
		var v int64
		edges := make([]int64, len(p.Types)) // Σ caps from S∖B into each type
		for u := range p.Users {
			if B&(1<<u) != 0 {
				d := p.Users[u].Demand
				if d == Unbounded {
					d = inf
				}
				v += d
			} else if S&(1<<u) != 0 {
				for k, t := range p.Users[u].Types {
					e := p.Users[u].typeCap(k)
					if e == Unbounded {
						e = inf
					}
					edges[t] = min(edges[t]+e, inf)
				}
			}
		}
		for t, c := range p.Types {
			v += min(c, edges[t])
		}
		if best < 0 || v < best {
			best = v
		}
		if B == 0 {
			break
		}
	}
	return best
}

// bruteDivisible computes the weighted lex-optimal base by Fujishige's
// decomposition with brute-force rank: repeatedly the highest λ with
// x(S) ≤ ρ(S) for all S, freezing the union of the tight sets.
func bruteDivisible(p *Problem) []*big.Rat {
	n := len(p.Users)
	x := make([]*big.Rat, n)
	frozen := make([]bool, n)
	ranks := make([]int64, 1<<n)
	for S := 1; S < 1<<n; S++ {
		ranks[S] = rank(p, S)
	}
	for {
		var lam *big.Rat
		for S := 1; S < 1<<n; S++ {
			fixed, w := new(big.Rat), int64(0)
			for u := 0; u < n; u++ {
				if S&(1<<u) == 0 {
					continue
				}
				if frozen[u] {
					fixed.Add(fixed, x[u])
				} else {
					w += p.Users[u].Weight
				}
			}
			if w == 0 {
				continue
			}
			r := new(big.Rat).Sub(big.NewRat(ranks[S], 1), fixed)
			r.Quo(r, big.NewRat(w, 1))
			if lam == nil || r.Cmp(lam) < 0 {
				lam = r
			}
		}
		if lam == nil {
			return x
		}
		// freeze every active user in a set tight at lam
		tight := 0
		for S := 1; S < 1<<n; S++ {
			sum := new(big.Rat)
			active := false
			for u := 0; u < n; u++ {
				if S&(1<<u) == 0 {
					continue
				}
				if frozen[u] {
					sum.Add(sum, x[u])
				} else {
					active = true
					sum.Add(sum, new(big.Rat).Mul(lam, big.NewRat(p.Users[u].Weight, 1)))
				}
			}
			if active && sum.Cmp(big.NewRat(ranks[S], 1)) == 0 {
				tight |= S
			}
		}
		for u := 0; u < n; u++ {
			if tight&(1<<u) != 0 && !frozen[u] {
				frozen[u] = true
				x[u] = new(big.Rat).Mul(lam, big.NewRat(p.Users[u].Weight, 1))
			}
		}
	}
}

// bruteIntegral returns the leximin-optimal sorted level vector over all
// integral allocations, by enumeration (feasible iff x(S) ≤ ρ(S) ∀S).
func bruteIntegral(p *Problem) []*big.Rat {
	n := len(p.Users)
	ranks := make([]int64, 1<<n)
	for S := 1; S < 1<<n; S++ {
		ranks[S] = rank(p, S)
	}
	var best []*big.Rat
	x := make([]int64, n)
	var rec func(u int)
	rec = func(u int) {
		if u == n {
			for S := 1; S < 1<<n; S++ {
				var s int64
				for v := 0; v < n; v++ {
					if S&(1<<v) != 0 {
						s += x[v]
					}
				}
				if s > ranks[S] {
					return
				}
			}
			lv := sortedLevels(p, x)
			if best == nil || lexLess(best, lv) {
				best = lv
			}
			return
		}
		for x[u] = 0; x[u] <= ranks[1<<u]; x[u]++ {
			rec(u + 1)
		}
		x[u] = 0
	}
	rec(0)
	return best
}

func sortedLevels(p *Problem, x []int64) []*big.Rat {
	lv := make([]*big.Rat, len(x))
	for u := range x {
		lv[u] = big.NewRat(x[u], p.Users[u].Weight)
	}
	slices.SortFunc(lv, func(a, b *big.Rat) int { return a.Cmp(b) })
	return lv
}

// lexLess reports whether sorted vector a is lexicographically below b.
func lexLess(a, b []*big.Rat) bool {
	for i := range a {
		if c := a[i].Cmp(b[i]); c != 0 {
			return c < 0
		}
	}
	return false
}
