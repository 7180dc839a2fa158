package xsize

import (
	"cmp"
	"math/bits"
	"slices"
)

// maxLagWork caps m·n, the floats of the per-state Lagrangian bound.
const maxLagWork = 1e7

// lagBound evaluates, for a DP state with uncovered set R, r containers
// left and candidates from index `from` on, the Lagrangian bound of the
// residual problem (see subgradient) at fixed multipliers u:
//
//	Σ_{i∈R} u_i + (sum of the r most negative ρ_c),  ρ_c = Σ_{i∈R, i≤c} min(0, w_i a_c − u_i),
//
// over c ≥ from: a valid lower bound on the residual cost for any u. The
// expanding state's ρ is computed once (load, O(Σ_c |neg_c|)); each child
// then walks the candidates in ascending order of the loaded ρ, correcting
// each by its newly covered members, until the order proves the rest
// irrelevant (child, O(r·n/64) in practice).
type lagBound struct {
	u     []float64
	neg   []bitset    // neg[c]: members i of c with w_i a_c < u_i
	negOf [][]negItem // per class i: the (c, w_i a_c − u_i) with i ∈ neg[c]
	val   [][]float64 // val[c][i] = w_i a_c − u_i for i ∈ neg[c]
	rho   []float64   // ρ_c of the loaded state
	usum  float64     // Σ_{i∈R} u_i of the loaded state
	buf   []float64
	// Ascending list of the loaded state's negative ρ_c, c ≥ cut.
	order    []int32
	nxt, prv []int32
	in       []bool
	head     int32
	cut      int
}

type negItem struct {
	c int32
	v float64
}

func (dp *coverDP) newLagBound() *lagBound {
	n, m := len(dp.w), len(dp.cands)
	if dp.u == nil || float64(n)*float64(m) > maxLagWork {
		return nil
	}
	l := &lagBound{u: dp.u, neg: make([]bitset, m), negOf: make([][]negItem, n),
		val: make([][]float64, m), rho: make([]float64, m),
		nxt: make([]int32, m), prv: make([]int32, m), in: make([]bool, m)}
	for c, cd := range dp.cands {
		l.neg[c] = newBitset(n)
		l.val[c] = make([]float64, n)
		cd.cover.each(func(i int) {
			if v := dp.w[i]*cd.cost - dp.u[i]; v < 0 {
				l.neg[c].set(i)
				l.val[c][i] = v
				l.negOf[i] = append(l.negOf[i], negItem{int32(c), v})
			}
		})
	}
	return l
}

// load computes ρ and Σu for the state with covered set s, and links the
// candidates ≥ from with ρ_c < 0 in ascending order of ρ.
func (l *lagBound) load(s bitset, from int) {
	l.usum = 0
	for i, x := range l.u {
		if !s.has(i) {
			l.usum += x
		}
	}
	clear(l.rho)
	for i, items := range l.negOf {
		if !s.has(i) {
			for _, it := range items {
				l.rho[it.c] += it.v
			}
		}
	}
	l.order = l.order[:0]
	for c := from; c < len(l.rho); c++ {
		l.in[c] = false
		if l.rho[c] < 0 {
			l.order = append(l.order, int32(c))
		}
	}
	slices.SortFunc(l.order, func(a, b int32) int { return cmp.Compare(l.rho[a], l.rho[b]) })
	l.head = -1
	prev := int32(-1)
	for _, c := range l.order {
		l.in[c] = true
		l.prv[c] = prev
		if prev >= 0 {
			l.nxt[prev] = c
		} else {
			l.head = c
		}
		prev = c
	}
	if prev >= 0 {
		l.nxt[prev] = -1
	}
	l.cut = from
}

// child returns the bound for the loaded state minus the classes in newly,
// with r containers left among candidates ≥ from (from never decreases
// between loads). Correcting ρ only raises it (classes leave R), so the
// walk down the ascending list stops once the loaded ρ reaches the r-th
// smallest corrected value.
func (l *lagBound) child(newly bitset, from, r int) float64 {
	for ; l.cut < from; l.cut++ {
		if c := l.cut; l.in[c] {
			l.in[c] = false
			p, q := l.prv[c], l.nxt[c]
			if p >= 0 {
				l.nxt[p] = q
			} else {
				l.head = q
			}
			if q >= 0 {
				l.prv[q] = p
			}
		}
	}
	h := l.usum
	for wi, x := range newly {
		for x != 0 {
			h -= l.u[wi<<6|bits.TrailingZeros64(x)]
			x &= x - 1
		}
	}
	buf := l.buf[:0] // the r most negative corrected ρ_c, ascending
	for c := l.head; c >= 0; c = l.nxt[c] {
		if len(buf) == r && l.rho[c] >= buf[r-1] {
			break
		}
		rho := l.rho[c]
		for wi, x := range l.neg[c] {
			x &= newly[wi]
			for x != 0 {
				rho -= l.val[c][wi<<6|bits.TrailingZeros64(x)]
				x &= x - 1
			}
		}
		if rho >= 0 || (len(buf) == r && rho >= buf[r-1]) {
			continue
		}
		if len(buf) < r {
			buf = append(buf, rho)
		} else {
			buf[r-1] = rho
		}
		for j := len(buf) - 1; j > 0 && buf[j] < buf[j-1]; j-- {
			buf[j], buf[j-1] = buf[j-1], buf[j]
		}
	}
	for _, x := range buf {
		h += x
	}
	l.buf = buf
	return h
}
