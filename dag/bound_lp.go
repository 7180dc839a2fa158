package dag

import (
	"math"
	"slices"

	"github.com/capplan/capplan/lp"
)

// refutes is the linear-programming test of destructive improvement
// (Brucker & Knust, "A linear programming and constraint propagation-based
// lower bound for the RCPSP", EJOR 127, 2000): given windows propagated
// for a horizon T, cut time at every window and compulsory-part boundary
// into intervals I_k of length ℓ_k. A schedule within the windows, even
// preempted, runs in each I_k a sequence of feasible sets: sets A of
// tasks that may run together (pairwise not ordered by the DAG or a
// derived precedence, within capacity), each allowed in I_k (its window
// covers I_k) and containing every task whose compulsory part covers I_k.
// So the LP
//
//	Σ_A x_{A,k} ≤ ℓ_k  (every k),   Σ_k Σ_{A∋i} x_{A,k} ≥ p_i  (every i),   x ≥ 0
//
// is feasible. By Farkas' lemma it is infeasible exactly when some y ≥ 0
// has Σ_i p_i y_i − Σ_k ℓ_k μ_k(y) > 0, where μ_k(y) = max_A Σ_{i∈A} y_i
// over the feasible sets of I_k; such a y refutes T. The test maximises
// Σ p_i y_i − Σ ℓ_k z_k over 0 ≤ y ≤ 1, z ≥ 0 subject to Σ_{i∈A} y_i ≤ z_k
// for a growing list of sets A (row generation on the dual of Brucker and
// Knust's column generation), pricing μ_k exactly by branch and bound
// after every solve. Every y it meets is a candidate certificate, judged
// with the exact μ_k, so a refutation is sound however the loop ends; the
// loop stops when no set is violated (the LP optimum is reached), when a
// certificate is found, or when the budget is spent.
//
// With the clp build tag it solves by row generation on CLP (this
// function); otherwise by column generation on the primal with the lp
// package's bounded revised simplex (refutesCG), at full size. Work: see
// solveWork (CLP) or lpFlopsPerWork (refutesCG), plus the pricing nodes.
func (lb *lpBound) refutes(s *windows, b *budget) bool {
	if lb.cg {
		return lb.refutesCG(s, b)
	}
	p := lb.p
	ivs := lb.intervals(s)
	if len(ivs) == 0 {
		return false
	}
	var m lp.Model
	y := make([]lp.Var, p.n)
	var obj []lp.Term
	var total float64 // Σ p_i, the scale of the certificate test
	for i := 0; i < p.n; i++ {
		y[i] = -1
		if p.dur[i] > 0 {
			y[i] = m.AddVar(0, 1)
			obj = append(obj, lp.Term{Var: y[i], Coef: float64(p.dur[i])})
			total += float64(p.dur[i])
		}
	}
	z := make([]lp.Var, len(ivs))
	for k, iv := range ivs {
		z[k] = m.AddVar(0, math.Inf(1))
		obj = append(obj, lp.Term{Var: z[k], Coef: -float64(iv.length)})
	}
	m.SetObjective(obj, true)
	weights := make([]float64, p.n)
	for i := range weights {
		if y[i] >= 0 {
			weights[i] = 1
		}
	}
	zk := make([]float64, len(ivs)) // z of the last solve (0 before any)
	for iter := 0; iter < lpMaxRounds && !b.done(); iter++ {
		// Price every interval; judge the certificate; add violated sets.
		value, added, empty, cut := lb.priceRound(ivs, s, weights, zk, b, func(k int, set []int) bool {
			terms := []lp.Term{{Var: z[k], Coef: -1}}
			for _, i := range set {
				terms = append(terms, lp.Term{Var: y[i], Coef: 1})
			}
			m.AddConstraint(terms, lp.LE, 0)
			return true
		})
		if cut {
			return false
		}
		if empty || value > lpCertificateTol*max(1, total) {
			return true
		}
		if added == 0 {
			return false // the LP optimum is reached and it is not positive
		}
		w := lb.solveWork(int64(m.NumRows()), int64(m.NumVars()))
		if w > b.left() {
			return false // the solve would overrun the budget
		}
		b.spend(w)
		sol, err := lb.solver.Solve(&m)
		if err != nil || sol.Status != lp.Optimal {
			return false // no certificate from a failed solve
		}
		for i := range weights {
			if y[i] >= 0 {
				weights[i] = max(0, sol.X[y[i]])
			}
		}
		for k := range zk {
			zk[k] = sol.X[z[k]]
		}
	}
	return false
}

// priceRound prices every interval at the weights y (lpBound.price) and
// returns the Farkas value Σ_i p_i y_i − Σ_k ℓ_k μ_k(y); it calls add(k,
// A) for every interval whose μ_k exceeds cur[k] by lpViolationTol (A a
// maximising set) and counts the sets add takes (it may refuse one that
// does not price out at other weights, see lpSmoothing). empty reports an
// interval whose required tasks cannot run together: the windows are
// infeasible. cut reports that the budget ran out before every interval
// was priced: the value then misses terms and certifies nothing.
func (lb *lpBound) priceRound(ivs []interval, s *windows, y, cur []float64, b *budget,
	add func(k int, set []int) bool) (value float64, added int, empty, cut bool) {
	for i, w := range y {
		value += float64(lb.p.dur[i]) * w
	}
	for k := range ivs {
		if b.done() {
			return value, added, false, true
		}
		mu, set := lb.price(&ivs[k], s, y, b)
		if math.IsInf(mu, 1) {
			return value, added, true, false
		}
		value -= float64(ivs[k].length) * mu
		if mu > cur[k]+lpViolationTol && add(k, set) {
			added++
		}
	}
	return value, added, false, false
}

// lpMaxRounds bounds the LP solves of one test.
const lpMaxRounds = 60

// lpViolationTol is how much a set must exceed its interval's z to be
// added as a row: smaller violations cannot change the LP optimum much.
const lpViolationTol = 1e-7

// lpCertificateTol is the relative margin a certificate must clear,
// Σ p_i y_i − Σ ℓ_k μ_k > lpCertificateTol · Σ p_i, so that float
// rounding in y and μ never refutes a feasible horizon.
const lpCertificateTol = 1e-6

// lpBound holds what the LP test precomputes once per problem.
type lpBound struct {
	p      *problem
	reach  []uint64 // transitive successors, w words per task
	w      int
	solver lp.Solver
	// maxIntervals caps the intervals (neighbours are merged into a
	// relaxation beyond it).
	maxIntervals int
	// cg: the test runs by column generation on lp.Revised (refutesCG)
	// instead of row generation on the default backend.
	cg bool
}

// solveWork is the work charged for one CLP solve of m rows and n
// columns: m·n.
func (lb *lpBound) solveWork(m, n int64) int64 { return m * n }

func newLPBound(p *problem) *lpBound {
	w := (p.n + 63) / 64
	lb := &lpBound{p: p, w: w, reach: p.reachability(), solver: lp.Default(), maxIntervals: 1 << 30}
	if lp.Backends()[0] != lp.BackendCLP {
		lb.cg = true
	}
	return lb
}

// interval is one piece I_k of the horizon with the tasks allowed in it
// and those that must run throughout it.
type interval struct {
	length   int64
	allowed  []int
	required []int
}

// intervals cuts the horizon at every est, lct, lst and ect; neighbouring
// pieces with the same tasks allowed and required are merged.
func (lb *lpBound) intervals(s *windows) []interval {
	p := lb.p
	var cuts []int64
	for i := 0; i < p.n; i++ {
		if p.dur[i] > 0 {
			cuts = append(cuts, s.est[i], s.lct[i], s.lct[i]-p.dur[i], s.est[i]+p.dur[i])
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []interval
	for x := 0; x+1 < len(cuts); x++ {
		a, e := cuts[x], cuts[x+1]
		var iv interval
		for i := 0; i < p.n; i++ {
			if p.dur[i] == 0 || s.est[i] > a || s.lct[i] < e {
				continue
			}
			iv.allowed = append(iv.allowed, i)
			if s.lct[i]-p.dur[i] <= a && e <= s.est[i]+p.dur[i] {
				iv.required = append(iv.required, i)
			}
		}
		if len(iv.allowed) == 0 {
			continue
		}
		iv.length = e - a
		if n := len(out); n > 0 && slices.Equal(out[n-1].allowed, iv.allowed) && slices.Equal(out[n-1].required, iv.required) {
			out[n-1].length += iv.length
			continue
		}
		out = append(out, iv)
	}
	for len(out) > lb.maxIntervals {
		// Merge the shortest neighbouring pair: a set feasible in either
		// piece is allowed in the union (allowed: union, required:
		// intersection), so the merged LP is a relaxation and its
		// certificates stay sound.
		at := 0
		for x := 1; x+1 < len(out); x++ {
			if out[x].length+out[x+1].length < out[at].length+out[at+1].length {
				at = x
			}
		}
		a, c := out[at], out[at+1]
		merged := interval{length: a.length + c.length}
		merged.allowed = append(slices.Clone(a.allowed), c.allowed...)
		slices.Sort(merged.allowed)
		merged.allowed = slices.Compact(merged.allowed)
		for _, i := range a.required {
			if slices.Contains(c.required, i) {
				merged.required = append(merged.required, i)
			}
		}
		out = slices.Replace(out, at, at+2, merged)
	}
	return out
}

// together reports whether tasks i and j may run at the same time: not
// ordered by the DAG or a derived precedence.
func (lb *lpBound) together(s *windows, i, j int) bool {
	w := lb.w
	if lb.reach[i*w+j/64]&(1<<(j%64)) != 0 || lb.reach[j*w+i/64]&(1<<(i%64)) != 0 {
		return false
	}
	return s.after[i*w+j/64]&(1<<(j%64)) == 0 && s.after[j*w+i/64]&(1<<(i%64)) == 0
}

// price returns μ_k = max Σ_{i∈A} y_i over the feasible sets A of the
// interval, and a maximising set, by depth-first branch and bound over
// the allowed tasks in the knapsack order of the resource they
// oversubscribe most, bounded by that resource's fractional knapsack
// (knapsack; before, by the weight so far plus all remaining weights,
// which searched 3.6 times the nodes on PSPLIB j6013_1). When the
// required tasks cannot run together the interval admits no set and the
// windows are infeasible (propagation normally finds that first); it
// returns +Inf.
func (lb *lpBound) price(iv *interval, s *windows, y []float64, b *budget) (float64, []int) {
	p := lb.p
	use := make([]int64, p.k)
	var base float64
	for x, i := range iv.required {
		for _, j := range iv.required[:x] {
			if !lb.together(s, i, j) {
				return math.Inf(1), nil
			}
		}
		for r, c := range p.demand(i) {
			use[r] += c
		}
		base += y[i]
	}
	for r, u := range use {
		if u > p.cap[r] {
			return math.Inf(1), nil
		}
	}
	var cand []int
	for _, i := range iv.allowed {
		if y[i] <= 0 || slices.Contains(iv.required, i) {
			continue
		}
		ok := true
		for _, j := range iv.required {
			if !lb.together(s, i, j) {
				ok = false
				break
			}
		}
		if ok {
			cand = append(cand, i)
		}
	}
	kn := lb.knapsackOrder(cand, y, use)
	best := base
	bestSet := slices.Clone(iv.required)
	chosen := slices.Clone(iv.required)
	var nodes int64
	// dfs decides cand[x:] with e from knapsack.fits for the limit
	// kn.dem[x] + cap_r − use_r (r the ordering resource).
	var dfs func(x, e int, sum float64)
	dfs = func(x, e int, sum float64) {
		nodes++
		if sum > best {
			best = sum
			bestSet = append(bestSet[:0], chosen...)
		}
		if x == len(cand) || nodes > lpPriceNodes {
			return
		}
		limit := kn.dem[x] + kn.cap - kn.taken(use)
		e = kn.fits(max(e, x), limit)
		if sum+kn.bound(x, e, limit) <= best {
			return
		}
		i := cand[x]
		fits := true
		dem := p.demand(i)
		u, caps := use[:len(dem)], p.cap[:len(dem)]
		for r, c := range dem {
			if u[r]+c > caps[r] {
				fits = false
				break
			}
		}
		if fits {
			for _, j := range chosen[len(iv.required):] {
				if !lb.together(s, i, j) {
					fits = false
					break
				}
			}
		}
		if fits {
			for r, c := range dem {
				u[r] += c
			}
			chosen = append(chosen, i)
			dfs(x+1, e, sum+y[i])
			chosen = chosen[:len(chosen)-1]
			for r, c := range dem {
				u[r] -= c
			}
		}
		dfs(x+1, e, sum)
	}
	dfs(0, 0, base)
	b.spend(nodes + kn.work)
	if nodes > lpPriceNodes {
		// Pricing cut short: best may be below μ_k, and a certificate
		// judged with it would be unsound. Return an upper bound instead.
		limit := kn.cap - kn.taken(use)
		return base + kn.bound(0, kn.fits(0, limit), limit), bestSet
	}
	return best, bestSet
}

// lpPriceNodes bounds the nodes of one pricing problem; past it, price
// returns the trivial upper bound (still sound for certificates).
const lpPriceNodes = 200_000

// LPLB is the LP bound of destructive improvement: from EnergeticLB up,
// each horizon T is propagated and shaved and then tested by the LP (see
// lpBound.refutes); T + 1 is a bound for every T refuted. It returns 0
// above lpLimit tasks. Work is capped at lpWork units (after EnergeticLB's
// own).
func LPLB(d *DAG, machines [][]float64) int64 {
	if d.N() == 0 || d.N() > lpLimit {
		return 0
	}
	p := newProblem(d, machines)
	lo := max(CPLength(d), EnergyLB(d, machines))
	lo = energeticBound(p, lo, d.TotalDuration(), &budget{max: energeticWork})
	return lpClimb(p, lo, d.TotalDuration(), &budget{max: lpWork})
}

// lpWork bounds the work LPLB spends by default; lpLimit is the largest
// DAG it is tried on.
const (
	lpWork  = 20_000_000
	lpLimit = 200
)

// lpClimb raises lo while the LP test refutes it (below hi), on p with
// its clique resources (withCliques).
func lpClimb(p *problem, lo, hi int64, b *budget) int64 {
	p, cw := p.withCliques(boundCliques)
	b.spend(cw)
	pr := newPropagator(p, true)
	lb := newLPBound(p)
	w := (p.n + 63) / 64
	for lo < hi && !b.done() {
		st := newWindows(p.n, w, lo)
		refuted := pr.refutes(st) || !pr.shave(st, b) || lb.refutes(st, b)
		b.spend(pr.take())
		if !refuted {
			break
		}
		lo++
	}
	return lo
}
