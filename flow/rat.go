package flow

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// ErrOverflow is returned when an exact computation would overflow int64:
// the weights or machine counts are too large for exact arithmetic.
var ErrOverflow = errors.New("flow: exact arithmetic overflows int64 (reduce weights or counts)")

// Rat is an exact non-negative rational Num/Den in lowest terms, Den > 0.
// CMMF levels are ratios of machine counts to weights, so they fit.
type Rat struct {
	Num, Den int64
}

// NewRat returns n/d reduced; d must be positive.
func NewRat(n, d int64) Rat {
	if d <= 0 {
		panic("flow: NewRat with non-positive denominator")
	}
	g := gcd(n, d)
	return Rat{n / g, d / g}
}

// Int returns the integer n as a Rat.
func Int(n int64) Rat { return Rat{n, 1} }

// Float64 returns the nearest float64.
func (r Rat) Float64() float64 {
	if r.Den == 1 {
		return float64(r.Num)
	}
	if r.Num < 1<<53 && r.Den < 1<<53 {
		// Both exact in float64, and IEEE division rounds correctly.
		return float64(r.Num) / float64(r.Den)
	}
	f, _ := new(big.Rat).SetFrac64(r.Num, r.Den).Float64()
	return f
}

// Big returns r as a *big.Rat.
func (r Rat) Big() *big.Rat { return new(big.Rat).SetFrac64(r.Num, r.Den) }

// String returns "n" or "n/d".
func (r Rat) String() string {
	if r.Den == 1 {
		return fmt.Sprint(r.Num)
	}
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// Cmp compares r and s exactly: -1, 0 or +1.
func (r Rat) Cmp(s Rat) int {
	// r.Num·s.Den vs s.Num·r.Den in 128 bits (all values non-negative).
	h1, l1 := bits.Mul64(uint64(r.Num), uint64(s.Den))
	h2, l2 := bits.Mul64(uint64(s.Num), uint64(r.Den))
	switch {
	case h1 < h2 || (h1 == h2 && l1 < l2):
		return -1
	case h1 > h2 || (h1 == h2 && l1 > l2):
		return 1
	}
	return 0
}

// mulRat returns (a·b)/(c·d) in lowest terms, or ErrOverflow.
func mulRat(a, b, c, d int64) (Rat, error) {
	if a == 0 || b == 0 {
		return Rat{0, 1}, nil
	}
	g := gcd(a, c)
	a, c = a/g, c/g
	g = gcd(a, d)
	a, d = a/g, d/g
	g = gcd(b, c)
	b, c = b/g, c/g
	g = gcd(b, d)
	b, d = b/g, d/g
	n, ok1 := mul(a, b)
	m, ok2 := mul(c, d)
	if !ok1 || !ok2 {
		return Rat{}, ErrOverflow
	}
	return Rat{n, m}, nil
}

// mul returns a·b for non-negative a, b and whether it fits in int64.
func mul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		return 0, false
	}
	return int64(lo), true
}

// mustMul is mul for values the caller has bounded in advance.
func mustMul(a, b int64) int64 {
	p, ok := mul(a, b)
	if !ok {
		panic("flow: unchecked overflow")
	}
	return p
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// addRat returns a+b in lowest terms, or false on int64 overflow.
func addRat(a, b Rat) (Rat, bool) {
	if a.Num == 0 {
		return b, true
	}
	if b.Num == 0 {
		return a, true
	}
	g := gcd(a.Den, b.Den)
	den, ok1 := mul(a.Den/g, b.Den)
	x, ok2 := mul(a.Num, b.Den/g)
	y, ok3 := mul(b.Num, a.Den/g)
	if !ok1 || !ok2 || !ok3 || x > 1<<62 || y > 1<<62 {
		return Rat{}, false
	}
	return NewRat(x+y, den), true
}
