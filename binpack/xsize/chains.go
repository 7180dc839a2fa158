package xsize

import (
	"cmp"
	"math"
	"slices"

	"github.com/capplan/capplan/binpack"
)

// rayFamily is the PTAS candidate family for one ε: the containers reachable
// on the lines, each replaced by its shrunk (tight) shape.
type rayFamily struct {
	cands  []candidate // distinct shapes, sorted by (cost, lex)
	chains []int       // per chain, the candidates it contributed first
	lines  int
}

// rayFamily builds the candidates of the lines for ε (see lines.go).
//
// On the line through u a container at position s dominates class p iff
// s ≥ τ_u(p) = max_d p̂_d/u_d, so containers on one line are nested and the
// useful positions are the values τ_u(p_i) (slide a container down until it
// touches its tightest member). Each position's container is replaced by the
// coordinate-wise max g of the classes it dominates: g dominates the same
// classes, costs no more, fits a node type whenever the line point does,
// and is compared with requests in exact real units. Distinct positions give
// a nested chain of candidates.
//
// Node-fit repair (§1.4, "node-fit repair"; this part departs from the
// spec's snap-the-other-way / private-point steps, which need the whole
// grid): once g fits no node type, the line's chain stops and, for each
// maximal node type N, a clipped chain continues with g_N(s) = max{p ≤ N :
// τ_u(p) ≤ s}, the shrink of min(s·u, N). It fits N, costs no more than
// s·u, and dominates every class ≤ N that s·u dominates. With eligibility
// (eligibility.go) the tops N are the meets of node types, each clipped
// chain starts where g stops fitting its top, and it holds the classes the
// top may serve.
//
// Guarantee: let c* be a container of an optimum, fitting node type N (with
// eligibility: ≤ the meet M of the node types its group uses), with group
// G, and u a line with support supp(c*) within 1+ε of c*. At s* =
// max_{p∈G} τ_u(p) ≤ τ_u(c*), the line's candidate (or, if it does not fit
// N — with eligibility M —, the clipped one for N or M) covers G and costs
// at most s*·‖u‖₁ ≤ (1+ε)·cost(c*). So the family's optimum, found exactly
// by coverDP, is at most (1+ε)·OPT.
func (in *instance) rayFamily(eps float64) rayFamily {
	lines := in.lines(eps)
	f := rayFamily{lines: len(lines)}
	seen := map[string]bool{} // lookup only; never iterated
	var order []int
	tau := make([]float64, in.n())
	addChain := func(members []int, from float64) {
		got := 0
		g := make([]float64, in.dim)
		for a := 0; a < len(members); {
			b := a
			for b < len(members) && tau[members[b]] == tau[members[a]] {
				for d, x := range in.size[members[b]] {
					g[d] = max(g[d], x)
				}
				b++
			}
			pos := tau[members[a]]
			a = b
			if pos < from {
				continue
			}
			if !in.fitsNode(g) {
				break
			}
			if key := shapeKey(g); !seen[key] {
				seen[key] = true
				c := slices.Clone(g)
				f.cands = append(f.cands, candidate{shape: c, cost: in.costOf(c), cover: in.coverOf(c)})
				got++
			}
		}
		f.chains = append(f.chains, got)
	}
	for _, u := range lines {
		order = order[:0]
		for i, s := range in.size {
			tau[i] = math.Inf(1)
			t := 0.0
			ok := true
			for d, x := range s {
				if x == 0 {
					continue
				}
				if u[d] == 0 {
					ok = false
					break
				}
				t = max(t, x/in.scale[d]/u[d])
			}
			if ok {
				tau[i] = t
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tau[a], tau[b]) })
		addChain(order, math.Inf(-1))
		// Where the line's own chain stops fitting a top (a node type, or
		// with eligibility a meet of node types), continue on the chain
		// clipped to it. Without eligibility only the position where it
		// fits no node type at all matters.
		for _, M := range in.tops {
			fail := in.leaves(order, tau, M)
			if math.IsInf(fail, 1) {
				continue
			}
			sub := slices.DeleteFunc(slices.Clone(order), func(i int) bool { return !in.clipsTo(M, i) })
			addChain(sub, fail)
		}
	}
	in.sortCandidates(f.cands)
	return f
}

// leaves returns the first position of the line (classes in order, at
// positions tau) at which its shrunk container no longer fits M, or +Inf.
// Without eligibility that is where it fits no node type at all, the same
// for every M.
func (in *instance) leaves(order []int, tau []float64, M []float64) float64 {
	g := make([]float64, in.dim)
	for _, i := range order {
		for d, x := range in.size[i] {
			g[d] = max(g[d], x)
		}
		if in.constrained && !binpack.Dominates(M, g) || !in.constrained && !in.fitsNode(g) {
			return tau[i]
		}
	}
	return math.Inf(1)
}

// clipsTo reports whether class i belongs to the chain clipped to M: it
// fits M, and with eligibility M also fits a node type it may use.
func (in *instance) clipsTo(M []float64, i int) bool {
	if !in.constrained {
		return binpack.Dominates(M, in.size[i])
	}
	return in.serves(M, i)
}

// shapeKey is an exact map key for a shape.
func shapeKey(v []float64) string {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		u := math.Float64bits(x)
		for range 8 {
			b = append(b, byte(u))
			u >>= 8
		}
	}
	return string(b)
}
