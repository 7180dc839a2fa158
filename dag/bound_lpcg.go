package dag

import (
	"math"

	"github.com/capplan/capplan/lp"
)

// refutesCG is the LP test of lpBound.refutes solved the way Brucker &
// Knust (EJOR 127, 2000, §3) solve it: by column generation on the primal
// with the feasible sets as columns, here with the lp package's bounded
// revised simplex (lp.Revised), which keeps the basis inverse dense and
// warm from round to round and has a work cap, so it runs at full size
// (every interval of the windows) where the gonum simplex must be capped
// at a dozen intervals. The phase-1 model is
//
//	minimise Σ_i a_i
//	subject to  Σ_k Σ_{A∋i} x_{A,k} − e_i + a_i = p_i   (every task i)
//	            Σ_A x_{A,k} + u_k = ℓ_k                  (every interval k)
//	            x, e, a, u ≥ 0,
//
// started from the basis of the artificials a and slacks u. Its optimum is
// positive exactly when the LP of refutes is infeasible. Its duals y_i of
// the task rows lie in [0, 1] and π_k of the interval rows are ≤ 0; a set
// A of interval k prices out when Σ_{i∈A} y_i > −π_k, which the exact
// pricing of refutes (lpBound.price, μ_k) decides. After every solve the
// duals, clamped to [0, 1], are judged as a Farkas certificate exactly as
// in refutes: Σ_i p_i y_i − Σ_k ℓ_k μ_k(y) > lpCertificateTol·Σ p_i
// proves that no schedule fits the windows, whatever the simplex's
// accuracy or whether it was capped; at the LP optimum this value equals
// the optimum (Lagrangian duality), so the test is as strong as the LP.
// The pricing runs at smoothed duals (lpSmoothing).
func (lb *lpBound) refutesCG(s *windows, b *budget) bool {
	p := lb.p
	ivs := lb.intervals(s)
	if len(ivs) == 0 {
		return false
	}
	row := make([]int, p.n) // task i's row, or −1 (zero duration)
	var rhs, cost []float64
	var total float64
	for i := 0; i < p.n; i++ {
		row[i] = -1
		if p.dur[i] > 0 {
			row[i] = len(rhs)
			rhs = append(rhs, float64(p.dur[i]))
			cost = append(cost, 1)
			total += float64(p.dur[i])
		}
	}
	nt := len(rhs)
	for _, iv := range ivs {
		rhs = append(rhs, float64(iv.length))
		cost = append(cost, 0)
	}
	m := lp.NewRevised(rhs, cost)
	for r := 0; r < nt; r++ {
		m.AddColumn([]int{r}, []float64{-1}, 0)
	}
	weights := make([]float64, p.n)
	for i := range weights {
		if row[i] >= 0 {
			weights[i] = 1
		}
	}
	pi := make([]float64, len(ivs)) // −π_k, the interval duals negated (0 before any solve)
	var idx []int
	var val []float64
	// Dual smoothing (see lpSmoothing): price at a point between the best
	// certificate candidate so far (center) and the restricted LP's duals.
	center := make([]float64, p.n)
	centerVal := math.Inf(-1)
	at := make([]float64, p.n)
	alpha := lpSmoothing
	for round := 0; round < lpCGMaxRounds && !b.done(); round++ {
		a := alpha
		if math.IsInf(centerVal, -1) {
			a = 0
		}
		for i := range at {
			at[i] = a*center[i] + (1-a)*weights[i]
		}
		value, added, empty, cut := lb.priceRound(ivs, s, at, pi, b, func(k int, set []int) bool {
			var sum float64
			for _, i := range set {
				sum += weights[i]
			}
			if sum <= pi[k]+lpViolationTol {
				return false // not a column of negative reduced cost at the restricted LP's duals
			}
			idx, val = append(idx[:0], nt+k), append(val[:0], 1)
			for _, i := range set {
				idx, val = append(idx, row[i]), append(val, 1)
			}
			m.AddColumn(idx, val, 0)
			return true
		})
		if cut {
			return false
		}
		if empty || value > lpCertificateTol*max(1, total) {
			return true
		}
		if value > centerVal {
			centerVal = value
			copy(center, at)
		}
		if added == 0 {
			if a > 0 {
				// Mispricing: price at the restricted LP's duals next.
				alpha = 0
				continue
			}
			return false // the LP optimum is reached and it is not positive
		}
		alpha = lpSmoothing
		w0 := m.Work()
		st := m.Solve(b.left() * lpFlopsPerWork)
		b.spend((m.Work() - w0) / lpFlopsPerWork)
		if st == lp.RevisedUnbounded || st == lp.RevisedNumeric {
			return false // no certificate from a failed solve
		}
		if m.Objective() <= lpCertificateTol*max(1, total) && st == lp.RevisedOptimal {
			return false // the restricted LP is feasible, so the full one is
		}
		y := m.Duals()
		for i := range weights {
			if row[i] >= 0 {
				weights[i] = min(1, max(0, y[row[i]]))
			}
		}
		for k := range pi {
			pi[k] = max(0, -y[nt+k])
		}
	}
	return false
}

// lpSmoothing is the weight of the stability center in the weights the
// column generation prices at (Wentges, "Weighted Dantzig–Wolfe
// decomposition for linear mixed-integer programming", ITOR 4(2), 1997):
// the duals of a restricted LP jump from round to round, and pricing at
// α·center + (1 − α)·duals, the center being the weights of the best
// Farkas value so far, finds steadier columns. A round whose sets price
// out at the smoothed weights but none at the duals (a mispricing) is
// repeated at the duals, so the loop still ends only at the LP optimum.
// Every priced point is judged as a certificate, smoothed or not. On the
// LP climbs of eight PSPLIB J60 instances (j6013_1/4/7/8/9, j6029_1/4/8,
// 40M units each at most) 0.3 spent 217M units in all against 230M
// without smoothing and reached the same bounds, one higher (j6029_4,
// 126); 0.5 spent 224M.
const lpSmoothing = 0.3

// lpCGMaxRounds bounds the pricing rounds of one column-generation test.
const lpCGMaxRounds = 200

// lpFlopsPerWork converts lp.Revised's work (multiply-adds over dense
// rows, about a nanosecond each) into the package's work units (a search
// node or a window update, about 25 ns on the reference machine).
const lpFlopsPerWork = 32
