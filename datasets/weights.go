package datasets

import (
	"errors"
	"fmt"
	"math/big"
)

// ErrWeightsTooLarge is returned (wrapped) by IntegerWeights when the exact
// integer weights would exceed MaxIntegerWeight.
var ErrWeightsTooLarge = errors.New("datasets: integer weights too large")

// MaxIntegerWeight bounds the integers IntegerWeights returns, so that
// flow algorithms can multiply them by machine counts in int64.
const MaxIntegerWeight = 1_000_000_000_000

// IntegerWeights returns integer weights in exactly the ratios of the
// applications' weights: each weight times the LCM of all denominators,
// divided by the GCD of the results. Weights 0.5, 2.25 and 1 give 2, 9
// and 4. It fails with ErrWeightsTooLarge when an integer would exceed
// MaxIntegerWeight. An application without a weight counts as weight 1.
func IntegerWeights(apps []Application) ([]int64, error) {
	lcm := big.NewInt(1)
	var g, t big.Int
	for i := range apps {
		if weightOf(&apps[i]).Sign() <= 0 {
			return nil, fmt.Errorf("datasets: application %q has weight %s, want > 0", apps[i].Name, weightOf(&apps[i]).RatString())
		}
		d := weightOf(&apps[i]).Denom()
		g.GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, t.Quo(d, &g))
	}
	scaled := make([]*big.Int, len(apps))
	gcd := new(big.Int)
	for i := range apps {
		w := weightOf(&apps[i])
		s := new(big.Int).Mul(w.Num(), t.Quo(lcm, w.Denom()))
		scaled[i] = s
		gcd.GCD(nil, nil, gcd, s)
	}
	out := make([]int64, len(apps))
	limit := big.NewInt(MaxIntegerWeight)
	for i, s := range scaled {
		s.Quo(s, gcd)
		if s.Cmp(limit) > 0 {
			return nil, fmt.Errorf("%w: application %q would get weight %s, more than %d; round the weights to fewer decimals",
				ErrWeightsTooLarge, apps[i].Name, s, int64(MaxIntegerWeight))
		}
		out[i] = s.Int64()
	}
	return out, nil
}

func weightOf(a *Application) *big.Rat {
	if a.Weight == nil {
		return big.NewRat(1, 1)
	}
	return a.Weight
}
