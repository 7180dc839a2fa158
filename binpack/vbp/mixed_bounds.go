package vbp

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
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
	lb, bounds, _, err := mp.lowerBound()
	return lb, bounds, err
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

// lowerBound computes MixedLowerBound's values, plus the LP dual price of
// each dimension's volume over all types (nil when the LP failed), used to
// weight items in the greedy.
func (mp *mixedProblem) lowerBound() (float64, map[string]float64, []float64, error) {
	bounds := map[string]float64{}
	if mp.n == 0 {
		bounds["lp"], bounds["integer"] = 0, 0
		return 0, bounds, nil, nil
	}
	rows, single, err := mp.boundRows()
	if err != nil {
		return 0, nil, nil, err
	}
	mp.rows = rows
	if err := mp.feasible(rows); err != nil {
		return 0, nil, nil, err
	}
	lp, y := mp.lpBound(rows)
	bounds["lp"] = lp * (1 - lpMargin)
	if v, ok := mp.integerBound(rows); ok {
		if math.IsInf(v, 1) {
			return 0, nil, nil, &NodeLimitError{Proven: true, Reason: "no node counts within Max satisfy the volume and count bounds together"}
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
	return lb, bounds, duals, nil
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

// lpBound returns a certified value of the LP relaxation over rows and its
// dual prices y (per row, in cost per unit of the row's right-hand side;
// nil when the simplex failed). It solves the dual
//
//	max Σ_r y_r − Σ_t Max_t·z_t  s.t.  Σ_r G_rt·y_r − z_t ≤ cost_t,  y, z ≥ 0
//
// (z_t only for limited types; rows scaled to right-hand side 1, costs to
// at most 1) with gonum's simplex from the slack basis, then repairs y
// into exact dual feasibility (scaling it down for unlimited types, raising
// z for limited ones) and evaluates the dual objective, which bounds the
// primal optimum by weak duality. The best single-row dual solution is a
// fallback floor.
func (mp *mixedProblem) lpBound(rows []lbRow) (float64, []float64) {
	best := 0.0
	for r := range rows {
		best = max(best, mp.rowBound(rows[r]))
	}
	m, A := len(rows), len(mp.active)
	var bounded []int // positions of limited types
	for p, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			bounded = append(bounded, p)
		}
	}
	cs := 0.0
	for _, t := range mp.active {
		cs = max(cs, mp.cost[t])
	}
	ncol := m + len(bounded) + A
	a := mat.NewDense(A, ncol, nil)
	c := make([]float64, ncol)
	b := make([]float64, A)
	basis := make([]int, A)
	for r, row := range rows {
		c[r] = -1
		for p := range mp.active {
			a.Set(p, r, float64(row.coef[p])/float64(row.rhs))
		}
	}
	for z, p := range bounded {
		a.Set(p, m+z, -1)
		c[m+z] = float64(mp.lim[mp.active[p]])
	}
	for p, t := range mp.active {
		a.Set(p, m+len(bounded)+p, 1)
		b[p] = mp.cost[t] / cs
		basis[p] = m + len(bounded) + p
	}
	x, ok := simplexSafe(c, a, b, basis)
	if !ok {
		return best, nil
	}
	y := make([]float64, m)
	for r, row := range rows {
		y[r] = max(x[r], 0) * cs / float64(row.rhs)
	}
	v := mp.dualValue(rows, y)
	if v > best {
		best = v
	}
	return best, y
}

// simplexSafe runs gonum's simplex, turning its panics into failure. On a
// numerical error it still returns the last feasible point, which is only
// used as a dual candidate to be repaired and certified.
func simplexSafe(c []float64, a *mat.Dense, b []float64, basis []int) (x []float64, ok bool) {
	defer func() {
		if recover() != nil {
			x, ok = nil, false
		}
	}()
	_, x, err := gonumlp.Simplex(c, a, b, 1e-10, basis)
	if x == nil {
		return nil, false
	}
	_ = err
	return x, true
}

// dualValue repairs the dual prices y (in place) to exact feasibility and
// returns the dual objective Σ_r rhs_r·y_r − Σ_t Max_t·z_t.
func (mp *mixedProblem) dualValue(rows []lbRow, y []float64) float64 {
	lhs := func(p int) float64 {
		s := 0.0
		for r, row := range rows {
			s += float64(row.coef[p]) * y[r]
		}
		return s
	}
	f := 1.0
	for p, t := range mp.active {
		if mp.lim[t] == math.MaxInt {
			if l := lhs(p); l > mp.cost[t] {
				f = min(f, mp.cost[t]/l)
			}
		}
	}
	f *= 1 - lpMargin
	for r := range y {
		y[r] *= f
	}
	v := 0.0
	for r, row := range rows {
		v += float64(row.rhs) * y[r]
	}
	for p, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			if z := lhs(p) - mp.cost[t]; z > 0 {
				v -= float64(mp.lim[t]) * z * (1 + lpMargin)
			}
		}
	}
	return max(v, 0)
}

// rowBound is the best dual solution that prices only row r: y at one of
// the breakpoints cost_t/coef_t (not above the cheapest unlimited rate).
func (mp *mixedProblem) rowBound(row lbRow) float64 {
	ymax := math.Inf(1)
	var cand []float64
	for p, t := range mp.active {
		if row.coef[p] == 0 {
			continue
		}
		rate := mp.cost[t] / float64(row.coef[p])
		cand = append(cand, rate)
		if mp.lim[t] == math.MaxInt {
			ymax = min(ymax, rate)
		}
	}
	best := 0.0
	for _, y := range cand {
		if y > ymax {
			continue
		}
		y *= 1 - lpMargin
		v := float64(row.rhs) * y
		for p, t := range mp.active {
			if z := float64(row.coef[p])*y - mp.cost[t]; z > 0 && row.coef[p] > 0 {
				v -= float64(mp.lim[t]) * z * (1 + lpMargin)
			}
		}
		best = max(best, v)
	}
	return best
}

// integerBound solves min Σ_t cost_t·k_t over integers 0 ≤ k_t ≤ Max_t
// satisfying rows exactly (see cheapMixes with k = 1). It reports false when
// the enumeration exceeds irNodeLimit nodes, +Inf when no counts are
// feasible.
func (mp *mixedProblem) integerBound(rows []lbRow) (float64, bool) {
	mixes, complete := mp.cheapMixes(rows, 1, irNodeLimit, nil)
	if !complete {
		return 0, false
	}
	if len(mixes) == 0 {
		return math.Inf(1), true
	}
	return mixedCost(mp.inst, mixes[0]), true
}

// cheapMixes returns the k cheapest node counts (indexed by type, in
// increasing cost) among the integer points 0 ≤ k_t ≤ Max_t satisfying rows
// in which the cheapest active type has the least count that covers every
// row; among equal costs, those closer to ref (Σ_t cost_t·|k_t − ref_t|;
// ref may be nil) come first. It enumerates the counts of the other
// active types depth first (most expensive first), pruning a branch when
// its cost so far plus the cheapest covering of its most demanding row
// exceeds the k-th cost found (by more than rounding, so the minimum is
// exact). complete is false when the enumeration exceeded limit nodes (the
// mixes are then the cheapest found). Costs are summed in type index
// order, like MixedResult.Cost.
func (mp *mixedProblem) cheapMixes(rows []lbRow, k, limit int, ref []int) (mixes [][]int, complete bool) {
	A := len(mp.active)
	order := make([]int, A) // positions in mp.active, most expensive first
	for p := range order {
		order[p] = p
	}
	sort.SliceStable(order, func(a, b int) bool { return mp.cost[mp.active[order[a]]] > mp.cost[mp.active[order[b]]] })
	// rate[l][r]: cheapest cost per unit of row r among order[l:].
	rate := make([][]float64, A)
	for l := range rate {
		rate[l] = make([]float64, len(rows))
		for r, row := range rows {
			rate[l][r] = math.Inf(1)
			for _, p := range order[l:] {
				if row.coef[p] > 0 {
					rate[l][r] = min(rate[l][r], mp.cost[mp.active[p]]/float64(row.coef[p]))
				}
			}
		}
	}
	cov := make([]int64, len(rows))
	cnt := make([]int, len(mp.cap)) // by type
	var costs, dists []float64
	dist := func(m []int) float64 {
		if ref == nil {
			return 0
		}
		v := 0.0
		for t, c := range m {
			v += mp.cost[t] * math.Abs(float64(c-ref[t]))
		}
		return v
	}
	thr := func() float64 {
		if len(mixes) < k {
			return math.Inf(1)
		}
		return costs[k-1]
	}
	nodes := 0
	var dfs func(l int, partial float64) bool
	dfs = func(l int, partial float64) bool {
		nodes++
		if nodes > limit {
			return false
		}
		p := order[l]
		t := mp.active[p]
		lim := int64(mp.lim[t])
		if l == A-1 {
			var need int64
			for r, row := range rows {
				if gap := row.rhs - cov[r]; gap > 0 {
					if row.coef[p] == 0 {
						return true
					}
					need = max(need, (gap+row.coef[p]-1)/row.coef[p])
				}
			}
			if need > lim {
				return true
			}
			cnt[t] = int(need)
			c := mixedCost(mp.inst, cnt)
			cnt[t] = 0
			if c > thr() {
				return true
			}
			m := append([]int(nil), cnt...)
			m[t] = int(need)
			dm := dist(m)
			if c == thr() && len(mixes) == k && dm >= dists[k-1] {
				return true
			}
			at := sort.Search(len(costs), func(x int) bool { return costs[x] > c || (costs[x] == c && dists[x] > dm) })
			costs = append(costs[:at], append([]float64{c}, costs[at:]...)...)
			dists = append(dists[:at], append([]float64{dm}, dists[at:]...)...)
			mixes = append(mixes[:at], append([][]int{m}, mixes[at:]...)...)
			if len(mixes) > k {
				costs, dists, mixes = costs[:k], dists[:k], mixes[:k]
			}
			return true
		}
		lb := partial
		var kmax int64
		for r, row := range rows {
			gap := row.rhs - cov[r]
			if gap <= 0 {
				continue
			}
			lb = max(lb, partial+float64(gap)*rate[l][r])
			if row.coef[p] > 0 {
				kmax = max(kmax, (gap+row.coef[p]-1)/row.coef[p])
			}
		}
		if lb > thr()*(1+1e-12) {
			return true
		}
		kmax = min(kmax, lim)
		cost := mp.cost[t]
		var kk int64
		ok := true
		for kk = 0; kk <= kmax; kk++ {
			if kk > 0 {
				for r, row := range rows {
					cov[r] += row.coef[p]
				}
			}
			if partial+float64(kk)*cost > thr()*(1+1e-12) {
				break
			}
			cnt[t] = int(kk)
			if !dfs(l+1, partial+float64(kk)*cost) {
				ok = false
				break
			}
		}
		steps := min(kk, kmax)
		for r, row := range rows {
			cov[r] -= steps * row.coef[p]
		}
		cnt[t] = 0
		return ok
	}
	complete = dfs(0, 0)
	return mixes, complete
}
