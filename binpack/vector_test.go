package binpack

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestDominates(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want bool
	}{
		{"equal", []float64{2, 4}, []float64{2, 4}, true},
		{"larger", []float64{3, 5}, []float64{2, 4}, true},
		{"one coordinate short", []float64{3, 3}, []float64{2, 4}, false},
		{"zero request", []float64{0, 0}, []float64{0, 0}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Dominates(tc.a, tc.b); got != tc.want {
				t.Errorf("Dominates(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestFirstFit(t *testing.T) {
	bins := [][]float64{{1, 8}, {8, 1}, {8, 8}}
	if got := FirstFit([]float64{2, 2}, bins); got != 2 {
		t.Errorf("FirstFit = %d, want 2", got)
	}
	if got := FirstFit([]float64{9, 1}, bins); got != -1 {
		t.Errorf("FirstFit = %d, want -1", got)
	}
}

func TestShortfalls(t *testing.T) {
	got := Shortfalls([]float64{4, 8, 1}, []float64{6, 8, 2})
	want := []Shortfall{{Dim: 0, Need: 6, Have: 4}, {Dim: 2, Need: 2, Have: 1}}
	if len(got) != len(want) {
		t.Fatalf("Shortfalls = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Shortfalls[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if s := Shortfalls([]float64{4, 8}, []float64{4, 8}); s != nil {
		t.Errorf("exact fit has shortfalls %v", s)
	}
	// Agrees with Dominates on random vectors.
	for i := range 200 {
		a := []float64{float64(i % 5), float64(i / 5 % 7), float64(i / 35 % 3)}
		b := []float64{float64(i / 3 % 5), float64(i / 2 % 7), float64(i % 3)}
		if (Shortfalls(a, b) == nil) != Dominates(a, b) {
			t.Fatalf("Shortfalls(%v, %v) disagrees with Dominates", a, b)
		}
	}
}

func TestClosest(t *testing.T) {
	caps := [][]float64{{1, 100}, {9, 9}, {10, 1}}
	// need (10, 10): cap 0 misses 90% of cpu, cap 1 misses 10% + 10%, cap 2 misses 90% of memory.
	i, short := Closest(caps, []float64{10, 10})
	if i != 1 || len(short) != 2 {
		t.Errorf("Closest = %d %v, want 1 with two shortfalls", i, short)
	}
	if i, short := Closest(caps, []float64{1, 50}); i != 0 || short != nil {
		t.Errorf("Closest = %d %v, want 0 (fits)", i, short)
	}
	if i, _ := Closest(nil, []float64{1}); i != -1 {
		t.Errorf("Closest(nil) = %d, want -1", i)
	}
}

func TestFits(t *testing.T) {
	tests := []struct {
		name                 string
		load, size, capacity []int64
		want                 bool
	}{
		{"empty bin, exact fit", nil, []int64{4, 6}, []int64{4, 6}, true},
		{"empty bin, too large", nil, []int64{5, 6}, []int64{4, 6}, false},
		{"on a load: 3+4 = 7 ≤ 7, 2+4 = 6 ≤ 6", []int64{3, 2}, []int64{4, 4}, []int64{7, 6}, true},
		{"on a load: 3+5 = 8 > 7", []int64{3, 2}, []int64{5, 4}, []int64{7, 6}, false},
		// A negative size (the Triplet files) frees room: 9 − 3 = 6 ≤ 7.
		{"negative size", []int64{9}, []int64{-3}, []int64{7}, true},
		// A tolerance enters as a negative load: −1 + 8 = 7 ≤ 7.
		{"tolerance as negative load", []int64{-1}, []int64{8}, []int64{7}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fits(tc.load, tc.size, tc.capacity); got != tc.want {
				t.Errorf("Fits(%v, %v, %v) = %v, want %v", tc.load, tc.size, tc.capacity, got, tc.want)
			}
		})
	}
	// Real units: 0.25 + 0.5 = 0.75 exactly in binary.
	if !Fits([]float64{0.25}, []float64{0.5}, []float64{0.75}) {
		t.Error("float64: 0.25 + 0.5 ≤ 0.75 rejected")
	}
	for _, bad := range [][3][]int64{
		{nil, {1, 2}, {3}},    // capacity shorter
		{{1}, {1, 2}, {3, 4}}, // load shorter
		{{1, 2}, {1}, {3, 4}}, // size shorter
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Fits%v did not panic on different lengths", bad)
				}
			}()
			Fits(bad[0], bad[1], bad[2])
		}()
	}
}

func TestShapeCost(t *testing.T) {
	scale := []float64{100, 400}
	shape := []float64{10, 80} // normalised (0.1, 0.2)
	// Summed in dimension order, in float64: 10/100 + 80/400.
	if got, want := ShapeCost(shape, scale, SumCost), shape[0]/scale[0]+shape[1]/scale[1]; got != want {
		t.Errorf("SumCost = %v, want %v", got, want)
	}
	if got := ShapeCost(shape, scale, MaxCost); got != 0.2 {
		t.Errorf("MaxCost = %v, want 0.2", got)
	}
	if SumCost.String() != "sum" || MaxCost.String() != "max" || Cost(7).String() != "Cost(7)" {
		t.Error("Cost.String")
	}
}

func TestCheapest(t *testing.T) {
	shapes := [][]float64{{4, 4}, {2, 8}, {8, 8}, {2, 9}}
	costs := []float64{3, 2, 5, 2}
	tests := []struct {
		name string
		need []float64
		want int
	}{
		{"only the big one holds it", []float64{6, 6}, 2},
		// (2,8) and (2,9) both hold (1,8) at cost 2: the lower index wins.
		{"tie to the lower index", []float64{1, 8}, 1},
		{"cheapest of several", []float64{2, 3}, 1},
		{"none holds it", []float64{9, 1}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Cheapest(tc.need, shapes, costs); got != tc.want {
				t.Errorf("Cheapest(%v) = %d, want %d", tc.need, got, tc.want)
			}
		})
	}
}

// TestFitsOverflow: sums past the int64 range are compared exactly. On
// main, load 2^63−1 plus size 2^63−1 wrapped to −2 and "fitted" a
// capacity of 2^63−1, so two full-node items shared one node.
func TestFitsOverflow(t *testing.T) {
	const maxI = math.MaxInt64
	cases := []struct {
		name                 string
		load, size, capacity []int64
		want                 bool
	}{
		{"full plus full", []int64{maxI}, []int64{maxI}, []int64{maxI}, false},
		{"one past the maximum", []int64{maxI}, []int64{1}, []int64{maxI}, false},
		{"exactly the maximum", []int64{maxI - 1}, []int64{1}, []int64{maxI}, true},
		// −2^63 + (−1) is below every capacity: the item fits.
		{"below the minimum", []int64{math.MinInt64}, []int64{-1}, []int64{0}, true},
		{"second dimension overflows", []int64{0, maxI}, []int64{1, 1}, []int64{5, maxI}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fits(tc.load, tc.size, tc.capacity); got != tc.want {
				t.Errorf("Fits(%v, %v, %v) = %v, want %v", tc.load, tc.size, tc.capacity, got, tc.want)
			}
		})
	}
}

// TestSum checks the exact sum against math/big on sums that leave the
// int64 range in both directions.
func TestSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 2000; trial++ {
		var s Sum
		want := new(big.Int)
		for i := 0; i < 1+rng.IntN(6); i++ {
			v := int64(rng.Uint64())
			if rng.IntN(3) == 0 {
				v = []int64{math.MaxInt64, math.MinInt64, -1, 0, 1}[rng.IntN(5)]
			}
			s.Add(v)
			want.Add(want, big.NewInt(v))
		}
		if s.String() != want.String() {
			t.Fatalf("sum %s, want %s", s, want)
		}
		c := int64(rng.Uint64())
		if got, w := s.Cmp(c), want.Cmp(big.NewInt(c)); got != w {
			t.Fatalf("%s cmp %d = %d, want %d", want, c, got, w)
		}
		if v, ok := s.Int64(); ok != want.IsInt64() || (ok && v != want.Int64()) {
			t.Fatalf("Int64 of %s = %d, %v", want, v, ok)
		}
	}
}
