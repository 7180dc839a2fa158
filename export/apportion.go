package export

import (
	"math/big"
	"sort"
)

// apportion rounds the non-negative exact amounts x[i], in units of g > 0,
// to whole units that add up to total units, by the largest-remainder
// (Hamilton) method: every item first gets ⌊x[i]/g⌋ units, then the units
// left over go one each to the items with the largest remainders
// x[i]/g − ⌊x[i]/g⌋, ties to the lower index.
//
// total must lie between Σ⌊x[i]/g⌋ and that plus len(x); with total =
// ⌊Σx[i]/g⌋ (see floorTotal) every item ends within one unit of its exact
// amount, |units[i]·g − x[i]| < g, and the sum never exceeds the exact sum.
// apportion panics on a total outside that range, which is a programming
// error. Cost O(n log n).
func apportion(x []*big.Rat, g *big.Rat, total *big.Int) []*big.Int {
	units := make([]*big.Int, len(x))
	rems := make([]*big.Rat, len(x))
	left := new(big.Int).Set(total)
	for i, v := range x {
		q := new(big.Rat).Quo(v, g)
		units[i] = floorRat(q)
		rems[i] = q.Sub(q, new(big.Rat).SetInt(units[i]))
		left.Sub(left, units[i])
	}
	if left.Sign() < 0 || left.Cmp(big.NewInt(int64(len(x)))) > 0 {
		panic("export: apportion total out of range")
	}
	order := make([]int, len(x))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rems[order[a]].Cmp(rems[order[b]]) > 0 })
	one := big.NewInt(1)
	for k := int64(0); k < left.Int64(); k++ {
		units[order[k]].Add(units[order[k]], one)
	}
	return units
}

// floorTotal returns ⌊Σx[i] / g⌋, the units apportion hands out so that
// the rounded amounts never add up to more than the exact ones.
func floorTotal(x []*big.Rat, g *big.Rat) *big.Int {
	sum := new(big.Rat)
	for _, v := range x {
		sum.Add(sum, v)
	}
	return floorDiv(sum, g)
}

// basisPoints is 100% in units of 0.01%.
const basisPoints = 10000

// percentages splits 100% among weights w (exact, non-negative) in
// proportion, in whole units of 0.01% that add up to exactly 10000 by the
// largest-remainder method. When every weight is zero the split is equal.
// It returns nil for no weights.
func percentages(w []*big.Rat) []int64 {
	if len(w) == 0 {
		return nil
	}
	sum := new(big.Rat)
	for _, v := range w {
		sum.Add(sum, v)
	}
	x := make([]*big.Rat, len(w))
	for i, v := range w {
		if sum.Sign() == 0 {
			x[i] = big.NewRat(basisPoints, int64(len(w)))
		} else {
			x[i] = new(big.Rat).Quo(new(big.Rat).Mul(v, big.NewRat(basisPoints, 1)), sum)
		}
	}
	units := apportion(x, big.NewRat(1, 1), big.NewInt(basisPoints))
	out := make([]int64, len(units))
	for i, u := range units {
		out[i] = u.Int64()
	}
	return out
}

// formatBasisPoints writes n units of 0.01% as an exact decimal percentage
// without trailing zeros: 3334 → "33.34", 2500 → "25", 1250 → "12.5".
func formatBasisPoints(n int64) string {
	whole, frac := n/100, n%100
	s := big.NewInt(whole).String()
	switch {
	case frac == 0:
		return s
	case frac%10 == 0:
		return s + "." + string(rune('0'+frac/10))
	default:
		return s + "." + string(rune('0'+frac/10)) + string(rune('0'+frac%10))
	}
}
