package plan

import (
	"math"
	"math/big"
)

// RatFromFloat returns the simplest rational whose nearest float64 is x:
// the first continued-fraction convergent p/q of x with float64(p/q) == x.
//
// Documents store exact rational amounts (such as a fair share of
// 2592/35 machines) as the nearest float64; when the true value has a small
// denominator (q well below 2^26), it is the simplest rational rounding to
// that float, so this recovers it exactly and ties in the rounding below
// are decided on exact values, not on the last bit of a float. Any other x
// yields a rational within half an ulp of x. x must be finite (documents
// hold no NaN or infinity); RatFromFloat panics otherwise.
func RatFromFloat(x float64) *big.Rat {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		panic("plan: RatFromFloat of a non-finite number")
	}
	exact := new(big.Rat).SetFloat64(x)
	if exact.IsInt() {
		return exact
	}
	// Convergents h/k of the continued fraction of exact: h(n) = a(n) h(n-1)
	// + h(n-2), k likewise, from h(-1)=1, h(-2)=0, k(-1)=0, k(-2)=1.
	hPrev, h := big.NewInt(0), big.NewInt(1)
	kPrev, k := big.NewInt(1), big.NewInt(0)
	num := new(big.Int).Set(exact.Num())
	den := new(big.Int).Set(exact.Denom())
	a, rem := new(big.Int), new(big.Int)
	for den.Sign() != 0 {
		a.DivMod(num, den, rem) // floor division: a ≥ 0 after the first term
		hPrev, h = h, new(big.Int).Add(new(big.Int).Mul(a, h), hPrev)
		kPrev, k = k, new(big.Int).Add(new(big.Int).Mul(a, k), kPrev)
		c := new(big.Rat).SetFrac(h, k)
		if f, _ := c.Float64(); f == x {
			return c
		}
		num, den = den, new(big.Int).Set(rem)
	}
	return exact // the last convergent is exact itself; not reached
}
