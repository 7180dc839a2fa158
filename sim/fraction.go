package sim

import (
	"cmp"
	"math/bits"
)

// Exact comparisons of shares (ALGORITHMS.md pitfall 1): fairness
// decisions compare rationals by cross-multiplication in 128 or 192 bits,
// never by floating point.

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}
}

func (x u128) cmp(y u128) int {
	switch {
	case x.hi < y.hi:
		return -1
	case x.hi > y.hi:
		return 1
	case x.lo < y.lo:
		return -1
	case x.lo > y.lo:
		return 1
	}
	return 0
}

func (x u128) float() float64 { return float64(x.hi)*0x1p64 + float64(x.lo) }

// mul3cmp compares a·b·c with d·e·f for non-negative int64 operands,
// exactly (192-bit products).
func mul3cmp(a, b, c, d, e, f int64) int {
	x2, x1, x0 := mul192(uint64(a), uint64(b), uint64(c))
	y2, y1, y0 := mul192(uint64(d), uint64(e), uint64(f))
	switch {
	case x2 != y2:
		return cmp.Compare(x2, y2)
	case x1 != y1:
		return cmp.Compare(x1, y1)
	}
	return cmp.Compare(x0, y0)
}

func mul192(a, b, c uint64) (w2, w1, w0 uint64) {
	hi, lo := bits.Mul64(a, b)
	h0, l0 := bits.Mul64(lo, c) // lo·c
	h1, l1 := bits.Mul64(hi, c) // hi·c·2^64
	w0 = l0
	var carry uint64
	w1, carry = bits.Add64(h0, l1, 0)
	w2 = h1 + carry
	return
}

// DomIndex returns the dimension of usage u's dominant share
// max_d u_d/C_d (the first on ties), comparing exactly; −1 when C is all
// zero. Dimensions with C_d = 0 are skipped.
func DomIndex(u, C Vec) int {
	best := -1
	for d := range u {
		if C[d] <= 0 {
			continue
		}
		// u_d/C_d > u_b/C_b  ⇔  u_d·C_b > u_b·C_d
		if best < 0 || mul64(uint64(u[d]), uint64(C[best])).cmp(mul64(uint64(u[best]), uint64(C[d]))) > 0 {
			best = d
		}
	}
	return best
}

// CompareShares compares the weighted dominant shares Dom(u1)/w1 and
// Dom(u2)/w2 of two usage vectors over the capacity C, exactly: −1, 0 or
// +1. Usages and weights must be non-negative (weights > 0).
func CompareShares(u1 Vec, w1 int64, u2 Vec, w2 int64, C Vec) int {
	d1, d2 := DomIndex(u1, C), DomIndex(u2, C)
	if d1 < 0 {
		return 0
	}
	// u1_a/(C_a·w1) vs u2_b/(C_b·w2)  ⇔  u1_a·C_b·w2 vs u2_b·C_a·w1
	return mul3cmp(u1[d1], C[d2], w2, u2[d2], C[d1], w1)
}

// ShareAtMost reports whether Dom(u)·den ≤ num, i.e. Dom(u) ≤ num/den,
// exactly (den > 0, num ≥ 0).
func ShareAtMost(u, C Vec, num, den int64) bool {
	for d := range u {
		if C[d] <= 0 {
			continue
		}
		// u_d/C_d ≤ num/den  ⇔  u_d·den ≤ num·C_d
		if mul64(uint64(max(u[d], 0)), uint64(den)).cmp(mul64(uint64(num), uint64(C[d]))) > 0 {
			return false
		}
	}
	return true
}

// ShareLess reports whether Dom(u) < num/den, exactly (den > 0, num ≥ 0).
func ShareLess(u, C Vec, num, den int64) bool {
	for d := range u {
		if C[d] <= 0 {
			continue
		}
		// u_d/C_d ≥ num/den  ⇔  u_d·den ≥ num·C_d
		if mul64(uint64(max(u[d], 0)), uint64(den)).cmp(mul64(uint64(num), uint64(C[d]))) >= 0 {
			return false
		}
	}
	return true
}
