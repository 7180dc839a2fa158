package vbp

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// maxBoundSubsets caps the node type subsets whose constraints enter the
// lower bound (each costs one single-type LowerBound).
const maxBoundSubsets = 32

// irNodeLimit caps the search nodes of the integer node-count bound.
const irNodeLimit = 1 << 20

// lpMargin is the relative safety margin taken off the LP bound, which is
// evaluated in floating point from the simplex's dual prices.
const lpMargin = 1e-12

// MixedLowerBound returns a lower bound on the cost of every mixed packing
// of inst, and the value of each bound by name:
//
//   - "lp": the LP relaxation min Σ_t cost_t·x_t, 0 ≤ x_t ≤ Max_t, subject
//     to, for node type subsets S (every set of types that one item type
//     may use, that is, is allowed on (MixedInstance.Allowed) and fits;
//     all types; and unions of two such sets; at most maxBoundSubsets) and
//     the items I_S that may use only types of S:
//     Σ_{t∈S} cap_tk·x_t ≥ Σ_{i∈I_S} size_ik in every dimension k, and
//     Σ_{t∈S} x_t ≥ N_S, where N_S is the single-type LowerBound of I_S in
//     nodes of the componentwise largest capacity of S (no node of S holds
//     more). The value is certified from a dual feasible solution (gonum's
//     simplex on the dual, repaired and evaluated here), so numerical
//     error can only lower it.
//   - "integer": the same constraints with integer node counts x_t, solved
//     exactly by a depth-first enumeration with cost pruning; absent when
//     the enumeration exceeds irNodeLimit nodes. With equal costs this
//     rounds the node count up.
//   - "single-type": with one usable node type t (the others dominated or
//     usable by no item, see SolveMixed), cost_t times
//     LowerBound(...).Best of the instance on t.
//
// The returned bound is the largest value. Dominated types (see
// SolveMixed; a type dominates another only if every item that may use the
// other may use it too) and types no item may use are left out: some
// optimal packing never uses them. Errors: as for SolveMixed; Max
// limits that violate a constraint above give a *NodeLimitError with
// Proven set. An empty instance has bound 0.
//
// Cost O(S·n²·d) for the S single-type bounds, a simplex over T rows and
// S·(d+1) columns, and at most irNodeLimit enumeration nodes of O(S·d).
func MixedLowerBound(inst *MixedInstance) (float64, map[string]float64, error) {
	mp, err := newMixedProblem(inst)
	if err != nil {
		return 0, nil, err
	}
	b, err := mp.lowerBound()
	return b.lb, b.values, err
}

// lbRow is one covering constraint Σ_t coef[t]·x_t ≥ rhs (coef indexed by
// position in mp.active) over the types of set.
type lbRow struct {
	coef []int64
	rhs  int64
	set  []bool // by position in mp.active
	full bool   // set is every active type
	dim  int    // volume row of this dimension; -1 for a node-count row
}

// mixedBound is what lowerBound computes: the bound lb, the value of
// each bound by name, the LP dual price of each dimension's volume over
// all types (nil when the LP failed; SolveMixed weighs items by them), and
// the covering constraints (SolveMixed's quota greedy aims at their
// cheapest integer node counts).
type mixedBound struct {
	lb     float64
	values map[string]float64
	duals  []float64
	rows   []lbRow
}

// lowerBound computes MixedLowerBound's values and the rest of mixedBound.
func (mp *mixedProblem) lowerBound() (mixedBound, error) {
	bounds := map[string]float64{}
	if mp.n == 0 {
		bounds["lp"], bounds["integer"] = 0, 0
		return mixedBound{values: bounds}, nil
	}
	rows, single, err := mp.boundRows()
	if err != nil {
		return mixedBound{}, err
	}
	if err := mp.feasible(rows); err != nil {
		return mixedBound{}, err
	}
	lp, y := mp.lpBound(rows)
	bounds["lp"] = lp * (1 - lpMargin)
	if v, ok := mp.integerBound(rows); ok {
		if math.IsInf(v, 1) {
			return mixedBound{}, &NodeLimitError{Proven: true, Reason: "no node counts within Max satisfy the volume and count bounds together"}
		}
		bounds["integer"] = v
	}
	if len(mp.active) == 1 {
		bounds["single-type"] = float64(single) * mp.cost[mp.active[0]]
	}
	lb := 0.0
	for _, v := range bounds {
		lb = max(lb, v)
	}
	var duals []float64
	if y != nil {
		duals = make([]float64, mp.d)
		for r, row := range rows {
			if row.full && row.dim >= 0 {
				duals[row.dim] = y[r]
			}
		}
	}
	return mixedBound{lb: lb, values: bounds, duals: duals, rows: rows}, nil
}

func setKey(s []bool) string {
	var b strings.Builder
	for _, v := range s {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// boundRows builds the constraints of MixedLowerBound and returns N_S of
// the set of all active types.
func (mp *mixedProblem) boundRows() ([]lbRow, int, error) {
	A := len(mp.active)
	pos := make(map[int]int, A)
	for p, t := range mp.active {
		pos[t] = p
	}
	full := make([]bool, A)
	for p := range full {
		full[p] = true
	}
	sets := [][]bool{full}
	seen := map[string]bool{setKey(full): true}
	add := func(s []bool) {
		if k := setKey(s); !seen[k] && len(sets) < maxBoundSubsets {
			seen[k] = true
			sets = append(sets, s)
		}
	}
	var kindSets [][]bool
	for j, it := range mp.inst.Items {
		if it.Count == 0 {
			continue
		}
		s := make([]bool, A)
		for _, t := range mp.fitKind[j] {
			s[pos[t]] = true
		}
		kindSets = append(kindSets, s)
		add(s)
	}
	nDistinct := len(sets)
	for a := 1; a < nDistinct; a++ {
		for b := a + 1; b < nDistinct; b++ {
			u := make([]bool, A)
			for p := range u {
				u[p] = sets[a][p] || sets[b][p]
			}
			add(u)
		}
	}
	var rows []lbRow
	single := 0
	for si, s := range sets {
		capMax := make([]int64, mp.d)
		for p, t := range mp.active {
			if s[p] {
				for k, c := range mp.cap[t] {
					capMax[k] = max(capMax[k], c)
				}
			}
		}
		var dims []int
		for k, c := range capMax {
			if c > 0 {
				dims = append(dims, k)
			}
		}
		vol := make([]int64, mp.d)
		sub := &Instance{Capacity: make([]int64, len(dims))}
		for a, k := range dims {
			sub.Capacity[a] = capMax[k]
		}
		kj := 0
		for _, it := range mp.inst.Items {
			if it.Count == 0 {
				continue
			}
			ks := kindSets[kj]
			kj++
			inside := true
			for p := range ks {
				if ks[p] && !s[p] {
					inside = false
					break
				}
			}
			if !inside {
				continue
			}
			size := make([]int64, len(dims))
			for a, k := range dims {
				size[a] = it.Size[k]
			}
			for k, v := range it.Size {
				vol[k] += int64(it.Count) * v
			}
			sub.Items = append(sub.Items, Item{Size: size, Count: it.Count})
		}
		if len(sub.Items) == 0 {
			continue
		}
		nodes := 1
		if len(dims) > 0 {
			b, err := LowerBound(sub)
			if err != nil {
				return nil, 0, fmt.Errorf("vbp: internal error: subset bound: %w", err)
			}
			nodes = max(b.Best, 1)
		}
		if si == 0 {
			single = nodes
		}
		for k, v := range vol {
			if v <= 0 {
				continue
			}
			row := lbRow{coef: make([]int64, A), rhs: v, set: s, full: si == 0, dim: k}
			for p, t := range mp.active {
				if s[p] {
					row.coef[p] = mp.cap[t][k]
				}
			}
			rows = append(rows, row)
		}
		row := lbRow{coef: make([]int64, A), rhs: int64(nodes), set: s, full: si == 0, dim: -1}
		for p := range mp.active {
			if s[p] {
				row.coef[p] = 1
			}
		}
		rows = append(rows, row)
	}
	return rows, single, nil
}

// setNames lists the names of the types of set.
func (mp *mixedProblem) setNames(set []bool) string {
	var names []string
	for p, t := range mp.active {
		if set[p] {
			names = append(names, mp.typeName(t))
		}
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// feasible checks every row at x_t = Max_t (the covering constraints are
// monotone, so that is the best point) and reports a violated one (of the
// fewest types) as a proven *NodeLimitError.
func (mp *mixedProblem) feasible(rows []lbRow) error {
	// Smallest sets first, so that the reason names the tightest types.
	size := func(r lbRow) int {
		n := 0
		for _, in := range r.set {
			if in {
				n++
			}
		}
		return n
	}
	rows = append([]lbRow(nil), rows...)
	sort.SliceStable(rows, func(a, b int) bool { return size(rows[a]) < size(rows[b]) })
	for _, r := range rows {
		var have int64
		unlimited := false
		for p, t := range mp.active {
			c := r.coef[p]
			if c == 0 {
				continue
			}
			if mp.lim[t] == math.MaxInt {
				unlimited = true
				break
			}
			if int64(mp.lim[t]) > (math.MaxInt64-have)/c {
				have = math.MaxInt64
			} else {
				have += c * int64(mp.lim[t])
			}
		}
		if unlimited || have >= r.rhs {
			continue
		}
		what := "fit only"
		if mp.allow != nil {
			what = "may use (allowed and fitting) only"
		}
		reason := fmt.Sprintf("the items that %s node types %s need at least %d nodes of them, their Max allows %d",
			what, mp.setNames(r.set), r.rhs, have)
		if r.dim >= 0 {
			reason = fmt.Sprintf("the items that %s node types %s need %d in dimension %d, those types at their Max offer %d",
				what, mp.setNames(r.set), r.rhs, r.dim, have)
		}
		return &NodeLimitError{Proven: true, Reason: reason}
	}
	return nil
}
