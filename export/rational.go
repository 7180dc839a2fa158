package export

import (
	"math/big"
)

// floorDiv returns ⌊x / g⌋ for g > 0.
func floorDiv(x, g *big.Rat) *big.Int {
	q := new(big.Rat).Quo(x, g)
	return floorRat(q)
}

// floorRat returns ⌊x⌋.
func floorRat(x *big.Rat) *big.Int {
	// big.Int.Div is Euclidean division: for a positive denominator it is
	// the floor, also for negative numerators.
	return new(big.Int).Div(x.Num(), x.Denom())
}
