package xsize

import (
	"math"
	"math/bits"
	"slices"

	"github.com/capplan/capplan/binpack/internal/work"
)

// improveTol: the cover DP only pursues completions whose bound is below
// the incumbent by more than this relative amount; closer ties are float
// noise in sums of the same products.
const improveTol = 1e-12

// coverDP is the exact "DP on K" over a finite candidate family, the engine
// behind the PTAS on rays (ALGORITHMS.md §1.4) and MaxDP with several node
// types. Given candidates sorted in a total order (cost, then shape), each
// with its set of dominated classes, it finds ≤ K of them covering every
// class with minimum Σ_i w_i·cost(first chosen candidate covering i) — the
// true cost, since the first in cost order is the cheapest.
//
// States are (covered set S, k, last), last being the most recently added
// candidate. Containers are added in increasing order (the total order
// keeps cost ties, §1.4 pitfall 3), and a transition adds a later candidate
// that covers something new, charging its cost to the newly covered weight.
// Any optimal set, sorted and stripped of members that cover nothing new,
// is such a path, so the DP is exact. This is the profile DP of §1.4 with
// the profiles that cover the same classes merged: on a family of nested
// chains the covered set and last are fixed by the profile, so there are at
// most K·Σ_{r≤K} e_r(n_1..n_L) states (stateBound). States are expanded
// bucket by bucket in order of last, so each is final when expanded.
//
// Branch and bound keeps it practical. A state is dropped when its cost g
// plus a lower bound h on the rest reaches the incumbent ub: h is the
// larger of Σ_{i∉S} w_i·(cost of the first candidate after last covering
// i) and, if multipliers u are given, the Lagrangian bound of the residual
// problem (lagBound). States with one container left are completed
// directly by the first later candidate covering the rest, and complete
// solutions lower ub as they appear. The result is min(ub, optimum over the
// family) up to improveTol. Stored states are capped (StatusRefused), as is
// the memory of the per-class tables (maxNextWork), and the work counter
// (one unit per state expanded) stops the run when the PTAS's MaxWork
// or TimeLimit ends (StatusBudget, StatusTimeLimit). Time per expansion
// O(m·n/64) plus the bounds.
type coverDP struct {
	w         []float64
	cands     []candidate
	K         int
	maxStates int64
	// work counts the states expanded; nil means no work limit (MaxDP).
	work *work.Counter
	ub   float64
	// u, if not nil, are Lagrange multipliers (subgradient) for the
	// per-state Lagrangian bound; any u gives a valid bound.
	u []float64
}

type coverResult struct {
	chosen []int   // candidate indices of the best solution below ub
	cost   float64 // its cost (ub if none was found)
	states int64
	status string // StatusDone, StatusRefused, StatusBudget, StatusTimeLimit
}

// maxNextWork caps (m+1)·n, the floats of the DP's next-cost table; a
// larger family is refused before any state is stored.
const maxNextWork = 2e7

func (dp *coverDP) run() coverResult {
	n, m := len(dp.w), len(dp.cands)
	maxStates := min(dp.maxStates, math.MaxInt32/2) // state ids are int32
	if float64(m+1)*float64(n) > maxNextWork {
		return coverResult{cost: dp.ub, status: StatusRefused}
	}
	if dp.work == nil {
		dp.work = work.New(math.MaxInt64, 0)
	}
	nw := words(n)
	all := full(n)
	// next[c][i]: cost of the first candidate ≥ c covering i (+Inf if none).
	next := make([][]float64, m+1)
	next[m] = make([]float64, n)
	for i := range n {
		next[m][i] = math.Inf(1)
	}
	for c := m - 1; c >= 0; c-- {
		next[c] = append([]float64(nil), next[c+1]...)
		dp.cands[c].cover.each(func(i int) { next[c][i] = dp.cands[c].cost })
	}
	bound := func(s bitset, from int) float64 {
		h, nf := 0.0, next[from]
		for wi, x := range s {
			x = ^x & all[wi]
			for x != 0 {
				i := wi<<6 | bits.TrailingZeros64(x)
				h += dp.w[i] * nf[i]
				x &= x - 1
			}
		}
		return h
	}
	lag := dp.newLagBound()
	coverers := make([][]int32, n) // per class, the candidates covering it, ascending
	for c, cd := range dp.cands {
		cd.cover.each(func(i int) { coverers[i] = append(coverers[i], int32(c)) })
	}
	a := &dpArena{nw: nw, table: make([]int32, 1024)}
	for i := range a.table {
		a.table[i] = -1
	}
	a.add(newBitset(n), 0, -1, 0, 0, -1)
	buckets := make([][]int32, m)
	res := coverResult{cost: dp.ub, status: StatusDone}
	bestParent, bestLast := int32(-1), int32(-1)
	limit := dp.ub * (1 - improveTol)
	improve := func(g float64, parent, last int32) {
		if g < limit {
			dp.ub, limit = g, g*(1-improveTol)
			bestParent, bestLast = parent, last
		}
	}
	scratch := newBitset(n)
	// push records the transition parent --c--> (s, k, g).
	newly := newBitset(n)
	loaded := false // lag holds the expanding state's ρ
	push := func(s bitset, k int8, c int32, g float64, parent int32) {
		if equalSet(s, all) {
			improve(g, parent, c)
			return
		}
		if int(k) >= dp.K {
			return
		}
		if int(k) == dp.K-1 { // one container left: the first later one covering the rest
			// The simple bound, and the uncovered class with the fewest
			// covering candidates: only those need checking.
			h, i0, nf := 0.0, -1, next[int(c)+1]
			for wi, x := range s {
				for x = ^x & all[wi]; x != 0; x &= x - 1 {
					i := wi<<6 | bits.TrailingZeros64(x)
					h += dp.w[i] * nf[i]
					if i0 < 0 || len(coverers[i]) < len(coverers[i0]) {
						i0 = i
					}
				}
			}
			if g+h >= limit {
				return
			}
			list := coverers[i0]
			from, _ := slices.BinarySearch(list, int32(c)+1)
			for _, c2 := range list[from:] {
				cd := &dp.cands[c2]
				if coversRest(cd.cover, s, all) {
					if total := g + cd.cost*weightAndNot(cd.cover, s, dp.w); total < limit {
						improve(total, a.addOnce(s, k, c, g, parent), c2)
					}
					return
				}
			}
			return
		}
		if id, _ := a.lookup(s, k, c); id >= 0 { // its bound a.h[id] is already known
			if g < a.g[id] {
				a.g[id], a.parent[id] = g, parent
			}
			return
		}
		h := bound(s, int(c)+1)
		if g+h >= limit {
			return
		}
		if lag != nil {
			if !loaded {
				lag.load(a.set(parent), int(c)+1)
				loaded = true
			}
			if h = max(h, lag.child(newly, int(c)+1, dp.K-int(k))); g+h >= limit {
				return
			}
		}
		buckets[c] = append(buckets[c], a.add(s, k, c, g, h, parent))
	}
	expand := func(id int32) {
		s := append(bitset(nil), a.set(id)...)
		k, last, g := a.k[id], int(a.last[id]), a.g[id]
		if g+a.h[id] >= limit {
			return
		}
		rest := weightAndNot(all, s, dp.w)
		loaded = false
		for c := last + 1; c < m; c++ {
			cd := &dp.cands[c]
			if g+rest*cd.cost >= limit { // later candidates cost at least as much
				return
			}
			add := weightAndNot(cd.cover, s, dp.w)
			if add == 0 {
				continue
			}
			for i := range newly {
				newly[i] = cd.cover[i] &^ s[i]
			}
			push(orInto(scratch, s, cd.cover), k+1, int32(c), g+add*cd.cost, id)
		}
	}
	dp.work.Add(1)
	expand(0)
	for c := range m {
		for _, id := range buckets[c] {
			if int64(len(a.k)) > maxStates {
				res.status, res.states = StatusRefused, int64(len(a.k))
				return res
			}
			if dp.work.Done() {
				res.status, res.states = cutStatus(dp.work), int64(len(a.k))
				return res
			}
			dp.work.Add(1)
			expand(id)
		}
		buckets[c] = nil
	}
	res.states = int64(len(a.k))
	if bestLast >= 0 {
		res.cost = dp.ub
		res.chosen = []int{int(bestLast)}
		for id := bestParent; id > 0; id = a.parent[id] {
			res.chosen = append(res.chosen, int(a.last[id]))
		}
	}
	return res
}

// stateBound returns K·Σ_{r=0..K} e_r(n_1..n_L), the number of profiles
// with at most K non-empty chains times K: an a-priori bound on the states
// of the DP over L nested chains of n_j candidates each.
func stateBound(chainSizes []int, K int) float64 {
	e := make([]float64, K+1) // elementary symmetric polynomials, truncated at K
	e[0] = 1
	for _, nj := range chainSizes {
		for r := K; r >= 1; r-- {
			e[r] += e[r-1] * float64(nj)
		}
	}
	s := 0.0
	for _, x := range e {
		s += x
	}
	return min(s*float64(K), math.MaxFloat64) // finite, so it encodes as JSON
}

// coversRest reports whether cover ⊇ all \ s.
func coversRest(cover, s, all bitset) bool {
	for i, x := range all {
		if x&^s[i]&^cover[i] != 0 {
			return false
		}
	}
	return true
}
