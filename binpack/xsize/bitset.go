package xsize

import "math/bits"

// bitset is a fixed-size set of class indices.
type bitset []uint64

func words(n int) int { return (n + 63) / 64 }

func newBitset(n int) bitset { return make(bitset, words(n)) }

func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

// each calls f for every member in increasing order.
func (b bitset) each(f func(int)) {
	for wi, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			f(wi<<6 | t)
			w &= w - 1
		}
	}
}

func (b bitset) count() int {
	c := 0
	for _, w := range b {
		c += bits.OnesCount64(w)
	}
	return c
}

// subsetOf reports b ⊆ a.
func (b bitset) subsetOf(a bitset) bool {
	for i, w := range b {
		if w&^a[i] != 0 {
			return false
		}
	}
	return true
}

// weightAndNot returns Σ w_i over i ∈ b \ a.
func weightAndNot(b, a bitset, w []float64) float64 {
	s := 0.0
	for wi, x := range b {
		x &^= a[wi]
		for x != 0 {
			t := bits.TrailingZeros64(x)
			s += w[wi<<6|t]
			x &= x - 1
		}
	}
	return s
}

// full returns the set {0..n-1}.
func full(n int) bitset {
	b := newBitset(n)
	for i := range n {
		b.set(i)
	}
	return b
}
