package export

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func rats(pairs ...int64) []*big.Rat {
	var out []*big.Rat
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, big.NewRat(pairs[i], pairs[i+1]))
	}
	return out
}

func ints(units []*big.Int) []int64 {
	out := make([]int64, len(units))
	for i, u := range units {
		out[i] = u.Int64()
	}
	return out
}

func TestApportion(t *testing.T) {
	tests := []struct {
		name string
		x    []*big.Rat
		g    *big.Rat
		want []int64
	}{
		// 1/3 each of 1 unit: floors 0,0,0, total ⌊1⌋ = 1; equal
		// remainders, so the lowest index gets it.
		{"thirds", rats(1, 3, 1, 3, 1, 3), big.NewRat(1, 1), []int64{1, 0, 0}},
		// 2.6, 3.3, 4.1: floors 2,3,4 (9), total ⌊10.0⌋ = 10, the largest
		// remainder (.6) gets the unit.
		{"hamilton", rats(26, 10, 33, 10, 41, 10), big.NewRat(1, 1), []int64{3, 3, 4}},
		// In milli-units: 2592/35 cores = 74057.142...m and 1728/35 =
		// 49371.428...m; total ⌊123428.571⌋ = 123428 = 74057 + 49371:
		// nothing left over.
		{"millicores", rats(2592, 35, 1728, 35), big.NewRat(1, 1000), []int64{74057, 49371}},
		// Exact amounts stay exact.
		{"exact", rats(4, 1, 6, 1), big.NewRat(2, 1), []int64{2, 3}},
		{"zeros", rats(0, 1, 0, 1), big.NewRat(1, 1), []int64{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ints(apportion(tc.x, tc.g, floorTotal(tc.x, tc.g)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("apportion = %v, want %v", got, tc.want)
			}
		})
	}
}

// bruteApportion tries every choice of k = total − Σfloor items to round
// up and keeps the one with the least total absolute error (the first in
// lexicographic order of index sets on ties): the definition the largest
// remainder method meets.
func bruteApportion(x []*big.Rat, g *big.Rat, total int64) []int64 {
	n := len(x)
	floors := make([]int64, n)
	var base int64
	for i, v := range x {
		floors[i] = floorDiv(v, g).Int64()
		base += floors[i]
	}
	k := int(total - base)
	var best []int64
	var bestErr *big.Rat
	for mask := 0; mask < 1<<n; mask++ {
		if popcount(mask) != k {
			continue
		}
		cand := slices.Clone(floors)
		errSum := new(big.Rat)
		for i := range n {
			if mask&(1<<i) != 0 {
				cand[i]++
			}
			d := new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(cand[i], 1), g), x[i])
			errSum.Add(errSum, d.Abs(d))
		}
		// On equal error, prefer rounding up the lowest index.
		if bestErr == nil || errSum.Cmp(bestErr) < 0 || errSum.Cmp(bestErr) == 0 && lexLess(cand, best, floors) {
			best, bestErr = cand, errSum
		}
	}
	return best
}

// lexLess reports whether a rounds up an index that b does not, at the
// first index where they differ.
func lexLess(a, b, floors []int64) bool {
	for i := range a {
		ua, ub := a[i] > floors[i], b[i] > floors[i]
		if ua != ub {
			return ua
		}
	}
	return false
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestApportionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + rng.IntN(7)
		x := make([]*big.Rat, n)
		for i := range x {
			// Small denominators make equal remainders (ties) common.
			x[i] = big.NewRat(rng.Int64N(40), 1+rng.Int64N(6))
		}
		g := big.NewRat(1+rng.Int64N(3), 1+rng.Int64N(2))
		total := floorTotal(x, g)
		got := ints(apportion(x, g, total))
		want := bruteApportion(x, g, total.Int64())
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: apportion(%v, %v) = %v, brute force %v", trial, x, g, got, want)
		}
		var sum int64
		for i, u := range got {
			sum += u
			d := new(big.Rat).Sub(new(big.Rat).Mul(big.NewRat(u, 1), g), x[i])
			if d.Abs(d).Cmp(g) >= 0 {
				t.Fatalf("trial %d: item %d is %d units, more than one unit from %v", trial, i, u, x[i])
			}
		}
		if sum != total.Int64() {
			t.Fatalf("trial %d: units add up to %d, want %d", trial, sum, total)
		}
	}
}

func TestPercentages(t *testing.T) {
	tests := []struct {
		name string
		w    []*big.Rat
		want []int64
	}{
		// 10000/3 = 3333.33 each; one unit left goes to the first.
		{"thirds", rats(1, 1, 1, 1, 1, 1), []int64{3334, 3333, 3333}},
		// 3:1 → 7500, 2500 exactly.
		{"three to one", rats(3, 1, 1, 1), []int64{7500, 2500}},
		// All zero: equal split.
		{"idle", rats(0, 1, 0, 1, 0, 1, 0, 1), []int64{2500, 2500, 2500, 2500}},
		// 2/7, 5/7 of 10000 = 2857.14, 7142.86: the larger remainder (.86)
		// takes the unit.
		{"sevenths", rats(2, 7, 5, 7), []int64{2857, 7143}},
		{"one", rats(5, 2), []int64{10000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := percentages(tc.w)
			if !slices.Equal(got, tc.want) {
				t.Errorf("percentages = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFormatBasisPoints(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{10000, "100"}, {3334, "33.34"}, {2500, "25"}, {1250, "12.5"}, {5, "0.05"}, {0, "0"}, {1, "0.01"}, {7143, "71.43"}} {
		if got := formatBasisPoints(tc.n); got != tc.want {
			t.Errorf("formatBasisPoints(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestObjectName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"web", "web"},
		{"spark-analytics", "spark-analytics"},
		{"LS-t4", "ls-t4"},
		{"m5.4xlarge", "m5-4xlarge"},
		{"BE-v100m16-v100m32", "be-v100m16-v100m32"},
		{"__a__b__", "a-b"},
		{"***", ""},
	} {
		if got := objectName(tc.in); got != tc.want {
			t.Errorf("objectName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, err := objectNames("application", []string{"LS", "ls"}); err == nil {
		t.Error("objectNames accepted two names that collide")
	}
	if _, err := objectNames("application", []string{"a", "---"}); err == nil {
		t.Error("objectNames accepted a name with no letter or digit")
	}
}
