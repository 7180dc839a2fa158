package binpack

import (
	"math/big"
	"math/bits"
)

// Sum is an exact sum of int64 amounts: a 128-bit two's-complement
// integer, which no sum of fewer than 2^64 int64 terms overflows. The
// independent checkers add loads with it, so that a packing whose true
// load exceeds a capacity is never accepted because an int64 sum wrapped
// around. The zero value is 0.
type Sum struct {
	hi int64
	lo uint64
}

// Add adds v.
func (s *Sum) Add(v int64) {
	var carry uint64
	s.lo, carry = bits.Add64(s.lo, uint64(v), 0)
	s.hi += int64(carry)
	if v < 0 {
		s.hi-- // sign extension of v
	}
}

// Cmp compares the sum with c: −1, 0 or +1 as the sum is less than, equal
// to or greater than c.
func (s Sum) Cmp(c int64) int {
	var chi int64
	if c < 0 {
		chi = -1
	}
	switch {
	case s.hi < chi:
		return -1
	case s.hi > chi:
		return 1
	case s.lo < uint64(c):
		return -1
	case s.lo > uint64(c):
		return 1
	}
	return 0
}

// Int64 returns the sum and whether it fits in an int64.
func (s Sum) Int64() (int64, bool) {
	v := int64(s.lo)
	return v, (s.hi == 0 && v >= 0) || (s.hi == -1 && v < 0)
}

// String returns the sum in decimal.
func (s Sum) String() string {
	v := new(big.Int).Lsh(big.NewInt(s.hi), 64)
	return v.Add(v, new(big.Int).SetUint64(s.lo)).String()
}
