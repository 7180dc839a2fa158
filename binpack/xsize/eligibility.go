package xsize

import (
	"slices"

	"github.com/capplan/capplan/binpack"
)

// Eligibility (placement constraints).
//
// A request may be limited to some node types (Request.Nodes: the machines
// its application may use, by selector, minCapacity and taints). A shape c
// then serves class i only if c dominates i and c fits some node type i may
// use: c ≥ p_i and ∃N ∈ E_i: c ≤ N. That is the only change to the
// problem; every solver works on this "covers" relation:
//
//   - the cover DP and the exhaustive search are exact for any relation
//     between shapes and classes, and Cheapest charges each class its
//     cheapest covering shape;
//   - the shrink lemma still holds: the coordinate-wise max g of a shape's
//     members is ≤ the shape, so it fits the same node types and still
//     covers its members; so the tight grid still holds an optimum (Exact)
//     and finalize and the local search keep feasibility;
//   - the PTAS and MaxDP clip their candidate chains to every meet of node
//     types (the coordinate-wise minimum of a set of node types). If an
//     optimal shape c* serves its group G with node types N_i ∈ E_i, then
//     c* ≤ M = min_i N_i, and the chain clipped to M has a candidate that
//     dominates G, is ≤ M (so it fits every N_i: it covers G) and costs at
//     most (1+ε)·cost(c*) (PTAS; cost(c*) for MaxDP). The (1+ε) guarantee
//     therefore holds against the optimum of the constrained problem: the
//     cheapest K shapes such that every request has a shape that dominates
//     it and fits a node type it may use.
//
// Without constraints (no request excludes a node type that could hold it)
// the meets are not needed: the maximal node types suffice, as before, and
// the results are unchanged.

// maxMeets caps the meet closure of the node types that the PTAS and MaxDP
// enumerate (openb's 27 node shapes have 66 meets).
const maxMeets = 4096

// setupEligibility fills the per-class eligible node types and the tops:
// the maximal node types without constraints, else the meets of node types
// (every node type included) that serve some class and are not made
// redundant by a larger one serving at least the same classes.
func (in *instance) setupEligibility(eligOf [][]int) {
	nodes := in.p.Nodes
	in.elig = make([][][]float64, in.n())
	for i, e := range eligOf {
		if e == nil {
			continue
		}
		var mine, all [][]float64
		for j, N := range nodes {
			if !binpack.Dominates(N, in.size[i]) {
				continue
			}
			all = append(all, N)
			if slices.Contains(e, j) {
				mine = append(mine, N)
			}
		}
		mine, all = maximalVectors(mine), maximalVectors(all)
		bound := false
		for _, N := range all {
			if binpack.FirstFit(N, mine) < 0 {
				bound = true // some node type that holds i is out of its reach
				break
			}
		}
		if bound {
			in.elig[i] = mine
			in.constrained = true
		}
	}
	if !in.constrained {
		in.tops = in.nodes
		return
	}
	var closure [][]float64   // distinct node types, then their meets
	seen := map[string]bool{} // lookup only
	for _, N := range nodes {
		if k := shapeKey(N); !seen[k] {
			seen[k] = true
			closure = append(closure, N)
		}
	}
	for a := 0; a < len(closure) && len(closure) <= maxMeets; a++ {
		for b := 0; b < a; b++ {
			m := make([]float64, in.dim)
			for d := range m {
				m[d] = min(closure[a][d], closure[b][d])
			}
			if k := shapeKey(m); !seen[k] {
				seen[k] = true
				closure = append(closure, m)
			}
		}
	}
	if len(closure) > maxMeets {
		in.meetsCapped = true
		closure = closure[:0]
		for _, N := range nodes { // each node type alone still serves
			closure = append(closure, N)
		}
	}
	// Keep the meets that serve some class and are not redundant: M is
	// dropped when another top M' ≥ M serves every class M serves (the
	// chain clipped to M' then covers whatever the one clipped to M would:
	// a shape ≤ M' fits a node type each of those classes may use).
	served := make([]bitset, len(closure))
	for a, M := range closure {
		served[a] = newBitset(in.n())
		for i := range in.size {
			if in.serves(M, i) {
				served[a].set(i)
			}
		}
	}
	for a, M := range closure {
		if served[a].count() == 0 {
			continue
		}
		redundant := false
		for b, M2 := range closure {
			if b != a && binpack.Dominates(M2, M) && served[a].subsetOf(served[b]) {
				redundant = true
				break
			}
		}
		if !redundant {
			in.tops = append(in.tops, M)
		}
	}
}

// eligible reports whether shape c fits a node type class i may use (any
// node type when i is unconstrained).
func (in *instance) eligible(c []float64, i int) bool {
	if in.elig == nil || in.elig[i] == nil {
		return in.fitsNode(c)
	}
	return binpack.FirstFit(c, in.elig[i]) >= 0
}

// covers reports whether shape c serves class i: it dominates the class
// and fits a node type the class may use.
func (in *instance) covers(c []float64, i int) bool {
	return binpack.Dominates(c, in.size[i]) && in.eligible(c, i)
}

// serves reports whether a shape clipped to M (a top: a node type or a
// meet of node types) may serve class i: i ≤ M, and M fits a node type i
// may use.
func (in *instance) serves(M []float64, i int) bool { return in.covers(M, i) }

// cheapest returns the cheapest of shapes covering class i (ties → lowest
// index), or -1.
func (in *instance) cheapest(i int, shapes [][]float64, costs []float64) int {
	if in.elig == nil || in.elig[i] == nil {
		return binpack.Cheapest(in.size[i], shapes, costs)
	}
	return binpack.CheapestAllowed(in.size[i], shapes, costs, func(j int) bool { return in.eligible(shapes[j], i) })
}
